import type { FastifyInstance } from 'fastify';
import type { Roles } from '@shared/permissions/permissions';
import type { TestUser } from './users';

export async function createWorkspace(app: FastifyInstance, owner: TestUser, name = 'Acme Marketing') {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/workspaces',
    headers: owner.auth,
    payload: { name },
  });
  if (res.statusCode !== 201) throw new Error(`create workspace failed: ${res.statusCode} ${res.body}`);
  return res.json() as { id: string; version: number; roles: Roles };
}

export async function patchWorkspace(app: FastifyInstance, user: TestUser, id: string, payload: object) {
  return app.inject({ method: 'PATCH', url: `/api/v1/workspaces/${id}`, headers: user.auth, payload });
}

import type { FastifyInstance } from 'fastify';
import { randomId } from '@server/lib/ids';
import { lastLink, tokenOf } from '../helpers/outbox';
import type { TestApp } from '../helpers/test-app';

export interface TestUser {
  id: string;
  name: string;
  email: string;
  password: string;
  token: string;
  /** Headers that authenticate as this user. */
  auth: { authorization: string };
}

export function newUserInput(overrides: Partial<{ name: string; email: string; password: string }> = {}) {
  const suffix = randomId(8).toLowerCase();
  return {
    name: `User ${suffix}`,
    email: `user-${suffix}@example.test`,
    password: 'correct horse battery',
    ...overrides,
  };
}

/** Signs up and then in, like the web app (sign-up answers 202 with no session); its mail is in the outbox. */
export async function signUp(app: FastifyInstance, overrides: Parameters<typeof newUserInput>[0] = {}) {
  const input = newUserInput(overrides);
  const res = await app.inject({ method: 'POST', url: '/api/v1/auth/sign-up', payload: input });
  if (res.statusCode !== 202) throw new Error(`sign-up failed: ${res.statusCode} ${res.body}`);
  const signIn = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/sign-in',
    payload: { email: input.email, password: input.password },
  });
  if (signIn.statusCode !== 200) throw new Error(`sign-in failed: ${signIn.statusCode} ${signIn.body}`);
  await app.background.idle();
  const body = signIn.json();
  return {
    ...input,
    id: body.user.id as string,
    token: body.token as string,
    auth: { authorization: `Bearer ${body.token}` },
  } satisfies TestUser;
}

/** Signs up and follows the verification link from the outbox, like a person would. */
export async function verifiedUser(
  t: TestApp,
  overrides: Parameters<typeof newUserInput>[0] = {},
): Promise<TestUser> {
  const user = await signUp(t.app, overrides);
  const token = tokenOf(lastLink(t.dataDir, user.email, '/user/verify-email'));
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/verify-email', payload: { token } });
  if (res.statusCode !== 200) throw new Error(`verify failed: ${res.statusCode} ${res.body}`);
  return user;
}

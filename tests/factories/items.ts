import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Item } from '@shared/api/items';
import type { LocaleSettings } from '@shared/locales/locales';
import type { Role, Roles } from '@shared/permissions/permissions';
import type { TestApp } from '../helpers/test-app';
import { newUserInput, verifiedUser, type TestUser } from './users';
import { createWorkspace, patchWorkspace } from './workspaces';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Calls the API as a user (or anonymously) and answers the raw response. */
export function call(
  t: TestApp,
  method: Method,
  url: string,
  user?: TestUser,
  payload?: object,
  headers: Record<string, string> = {},
) {
  const options: InjectOptions = { method, url, headers: { ...(user?.auth ?? {}), ...headers } };
  if (payload !== undefined) options.payload = payload as InjectOptions['payload'];
  return t.app.inject(options);
}

export const itemsUrl = (ws: string, schema?: string) =>
  `/api/v1/workspaces/${ws}/items${schema ? `/${schema}` : ''}`;
export const itemUrl = (ws: string, schema: string, id: string) => `${itemsUrl(ws, schema)}/${id}`;

/** A complete, valid blog post. */
export const blogPostData = (overrides: Record<string, unknown> = {}) => ({
  name: 'Hello world',
  slug: 'hello-world',
  body: '<p>Hi</p>',
  ...overrides,
});

export const role = (name: string, rights: Partial<Omit<Role, 'name'>>): Role => ({
  name,
  canEdit: [],
  canPublish: [],
  mustApprove: [],
  ...rights,
});

export interface Team {
  ws: string;
  manager: TestUser;
  /** Members by role id they hold (each member holds exactly that one role). */
  members: Record<string, TestUser>;
}

/**
 * A workspace with the given domains and roles, and one verified member per role id in `people`
 * (the manager holds Admin: edit and publish on every schema, no approvals).
 */
export async function teamWorkspace(
  t: TestApp,
  manager: TestUser,
  options: {
    name: string;
    domains?: string[];
    locales?: LocaleSettings;
    roles: Roles;
    people: Record<string, string[]>;
  },
): Promise<Team> {
  const ws = await createWorkspace(t.app, manager, options.name);
  const patched = await patchWorkspace(t.app, manager, ws.id, {
    basics: {
      domains: options.domains ?? ['blogging'],
      stages: ['Live', 'Staging'],
      ...(options.locales ? { locales: options.locales } : {}),
    },
    roles: { ...ws.roles, ...options.roles },
  });
  if (patched.statusCode !== 200) throw new Error(`patch workspace failed: ${patched.body}`);
  const members: Record<string, TestUser> = {};
  for (const [label, roles] of Object.entries(options.people)) {
    const input = newUserInput({ name: label });
    const res = await call(t, 'POST', `/api/v1/workspaces/${ws.id}/members/invitations`, manager, {
      email: input.email,
      roles,
    });
    if (res.statusCode !== 201) throw new Error(`invite failed: ${res.statusCode} ${res.body}`);
    members[label] = await verifiedUser(t, input);
  }
  return { ws: ws.id, manager, members };
}

function expectStatus(res: LightMyRequestResponse, status: number, what: string) {
  if (res.statusCode !== status) throw new Error(`${what} failed: ${res.statusCode} ${res.body}`);
  return res;
}

export async function createItem(
  t: TestApp,
  user: TestUser,
  ws: string,
  schema: string,
  data: object,
): Promise<Item> {
  return expectStatus(await call(t, 'POST', itemsUrl(ws, schema), user, { data }), 201, 'create item').json();
}

export async function saveItem(
  t: TestApp,
  user: TestUser,
  ws: string,
  schema: string,
  id: string,
  data: object,
  baseVersion?: number,
): Promise<Item> {
  return expectStatus(
    await call(t, 'PUT', itemUrl(ws, schema, id), user, { data, baseVersion }),
    200,
    'save item',
  ).json();
}

export async function getItem(
  t: TestApp,
  user: TestUser,
  ws: string,
  schema: string,
  id: string,
): Promise<Item> {
  return expectStatus(await call(t, 'GET', itemUrl(ws, schema, id), user), 200, 'get item').json();
}

export async function publish(
  t: TestApp,
  user: TestUser,
  ws: string,
  schema: string,
  id: string,
  stage = 'live',
  publishRefs = false,
) {
  return call(t, 'POST', `${itemUrl(ws, schema, id)}/publish/${stage}`, user, { publishRefs });
}

export async function approve(
  t: TestApp,
  user: TestUser,
  ws: string,
  schema: string,
  id: string,
  roleId: string,
  comment?: string,
) {
  return call(t, 'POST', `${itemUrl(ws, schema, id)}/approvals`, user, {
    roleId,
    ...(comment ? { comment } : {}),
  });
}

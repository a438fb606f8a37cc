import { notifications } from '@mantine/notifications';
import { act } from 'react';
import type { User } from '@shared/api/auth';
import type { Workspace } from '@shared/api/workspaces';
import { findByText, waitFor } from '@web/test/render';
import { renderApp } from '@web/test/render-app';
import { makeWorkspace } from '@web/test/workspace';
import { forgetLocation } from './guard-actions';

type Handler = (body: unknown) => [number, unknown?];

const verified: User = { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com', emailVerified: true };

let routes: Record<string, Handler>;
let calls: { method: string; path: string; body: unknown }[];

function fakeFetch(input: RequestInfo | URL, init?: RequestInit) {
  const url = new URL(String(input), 'http://localhost');
  const method = (init?.method ?? 'GET').toUpperCase();
  const body = init?.body ? JSON.parse(String(init.body)) : undefined;
  calls.push({ method, path: url.pathname, body });
  const handler = routes[`${method} ${url.pathname}`];
  const [status, json] = handler
    ? handler(body)
    : [404, { error: { code: 'not_found', message: 'Not found' } }];
  return Promise.resolve(
    new Response(json === undefined ? null : JSON.stringify(json), {
      status,
      headers: { 'Content-Type': 'application/json' },
    }),
  );
}

const signedOut = () => ({
  'GET /api/v1/me': () =>
    [401, { error: { code: 'unauthenticated', message: 'Sign in' } }] as [number, unknown],
});
const signedIn = (user: User, workspaces: Workspace[]): Record<string, Handler> => ({
  'GET /api/v1/me': () => [200, { user }],
  'GET /api/v1/workspaces': () => [
    200,
    {
      workspaces: workspaces.map((w) => ({
        id: w.id,
        name: w.name,
        oobeDone: w.oobe.done,
        isWorkspaceManager: w.__permissions.canManageWorkspace,
      })),
    },
  ],
  ...Object.fromEntries(workspaces.map((w) => [`GET /api/v1/workspaces/${w.id}`, () => [200, w]])),
  ...Object.fromEntries(
    workspaces.map((w) => [
      `GET /api/v1/workspaces/${w.id}/items`,
      () => [200, { items: [], nextCursor: null }],
    ]),
  ),
  ...Object.fromEntries(
    workspaces.map((w) => [
      `GET /api/v1/workspaces/${w.id}/members`,
      () => [200, { members: [], invitations: [] }],
    ]),
  ),
});

beforeEach(() => {
  forgetLocation();
  calls = [];
  routes = {};
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
});

afterEach(() => {
  act(() => notifications.clean());
  vi.unstubAllGlobals();
});

describe('route guards in the router', () => {
  it('sends a signed-out visitor of a private page to welcome and remembers the page', async () => {
    routes = { ...signedOut() };
    const { location } = await renderApp('/acme/_settings/users');
    await findByText('Welcome back');
    expect(location()).toBe('/auth/welcome?returnTo=%2Facme%2F_settings%2Fusers');
  });

  it('redirects / to /workspaces/ and shows the list', async () => {
    routes = signedIn(verified, [makeWorkspace(), makeWorkspace({ id: 'beta', name: 'Beta' })]);
    const { location } = await renderApp('/');
    await findByText('Beta');
    expect(location()).toBe('/workspaces/');
  });

  it.each([
    ['/', 'Beta', '/workspaces/'],
    ['/acme', 'None so far', '/acme/_items/all'],
    ['/acme/_items', 'None so far', '/acme/_items/all'],
  ])('redirects %s without the router warning of a leaf route with no element', async (path, text, to) => {
    // React Router warned 'Matched leaf route at location … does not have an element' on the redirects.
    const warn = vi.spyOn(console, 'warn');
    routes = signedIn(verified, [makeWorkspace(), makeWorkspace({ id: 'beta', name: 'Beta' })]);
    const { location } = await renderApp(path);
    await findByText(text);
    expect(location()).toBe(to);
    const leafWarnings = warn.mock.calls.filter(([message]) =>
      String(message).includes('Matched leaf route'),
    );
    expect(leafWarnings).toEqual([]);
    warn.mockRestore();
  });

  it('sends an unverified user to the verify-email page', async () => {
    routes = signedIn({ ...verified, emailVerified: false }, []);
    const { location } = await renderApp('/workspaces');
    await findByText('Confirm your email');
    expect(location()).toBe('/user/verify-email?returnTo=%2Fworkspaces');
  });

  it("takes a signed-in user on welcome to their only workspace's explore view", async () => {
    routes = signedIn(verified, [makeWorkspace()]);
    const { location } = await renderApp('/auth/welcome');
    await findByText('None so far');
    expect(location()).toBe('/acme/_items/all');
  });

  it('forces onboarding before any workspace page', async () => {
    routes = signedIn(verified, [makeWorkspace({ oobe: { done: false } })]);
    const { location } = await renderApp('/acme/_items/all');
    await findByText('Let’s get Acme ready');
    expect(location()).toBe('/acme/_oobe');
  });

  it("goes to /workspaces with 'Workspace not found' when the workspace cannot be selected", async () => {
    routes = signedIn(verified, [makeWorkspace()]);
    routes['GET /api/v1/workspaces/other'] = () => [
      404,
      { error: { code: 'not_found', message: 'Workspace not found' } },
    ];
    const { location } = await renderApp('/other/_items/all');
    await findByText('Workspace not found');
    expect(location()).toBe('/workspaces');
  });

  it('refuses settings to a member who is not a manager: notification, controller_error, back to explore', async () => {
    const member = makeWorkspace({
      __permissions: {
        canEdit: [],
        canPublish: [],
        canApprove: [],
        canManageWorkspace: false,
        roles: [],
        customerData: [],
      },
    });
    routes = { ...signedIn(verified, [member]), 'POST /api/v1/events': () => [204] };
    const { location } = await renderApp('/acme/_settings');
    await findByText('Only workspace managers can open settings');
    await waitFor(() => expect(location()).toBe('/acme/_items/all'));
    expect(
      calls.some(
        (c) =>
          c.path === '/api/v1/events' && (c.body as { eventType: string }).eventType === 'controller_error',
      ),
    ).toBe(true);
  });

  it('hides Need my approval from a member without roles', async () => {
    const member = makeWorkspace({
      __permissions: {
        canEdit: [],
        canPublish: [],
        canApprove: [],
        canManageWorkspace: false,
        roles: [],
        customerData: [],
      },
    });
    routes = signedIn(verified, [member]);
    await renderApp('/acme/_items/all');
    await findByText('Last updated by me');
    expect(document.body.textContent).not.toContain('Need my approval');
  });

  it('shows the not-found page for any other path', async () => {
    routes = signedIn(verified, []);
    await renderApp('/auth/nothing-here');
    await findByText('Page not found');
  });

  it('signs out at /auth/bye', async () => {
    let isSignedIn = true;
    routes = {
      'GET /api/v1/me': () =>
        isSignedIn ? [200, { user: verified }] : [401, { error: { code: 'unauthenticated', message: 'x' } }],
      'POST /api/v1/auth/sign-out': () => {
        isSignedIn = false;
        return [200, { ok: true }];
      },
    };
    await renderApp('/auth/bye');
    await findByText('You are signed out');
    expect(isSignedIn).toBe(false);
  });

  it('sends /auth/bye to welcome when nobody is signed in', async () => {
    routes = { ...signedOut() };
    const { location } = await renderApp('/auth/bye');
    await findByText('Welcome back');
    expect(location()).toBe('/auth/welcome');
    expect(calls.some((c) => c.path === '/api/v1/auth/sign-out')).toBe(false);
  });
});

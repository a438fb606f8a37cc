import type { User } from '@shared/api/auth';
import {
  canBeWorkspaceSegment,
  decideBye,
  decidePrivateRoute,
  decideVerifyEmail,
  decideWelcome,
  decideWorkspaceRoute,
  explorePath,
  safeReturnTo,
  welcomeUrl,
  workspaceIdFromPath,
  workspaceSection,
} from './guards';

const verified: User = { id: 'u1', name: 'Ada', email: 'ada@example.com', emailVerified: true };
const unverified: User = { ...verified, emailVerified: false };

const workspace = (done: boolean, manager: boolean) => ({
  id: 'acme',
  oobe: { done },
  __permissions: { canManageWorkspace: manager },
});

describe('safeReturnTo', () => {
  it('keeps paths of this app with their query', () => {
    expect(safeReturnTo('/acme/_items/all')).toBe('/acme/_items/all');
    expect(safeReturnTo('/acme/_settings/users?x=1')).toBe('/acme/_settings/users?x=1');
  });

  it('refuses other sites, protocol-relative and backslash URLs', () => {
    expect(safeReturnTo('https://evil.example/')).toBeUndefined();
    expect(safeReturnTo('//evil.example/x')).toBeUndefined();
    expect(safeReturnTo('/\\evil.example')).toBeUndefined();
    expect(safeReturnTo('javascript:alert(1)')).toBeUndefined();
  });

  it('refuses auth pages and the verify page, which would bounce back', () => {
    expect(safeReturnTo('/auth/welcome')).toBeUndefined();
    expect(safeReturnTo('/auth/bye')).toBeUndefined();
    expect(safeReturnTo('/auth/welcome?returnTo=/x')).toBeUndefined();
    expect(safeReturnTo('/user/verify-email')).toBeUndefined();
  });

  it('refuses nothing-values', () => {
    expect(safeReturnTo(null)).toBeUndefined();
    expect(safeReturnTo(undefined)).toBeUndefined();
    expect(safeReturnTo('')).toBeUndefined();
  });
});

describe('welcomeUrl', () => {
  it('remembers the attempted URL in the query', () => {
    expect(welcomeUrl('/acme/_settings?a=b')).toBe('/auth/welcome?returnTo=%2Facme%2F_settings%3Fa%3Db');
  });

  it('is the bare welcome page for the landing paths or an unsafe target', () => {
    expect(welcomeUrl('/')).toBe('/auth/welcome');
    expect(welcomeUrl('/workspaces/')).toBe('/auth/welcome');
    expect(welcomeUrl('/workspaces')).toBe('/auth/welcome');
    expect(welcomeUrl('//evil')).toBe('/auth/welcome');
    expect(welcomeUrl()).toBe('/auth/welcome');
  });
});

describe('decidePrivateRoute', () => {
  it('sends a signed-out visitor to welcome, remembering the URL', () => {
    expect(decidePrivateRoute(null, '/workspaces/')).toEqual({ redirect: '/auth/welcome' });
    expect(decidePrivateRoute(null, '/workspaces/create')).toEqual({
      redirect: '/auth/welcome?returnTo=%2Fworkspaces%2Fcreate',
    });
  });

  it('sends an unverified user to verify-email, remembering the URL', () => {
    expect(decidePrivateRoute(unverified, '/acme/_items/all')).toEqual({
      redirect: '/user/verify-email?returnTo=%2Facme%2F_items%2Fall',
    });
    expect(decidePrivateRoute(unverified, '/')).toEqual({ redirect: '/user/verify-email' });
  });

  it('lets a verified user through', () => {
    expect(decidePrivateRoute(verified, '/workspaces')).toBeNull();
  });
});

describe('decideWelcome', () => {
  it('shows the form when nobody is signed in', () => {
    expect(decideWelcome(null, '/acme', [{ id: 'acme' }])).toBeNull();
  });

  it('goes to the remembered URL first', () => {
    expect(decideWelcome(verified, '/acme/_settings', [{ id: 'a' }])).toEqual({
      redirect: '/acme/_settings',
    });
  });

  it("goes to the only workspace's explore view", () => {
    expect(decideWelcome(verified, null, [{ id: 'acme' }])).toEqual({ redirect: '/acme/_items/all' });
  });

  it('goes to / with none or several workspaces, or when they could not be loaded', () => {
    expect(decideWelcome(verified, null, [])).toEqual({ redirect: '/' });
    expect(decideWelcome(verified, null, [{ id: 'a' }, { id: 'b' }])).toEqual({ redirect: '/' });
    expect(decideWelcome(verified, null, undefined)).toEqual({ redirect: '/' });
  });

  it('ignores an unsafe remembered URL', () => {
    expect(decideWelcome(verified, 'https://evil.example', [{ id: 'acme' }])).toEqual({
      redirect: '/acme/_items/all',
    });
  });
});

describe('decideBye', () => {
  it('signs out a signed-in user', () => {
    expect(decideBye(verified)).toBe('sign-out');
    expect(decideBye(unverified)).toBe('sign-out');
  });

  it('sends everyone else to welcome', () => {
    expect(decideBye(null)).toEqual({ redirect: '/auth/welcome' });
  });
});

describe('decideVerifyEmail', () => {
  it('always follows a mailed link, signed in or not', () => {
    expect(decideVerifyEmail(null, true, '/user/verify-email?token=t')).toBeNull();
    expect(decideVerifyEmail(verified, true, '/user/verify-email?token=t')).toBeNull();
  });

  it('is private without a token', () => {
    expect(decideVerifyEmail(null, false, '/user/verify-email')).toEqual({ redirect: '/auth/welcome' });
  });

  it('shows the page to an unverified user', () => {
    expect(decideVerifyEmail(unverified, false, '/user/verify-email')).toBeNull();
  });

  it('moves a verified user on to where they were going, or /', () => {
    expect(decideVerifyEmail(verified, false, '/user/verify-email', '/acme/_items/all')).toEqual({
      redirect: '/acme/_items/all',
    });
    expect(decideVerifyEmail(verified, false, '/user/verify-email')).toEqual({ redirect: '/' });
  });
});

describe('decideWorkspaceRoute', () => {
  it('forces onboarding until it is done', () => {
    expect(decideWorkspaceRoute(workspace(false, true), '/acme/_items/all')).toEqual({
      redirect: '/acme/_oobe',
    });
    expect(decideWorkspaceRoute(workspace(false, true), '/acme/_settings/users')).toEqual({
      redirect: '/acme/_oobe',
    });
    expect(decideWorkspaceRoute(workspace(false, false), '/acme')).toEqual({ redirect: '/acme/_oobe' });
    expect(decideWorkspaceRoute(workspace(false, true), '/acme/_oobe')).toBeNull();
  });

  it('leaves onboarding once done, and sends /{workspace} to explore', () => {
    expect(decideWorkspaceRoute(workspace(true, true), '/acme/_oobe')).toEqual({
      redirect: '/acme/_items/all',
    });
    expect(decideWorkspaceRoute(workspace(true, true), '/acme')).toEqual({ redirect: '/acme/_items/all' });
    expect(decideWorkspaceRoute(workspace(true, true), '/acme/')).toEqual({ redirect: '/acme/_items/all' });
  });

  it('opens settings only for workspace managers', () => {
    expect(decideWorkspaceRoute(workspace(true, true), '/acme/_settings/roles')).toBeNull();
    expect(decideWorkspaceRoute(workspace(true, false), '/acme/_settings')).toEqual({
      deny: 'Only workspace managers can open settings',
      fallback: '/acme/_items/all',
    });
  });

  it('lets members into explore and content pages', () => {
    expect(decideWorkspaceRoute(workspace(true, false), '/acme/_items/published-in/live')).toBeNull();
    expect(decideWorkspaceRoute(workspace(true, false), '/acme/blogging/blog-post')).toBeNull();
  });
});

describe('paths', () => {
  it('builds explore paths with an optional parameter', () => {
    expect(explorePath('acme')).toBe('/acme/_items/all');
    expect(explorePath('acme', 'published-in', 'live')).toBe('/acme/_items/published-in/live');
  });

  it('finds the workspace of a path, never for app-level paths', () => {
    expect(workspaceIdFromPath('/acme/_items/all')).toBe('acme');
    expect(workspaceIdFromPath('/auth/welcome')).toBeUndefined();
    expect(workspaceIdFromPath('/workspaces/create')).toBeUndefined();
    expect(workspaceIdFromPath('/user/verify-email')).toBeUndefined();
    expect(workspaceIdFromPath('/')).toBeUndefined();
    expect(workspaceIdFromPath('/Not_A_Slug')).toBeUndefined();
  });

  it('never takes an app path segment for a workspace', () => {
    expect(canBeWorkspaceSegment('acme')).toBe(true);
    expect(canBeWorkspaceSegment('workspaces')).toBe(false);
    expect(canBeWorkspaceSegment('auth')).toBe(false);
    expect(canBeWorkspaceSegment('Acme')).toBe(false);
  });

  it('names the section of a workspace path', () => {
    expect(workspaceSection('/acme/_settings/users')).toBe('_settings');
    expect(workspaceSection('/acme')).toBe('');
  });
});

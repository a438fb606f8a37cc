/**
 * Route guards as pure decisions (spec §2 route table, §4 Auth states, §8 errors). The router's loaders
 * gather the facts (who is signed in, which workspace) and act on what these functions answer, so the
 * rules can be read and tested without a browser.
 */
import type { User } from '@shared/api/auth';
import type { WorkspaceSummary } from '@shared/api/workspaces';

const WELCOME_PATH = '/auth/welcome';
export const BYE_PATH = '/auth/bye';
const VERIFY_EMAIL_PATH = '/user/verify-email';
export const WORKSPACES_PATH = '/workspaces';
/** Spec §2: `/` redirects to `/workspaces/`. */
export const ROOT_REDIRECT = '/workspaces/';
const DEFAULT_VIEW_ID = 'all';
export const RETURN_TO_PARAM = 'returnTo';

/** First path segments that are not workspace ids. */
const RESERVED_SEGMENTS = new Set([
  'auth',
  'user',
  'workspaces',
  'api',
  'fun',
  'healthz',
  'assets',
  'delivery',
]);

export type Redirect = { redirect: string };
/** A guard refusing a navigation: the message is shown and the navigation is aborted (spec §8). */
type Deny = { deny: string; fallback: string };
export type GuardDecision = Redirect | Deny | null;

export const explorePath = (workspaceId: string, viewId = DEFAULT_VIEW_ID, viewParam?: string) =>
  `/${workspaceId}/_items/${encodeURIComponent(viewId)}${viewParam ? `/${encodeURIComponent(viewParam)}` : ''}`;
export const oobePath = (workspaceId: string) => `/${workspaceId}/_oobe`;
export const settingsPath = (workspaceId: string, section?: string) =>
  `/${workspaceId}/_settings${section ? `/${section}` : ''}`;

const isWorkspaceId = (value: string) => /^[a-z0-9][a-z0-9-]{0,62}$/.test(value);

/** Whether a first path segment can name a workspace at all (app paths like /workspaces/… cannot). */
export const canBeWorkspaceSegment = (segment: string) =>
  isWorkspaceId(segment) && !RESERVED_SEGMENTS.has(segment);

/** The workspace a path belongs to, or undefined for app-level paths like /auth/welcome. */
export function workspaceIdFromPath(pathname: string): string | undefined {
  const first = pathname.split('/').filter(Boolean)[0];
  return first && canBeWorkspaceSegment(first) ? first : undefined;
}

/**
 * A remembered URL is only followed when it is a path of this app (never another site, never an auth
 * page that would bounce the user back).
 */
export function safeReturnTo(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return undefined;
  if (value.length > 2000) return undefined;
  const path = value.split(/[?#]/)[0];
  if (path === WELCOME_PATH || path === BYE_PATH || path.startsWith('/auth/')) return undefined;
  if (path === VERIFY_EMAIL_PATH) return undefined;
  return value;
}

/** Paths that are where everyone lands anyway; remembering them would only skip the one-workspace rule. */
const isLandingPath = (url: string) => ['/', '/workspaces', '/workspaces/'].includes(url);

/** The welcome page, remembering where the user was going (spec §4). */
export function welcomeUrl(attempted?: string): string {
  const target = safeReturnTo(attempted);
  if (!target || isLandingPath(target)) return WELCOME_PATH;
  return `${WELCOME_PATH}?${RETURN_TO_PARAM}=${encodeURIComponent(target)}`;
}

function verifyEmailUrl(attempted?: string): string {
  const target = safeReturnTo(attempted);
  if (!target || target === '/') return VERIFY_EMAIL_PATH;
  return `${VERIFY_EMAIL_PATH}?${RETURN_TO_PARAM}=${encodeURIComponent(target)}`;
}

/**
 * Private routes need a signed-in user with a verified email. `url` is the attempted path with its query.
 */
export function decidePrivateRoute(user: User | null, url: string): GuardDecision {
  if (!user) return { redirect: welcomeUrl(url) };
  if (!user.emailVerified) return { redirect: verifyEmailUrl(url) };
  return null;
}

/**
 * /auth/welcome: nobody signed in → show the form (null). Signed in → the remembered URL; else with
 * exactly one workspace its explore view; with none or several `/`.
 */
export function decideWelcome(
  user: User | null,
  returnTo: string | null | undefined,
  workspaces: readonly Pick<WorkspaceSummary, 'id'>[] | undefined,
): GuardDecision {
  if (!user) return null;
  const target = safeReturnTo(returnTo);
  if (target) return { redirect: target };
  if (workspaces && workspaces.length === 1) return { redirect: explorePath(workspaces[0].id) };
  return { redirect: '/' };
}

/** /auth/bye: signs out when signed in, otherwise goes to the welcome page. */
export function decideBye(user: User | null): 'sign-out' | Redirect {
  return user ? 'sign-out' : { redirect: WELCOME_PATH };
}

/**
 * /user/verify-email: a mailed link (token) is always followed, even from a browser that is not
 * signed in; otherwise the page is private and only useful while the email is unverified.
 */
export function decideVerifyEmail(
  user: User | null,
  hasToken: boolean,
  url: string,
  returnTo?: string | null,
): GuardDecision {
  if (hasToken) return null;
  if (!user) return { redirect: welcomeUrl(url) };
  if (user.emailVerified) return { redirect: safeReturnTo(returnTo) ?? '/' };
  return null;
}

/** The part of a workspace path after the workspace id: '_oobe', '_settings', '_items', a domain, or ''. */
export function workspaceSection(pathname: string): string {
  return pathname.split('/').filter(Boolean)[1] ?? '';
}

interface WorkspaceFacts {
  id: string;
  oobe: { done: boolean };
  __permissions: { canManageWorkspace: boolean };
}

/**
 * Workspace pages: onboarding is forced until oobe.done (spec §4); once done, /_oobe goes to explore;
 * /{workspace} itself goes to explore; settings are for workspace managers only.
 */
export function decideWorkspaceRoute(workspace: WorkspaceFacts, pathname: string): GuardDecision {
  const section = workspaceSection(pathname);
  if (!workspace.oobe.done) return section === '_oobe' ? null : { redirect: oobePath(workspace.id) };
  if (section === '_oobe' || section === '') return { redirect: explorePath(workspace.id) };
  if (section === '_settings' && !workspace.__permissions.canManageWorkspace) {
    return { deny: 'Only workspace managers can open settings', fallback: explorePath(workspace.id) };
  }
  return null;
}

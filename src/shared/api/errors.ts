import { z } from 'zod';

/** Every error answer of the API: `{ error: { code, message } }`, message word for word from the spec where it has one. */
export const ErrorBody = z.object({
  error: z.object({
    code: z.string().describe('Stable machine-readable code, e.g. not_found, conflict, forbidden'),
    message: z.string().describe('Human-readable message'),
    details: z.unknown().optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/**
 * Every error code the API answers, with its one HTTP status. A code never answers with another status,
 * so a client may branch on either.
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  validation_failed: 400,
  /** Sign-in's 'Wrong email or password' and a wrong current password: the caller's own credentials. */
  invalid_credentials: 401,
  unauthorized: 401,
  forbidden: 403,
  /** Password sign-in refused for an address whose workspace signs it in with single sign-on; `details.workspaceId` names it. */
  sso_required: 403,
  not_found: 404,
  domain_not_available: 404,
  conflict: 409,
  too_large: 413,
  too_many_pixels: 413,
  unsupported_type: 415,
  unreadable_image: 422,
  rate_limited: 429,
  internal: 500,
  not_implemented: 501,
  /** An external service failed or refused the request, including refusing the credentials this server is configured with. */
  provider_failed: 502,
  /** The user declined at the provider, or came back from it without a grant. */
  provider_refused: 400,
  /** An integration this server has no settings for; `details.setting` names the environment variable. */
  not_configured: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * The `details` of a `not_configured` answer: the environment variable that switches the integration on
 * (and any that can stand in for it), which a workspace manager is shown.
 */
export const NotConfiguredDetails = z.object({
  setting: z.string(),
  alternatives: z.array(z.string()).optional(),
});
export type NotConfiguredDetails = z.infer<typeof NotConfiguredDetails>;

export const MESSAGES = {
  workspaceNotFound: 'Workspace not found',
  noUser: 'No user. Please sign out and sign in',
  invalidCredentials: 'Wrong email or password',
  emailTaken: 'An account with this email already exists',
  signInLockedOut:
    'Too many sign-in attempts for this email address. Try again in 15 minutes, or reset your password.',
  invalidToken: 'This link is invalid or has expired',
  emailNotVerified: 'Please verify your email address first',
  forbidden: 'You do not have permission to do this',
  staleVersion: 'Someone else saved a newer version. Reload to see their changes.',
  managerRequired: 'Only workspace managers can do this',
  lastManager: 'A workspace needs at least one active workspace manager',
  askManager: 'Ask a workspace manager',
} as const;

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
} as const;

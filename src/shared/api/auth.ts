import { z } from 'zod';
import { TwoFactorChallenge } from './two-factor';

export const Email = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'Enter a valid email address' }))
  .describe('Email address');
export const Password = z
  .string()
  .min(8, { error: 'Password must be at least 8 characters' })
  .max(200, { error: 'Password must be at most 200 characters' })
  .describe('Password, 8 to 200 characters');
/** Where the user goes after following a mailed link: a path of this app, never another site. */
const ReturnTo = z
  .string()
  .max(2000)
  .regex(/^\/(?!\/)/, { error: 'returnTo must be a path of this application' })
  .optional()
  .describe('Path the mailed link returns to');

export const User = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
});
export type User = z.infer<typeof User>;

export const SignUpBody = z.object({
  name: z.string().trim().min(1, { error: 'Name is required' }).max(100).describe('Display name'),
  email: Email,
  password: Password,
  returnTo: ReturnTo,
});
export type SignUpBody = z.input<typeof SignUpBody>;
/** Sign-up answers the same for a new and a registered address (no session): the client signs in next. */
export const SignUpResponse = z.object({ ok: z.literal(true) });

export const SignInBody = z.object({
  email: Email,
  password: z.string().min(1, { error: 'Password is required' }).max(200),
});
export type SignInBody = z.input<typeof SignInBody>;
export const SignedIn = z.object({
  user: User,
  token: z.string().describe('Bearer token, also set as cookie'),
});
export type SignedIn = z.infer<typeof SignedIn>;
/** A session, or — for an account with two-factor on — the pending token its second step takes. */
export const SignInResponse = z.union([SignedIn, TwoFactorChallenge]);
export type SignInResponse = z.infer<typeof SignInResponse>;

export const MeResponse = z.object({ user: User });

export const TokenBody = z.object({ token: z.string().min(1).max(200) });
export const SendVerificationBody = z.object({ returnTo: ReturnTo });
export const RequestPasswordResetBody = z.object({ email: Email, returnTo: ReturnTo });
export const ResetPasswordBody = z.object({ token: z.string().min(1).max(200), password: Password });
export const ChangeEmailBody = z.object({
  currentPassword: z.string().min(1, { error: 'Current password is required' }).max(200),
  newEmail: Email,
  returnTo: ReturnTo,
});
export const OkResponse = z.object({ ok: z.literal(true) });
/** Answer of verify-email and reset-password: where the user should go next. */
export const LinkResultResponse = z.object({
  ok: z.literal(true),
  returnTo: z.string(),
  user: User.optional(),
});

/** One of the signed-in user's sessions, as the Sessions list shows it. */
const SessionSummary = z.object({
  id: z.string().describe('A public id of the session (not its token)'),
  userAgent: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  isCurrent: z.boolean().describe('Whether this is the session of the request'),
});
export const SessionList = z.object({ sessions: z.array(SessionSummary) });
export const SessionParams = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Session not found') });

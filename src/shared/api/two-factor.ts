import { z } from 'zod';
import { AuthenticationResponse } from './passkeys';
export const TWO_FACTOR_MESSAGES = {
  badCode: 'That code is not valid',
  alreadyOn: 'Two-factor sign-in is already on',
  notStarted: 'Start the two-factor set-up first',
  notOn: 'Two-factor sign-in is not on',
  badChallenge: 'This sign-in has expired. Sign in again.',
  lockedOut: 'Too many wrong codes. Try again in 15 minutes.',
  proofRequired: 'Enter a current code or your password',
  wrongPassword: 'Current password is incorrect',
  required: 'This workspace requires two-factor sign-in. Set it up from the user menu first.',
  ownFirst: 'Turn on two-factor sign-in for your own account first',
} as const;

/** A six-digit code of an authenticator app; spaces people type between the digits are dropped. */
const TotpCode = z
  .string()
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, { error: 'Enter the six-digit code of your authenticator app' }));

/** A recovery code as shown (`xxxxx-xxxxx`); case, spaces and dashes do not matter. */
const RecoveryCode = z
  .string()
  .max(40)
  .transform((value) => value.toLowerCase().replace(/[\s-]+/g, ''))
  .pipe(z.string().regex(/^[a-z2-7]{10}$/, { error: 'Enter a recovery code as shown, like abcde-23456' }));

export const TwoFactorStatus = z.object({
  enabled: z.boolean(),
  recoveryCodesLeft: z.number().int().describe('Unused recovery codes (0 when two-factor is off)'),
});
export type TwoFactorStatus = z.infer<typeof TwoFactorStatus>;

export const TwoFactorSetup = z.object({
  secret: z.string().describe('The base32 secret, for typing into an authenticator app'),
  uri: z.string().describe('The same secret as an otpauth:// URI'),
});
export type TwoFactorSetup = z.infer<typeof TwoFactorSetup>;

export const TwoFactorCodeBody = z.object({ code: TotpCode });
export type TwoFactorCodeBody = z.input<typeof TwoFactorCodeBody>;

export const RecoveryCodesResponse = z.object({
  recoveryCodes: z.array(z.string()).describe('Ten single-use codes, shown this once'),
});
export type RecoveryCodesResponse = z.infer<typeof RecoveryCodesResponse>;

/** Turning two-factor off or making new recovery codes: a current code or the account's password. */
export const TwoFactorProofBody = z
  .object({
    code: TotpCode.optional(),
    password: z.string().min(1, { error: 'Password is required' }).max(200).optional(),
  })
  .refine((body) => (body.code === undefined) !== (body.password === undefined), {
    error: TWO_FACTOR_MESSAGES.proofRequired,
  });
export type TwoFactorProofBody = z.input<typeof TwoFactorProofBody>;

/**
 * The second step of a password sign-in: the pending token sign-in answered and one of a code, a
 * recovery code or a passkey's answer to the challenge of `/auth/sign-in/two-factor/passkey-options`.
 */
export const TwoFactorSignInBody = z
  .object({
    pendingToken: z.string().min(1).max(2000),
    code: TotpCode.optional(),
    recoveryCode: RecoveryCode.optional(),
    passkey: AuthenticationResponse.optional(),
  })
  .refine(
    (body) => [body.code, body.recoveryCode, body.passkey].filter((v) => v !== undefined).length === 1,
    {
      error: 'Enter a code of your authenticator app or a recovery code',
    },
  );
export type TwoFactorSignInBody = z.input<typeof TwoFactorSignInBody>;

/** What a correct password answers for an account with two-factor on: no session yet. */
export const TwoFactorChallenge = z.object({
  twoFactorRequired: z.literal(true),
  pendingToken: z.string().describe('Signed, single-use, valid for five minutes'),
  methods: z
    .array(z.enum(['totp', 'passkey']))
    .describe('The second factors the account has: an authenticator app, passkeys or both'),
});
export type TwoFactorChallenge = z.infer<typeof TwoFactorChallenge>;

export const WorkspaceTwoFactor = z.object({
  required: z.boolean().describe('Whether members must have two-factor sign-in to use the workspace'),
});
export type WorkspaceTwoFactor = z.infer<typeof WorkspaceTwoFactor>;

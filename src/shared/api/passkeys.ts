import { z } from 'zod';

/** The HTTP contract of passkeys (WebAuthn): registering them, listing them and signing in with one. */

export const PASSKEY_MESSAGES = {
  notVerified: 'The passkey could not be verified. Try again.',
  expired: 'This passkey request has expired or was used already. Try again.',
  unknown: 'This passkey is not registered with Marquee',
  alreadyAdded: 'This passkey is added already',
  notFound: 'Passkey not found',
  noneAdded: 'This account has no passkey',
  tooMany: 'An account may have at most 20 passkeys',
} as const;

export const MAX_PASSKEYS = 20;

const Base64Url = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]*$/, { error: 'Expected base64url' });

/** What the browser's `navigator.credentials.create()` answered, as @simplewebauthn/browser sends it. */
const RegistrationResponse = z.object({
  id: Base64Url.min(1),
  rawId: Base64Url.min(1),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: Base64Url.min(1),
    attestationObject: Base64Url.min(1),
    transports: z.array(z.string().max(32)).max(10).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});

/** What the browser's `navigator.credentials.get()` answered. */
export const AuthenticationResponse = z.object({
  id: Base64Url.min(1),
  rawId: Base64Url.min(1),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: Base64Url.min(1),
    authenticatorData: Base64Url.min(1),
    signature: Base64Url.min(1),
    userHandle: Base64Url.optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});
export type AuthenticationResponse = z.input<typeof AuthenticationResponse>;

/** Options for the browser's WebAuthn call, made by the server; passed on to @simplewebauthn/browser as they are. */
export const PasskeyOptions = z.looseObject({
  challenge: z.string().describe('Single use, valid for five minutes'),
});
export type PasskeyOptions = z.infer<typeof PasskeyOptions>;

export const PasskeyName = z
  .string()
  .trim()
  .min(1, { error: 'Name the passkey, for example after the device that holds it' })
  .max(64, { error: 'Use at most 64 characters' });

export const AddPasskeyBody = z.object({ name: PasskeyName, response: RegistrationResponse });
export type AddPasskeyBody = z.input<typeof AddPasskeyBody>;

export const Passkey = z.object({
  id: z.string().describe('The credential id'),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type Passkey = z.infer<typeof Passkey>;

export const PasskeyList = z.object({ passkeys: z.array(Passkey) });
export type PasskeyList = z.infer<typeof PasskeyList>;

export const PasskeyParams = z.object({ id: Base64Url.min(1).max(1400) });

export const PasskeySignInBody = z.object({ response: AuthenticationResponse });
export type PasskeySignInBody = z.input<typeof PasskeySignInBody>;

export const PasskeySecondStepOptionsBody = z.object({ pendingToken: z.string().min(1).max(2000) });

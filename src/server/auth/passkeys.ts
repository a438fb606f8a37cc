import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import {
  MAX_PASSKEYS,
  PASSKEY_MESSAGES as M,
  type AddPasskeyBody,
  type AuthenticationResponse,
  type Passkey,
} from '@shared/api/passkeys';
import type { AppContext } from '../context';
import type { Tx } from '../db/client';
import type { WebauthnChallengePurpose } from '../db/schema';
import { AppError, badRequest, conflict, notFound } from '../http/errors';
import { journalAccount } from './account-audit';
import * as repo from './passkey-repository';
import type { UserRow } from './repository';
import * as users from './repository';

const CHALLENGE_LIFETIME_MS = 5 * 60_000;

/** The relying party is the app's public URL: its host names the passkeys, its origin is the one they answer. */
function relyingParty(ctx: AppContext) {
  const url = new URL(ctx.config.publicUrl);
  return { rpID: url.hostname, origin: url.origin };
}

const toDto = (row: repo.PasskeyRow): Passkey => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

const transportsOf = (row: repo.PasskeyRow) => row.transports as AuthenticatorTransport[];

async function storeChallenge(
  ctx: AppContext,
  challenge: string,
  purpose: WebauthnChallengePurpose,
  userId: string | null,
) {
  const expiresAt = new Date(Date.now() + CHALLENGE_LIFETIME_MS);
  await repo.insertChallenge(ctx.db, { challenge, purpose, userId, expiresAt });
}

/** The challenge a response claims to answer, read from its client data; verification checks it again. */
function challengeOf(clientDataJSON: string) {
  try {
    const data: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    const challenge = (data as { challenge?: unknown }).challenge;
    return typeof challenge === 'string' && challenge.length <= 200 ? challenge : undefined;
  } catch {
    return undefined;
  }
}

/** Takes the response's challenge for this purpose and account, or refuses: a challenge answers once. */
async function takeChallengeOf(
  tx: Tx,
  clientDataJSON: string,
  purpose: WebauthnChallengePurpose,
  userId: string | null,
) {
  const challenge = challengeOf(clientDataJSON);
  if (!challenge) throw badRequest(M.notVerified);
  if (!(await repo.takeChallenge(tx, challenge, purpose, userId))) throw badRequest(M.expired);
  return challenge;
}

const notVerified = () => new AppError('invalid_credentials', M.notVerified);

export async function listPasskeys(ctx: AppContext, user: UserRow) {
  return { passkeys: (await repo.listPasskeys(ctx.db, user.id)).map(toDto) };
}

/** Options for `navigator.credentials.create()`: a discoverable credential, none the account has already. */
export async function registrationOptions(ctx: AppContext, user: UserRow) {
  const existing = await repo.listPasskeys(ctx.db, user.id);
  if (existing.length >= MAX_PASSKEYS) throw badRequest(M.tooMany);
  const { rpID } = relyingParty(ctx);
  const options = await generateRegistrationOptions({
    rpName: 'Marquee',
    rpID,
    userName: user.email,
    userDisplayName: user.name,
    userID: new TextEncoder().encode(user.id),
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({ id: row.id, transports: transportsOf(row) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    timeout: CHALLENGE_LIFETIME_MS,
  });
  await storeChallenge(ctx, options.challenge, 'register', user.id);
  return { ...options };
}

/**
 * Adds the passkey the browser made for the account's registration challenge, in one transaction with
 * the challenge's take and the audit rows: a response that does not verify writes nothing.
 */
export async function addPasskey(
  ctx: AppContext,
  user: UserRow,
  body: { name: string; response: AddPasskeyBody['response'] },
  address?: string | null,
) {
  const { rpID, origin } = relyingParty(ctx);
  return ctx.db.transaction(async (tx) => {
    const challenge = await takeChallengeOf(tx, body.response.response.clientDataJSON, 'register', user.id);
    if ((await repo.countPasskeys(tx, user.id)) >= MAX_PASSKEYS) throw badRequest(M.tooMany);
    const verification = await verifyRegistrationResponse({
      response: body.response as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    }).catch((err: unknown) => {
      ctx.log.info({ err }, 'passkey registration refused');
      return undefined;
    });
    if (!verification?.verified) throw badRequest(M.notVerified);
    const { credential } = verification.registrationInfo;
    const row = {
      id: credential.id,
      userId: user.id,
      name: body.name,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? [],
    };
    if (!(await repo.insertPasskey(tx, row))) throw conflict(M.alreadyAdded);
    await journalAccount(tx, user, 'passkey.added', address, { passkey: body.name });
    return toDto((await repo.findPasskey(tx, credential.id))!);
  });
}

export async function removePasskey(ctx: AppContext, user: UserRow, id: string, address?: string | null) {
  await ctx.db.transaction(async (tx) => {
    const removed = await repo.deletePasskey(tx, user.id, id);
    if (!removed) throw notFound(M.notFound);
    await journalAccount(tx, user, 'passkey.removed', address, { passkey: removed.name });
  });
}

/** Checks the passkey's signature over the challenge and moves its counter on; a counter gone back is refused. */
async function verifyAssertion(
  ctx: AppContext,
  tx: Tx,
  input: { response: AuthenticationResponse; challenge: string; passkey: repo.PasskeyRow },
  requireUserVerification: boolean,
) {
  const { rpID, origin } = relyingParty(ctx);
  const { passkey } = input;
  const result = await verifyAuthenticationResponse({
    response: input.response as AuthenticationResponseJSON,
    expectedChallenge: input.challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    credential: {
      id: passkey.id,
      publicKey: Buffer.from(passkey.publicKey, 'base64url'),
      counter: passkey.counter,
      transports: transportsOf(passkey),
    },
    requireUserVerification,
  }).catch((err: unknown) => {
    ctx.log.info({ err, passkey: passkey.id }, 'passkey sign-in refused');
    return undefined;
  });
  if (!result?.verified) throw notVerified();
  if (!(await repo.claimCounter(tx, passkey.id, passkey.counter, result.authenticationInfo.newCounter)))
    throw notVerified();
}

/** Options for `navigator.credentials.get()` with no account named: the authenticator offers its passkeys. */
export async function signInOptions(ctx: AppContext) {
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(ctx).rpID,
    userVerification: 'required',
    timeout: CHALLENGE_LIFETIME_MS,
  });
  await storeChallenge(ctx, options.challenge, 'sign-in', null);
  return { ...options };
}

/**
 * A sign-in with a passkey instead of a password: the passkey names the account, and must have verified
 * the user (a PIN or a biometric), which makes it two factors on its own. Answers the account.
 */
export async function authenticate(ctx: AppContext, response: AuthenticationResponse) {
  return ctx.db.transaction(async (tx) => {
    const challenge = await takeChallengeOf(tx, response.response.clientDataJSON, 'sign-in', null);
    const passkey = await repo.findPasskey(tx, response.id);
    if (!passkey) throw new AppError('invalid_credentials', M.unknown);
    const userHandle = response.response.userHandle;
    if (userHandle && Buffer.from(userHandle, 'base64url').toString('utf8') !== passkey.userId)
      throw notVerified();
    await verifyAssertion(ctx, tx, { response, challenge, passkey }, true);
    return (await users.findUserById(tx, passkey.userId))!;
  });
}

/** Options for the second step of a password sign-in: one of the account's own passkeys. */
export async function secondFactorOptions(ctx: AppContext, userId: string) {
  const keys = await repo.listPasskeys(ctx.db, userId);
  if (!keys.length) throw badRequest(M.noneAdded);
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(ctx).rpID,
    allowCredentials: keys.map((row) => ({ id: row.id, transports: transportsOf(row) })),
    userVerification: 'preferred',
    timeout: CHALLENGE_LIFETIME_MS,
  });
  await storeChallenge(ctx, options.challenge, 'second-factor', userId);
  return { ...options };
}

/** The passkey answer of a password sign-in's second step, inside that step's transaction. */
export async function verifySecondFactor(
  ctx: AppContext,
  tx: Tx,
  userId: string,
  response: AuthenticationResponse,
) {
  const challenge = await takeChallengeOf(tx, response.response.clientDataJSON, 'second-factor', userId);
  const passkey = await repo.findPasskey(tx, response.id);
  if (passkey?.userId !== userId) throw new AppError('invalid_credentials', M.unknown);
  await verifyAssertion(ctx, tx, { response, challenge, passkey }, false);
}

export const hasPasskeys = async (ctx: AppContext, userId: string) =>
  (await repo.countPasskeys(ctx.db, userId)) > 0;

export const deleteExpiredChallenges = repo.deleteExpiredChallenges;

import crypto from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import type { AuditAction } from '@shared/api/delivery';
import type { AuthenticationResponse } from '@shared/api/passkeys';
import { TWO_FACTOR_MESSAGES as M } from '@shared/api/two-factor';
import type { AppContext } from '../context';
import type { Tx } from '../db/client';
import { AppError, badRequest, conflict, rateLimited } from '../http/errors';
import { hashToken } from '../lib/ids';
import { seal, unseal } from '../lib/sealing';
import { journalAccount as journalAccountChange } from './account-audit';
import * as passkeys from './passkeys';
import { verifyPassword } from './passwords';
import * as repo from './repository';
import * as tfRepo from './two-factor-repository';

const CHALLENGE_PURPOSE = 'two-factor-sign-in';
const CHALLENGE_LIFETIME_MS = 5 * 60_000;
const RECOVERY_CODES = 10;
/** Wrong codes an account may have per window before it is locked out, like password attempts. */
const CODE_ATTEMPTS = 10;
const CODE_WINDOW_MS = 15 * 60_000;
/** One 30-second step either side of now, for clocks a little off. */
const EPOCH_TOLERANCE_S = 30;

const secretPurpose = (userId: string) => `totp-secret:${userId}`;
const attemptKey = (userId: string) => hashToken(`two-factor:${userId}`);
const recoveryHash = (code: string) => hashToken(`recovery-code:${code}`);

interface Challenge {
  userId: string;
  nonce: string;
  expiresAt: number;
}

function secretOf(ctx: AppContext, user: repo.UserRow) {
  const secret =
    user.totpSecret && unseal<string>(ctx.config.secret, secretPurpose(user.id), user.totpSecret);
  if (!secret) throw badRequest(M.notStarted);
  return secret;
}

/** The time step of a valid code after the last one the account used, or undefined. */
async function stepOf(secret: string, code: string, afterStep: number | null) {
  const result = await verify({
    secret,
    token: code,
    epochTolerance: EPOCH_TOLERANCE_S,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : undefined;
}

/** Counts a code attempt against the account's window: past the limit every code is refused. */
async function countAttempt(ctx: AppContext, userId: string) {
  const attempts = await repo.countSignInAttempt(ctx.db, attemptKey(userId), CODE_WINDOW_MS);
  if (attempts > CODE_ATTEMPTS) throw rateLimited(M.lockedOut);
}

const wrongCode = () => new AppError('invalid_credentials', M.badCode);

/** Ten codes like `abcde-23456` (50 random bits each); only their hashes are stored. */
function newRecoveryCodes() {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  return Array.from({ length: RECOVERY_CODES }, () => {
    const chars = Array.from(crypto.randomBytes(10), (byte) => alphabet[byte % 32]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

async function storeNewRecoveryCodes(tx: Tx, userId: string) {
  const codes = newRecoveryCodes();
  await tfRepo.replaceRecoveryCodes(
    tx,
    userId,
    codes.map((code) => recoveryHash(code.replace(/-/g, ''))),
  );
  return codes;
}

/** Audits an account-wide change that a valid code or password allowed, which also clears the wrong-code count. */
async function journalAccount(
  tx: Tx,
  user: repo.UserRow,
  action: AuditAction,
  address: string | null | undefined,
  detail?: Record<string, unknown>,
) {
  await repo.clearSignInAttempts(tx, attemptKey(user.id));
  await journalAccountChange(tx, user, action, address, detail);
}

export async function status(ctx: AppContext, user: repo.UserRow) {
  const enabled = user.totpEnabledAt !== null;
  return {
    enabled,
    recoveryCodesLeft: enabled ? await tfRepo.countUnusedRecoveryCodes(ctx.db, user.id) : 0,
  };
}

/** A new secret, sealed onto the account but not in use until a code of it is entered. */
export async function startSetup(ctx: AppContext, user: repo.UserRow) {
  if (user.totpEnabledAt) throw conflict(M.alreadyOn);
  const secret = generateSecret();
  await ctx.db.transaction(async (tx) => {
    const sealed = seal(ctx.config.secret, secretPurpose(user.id), secret);
    await repo.updateUser(tx, user.id, { totpSecret: sealed, totpLastStep: null });
  });
  const issuer = new URL(ctx.config.publicUrl).host || 'Marquee';
  return { secret, uri: generateURI({ issuer: `Marquee (${issuer})`, label: user.email, secret }) };
}

export async function enable(ctx: AppContext, user: repo.UserRow, code: string, address?: string | null) {
  if (user.totpEnabledAt) throw conflict(M.alreadyOn);
  const secret = secretOf(ctx, user);
  await countAttempt(ctx, user.id);
  const step = await stepOf(secret, code, null);
  if (step === undefined) throw wrongCode();
  return ctx.db.transaction(async (tx) => {
    await repo.updateUser(tx, user.id, { totpEnabledAt: new Date(), totpLastStep: step });
    const recoveryCodes = await storeNewRecoveryCodes(tx, user.id);
    await journalAccount(tx, user, 'two-factor.enabled', address);
    return { recoveryCodes };
  });
}

/** Checks a current code (taking its step) or the account's password, for turning off or new codes. */
async function requireProof(
  ctx: AppContext,
  tx: Tx,
  user: repo.UserRow,
  proof: { code?: string; password?: string },
) {
  if (!user.totpEnabledAt) throw badRequest(M.notOn);
  if (proof.password !== undefined) {
    if (!(await verifyPassword(user.passwordHash, proof.password)))
      throw new AppError('invalid_credentials', M.wrongPassword);
    return;
  }
  const step = await stepOf(secretOf(ctx, user), proof.code ?? '', user.totpLastStep);
  if (step === undefined || !(await repo.claimTotpStep(tx, user.id, step))) throw wrongCode();
}

/** A change to the caller's two-factor sign-in, once they proved it is them: one transaction, counted as an attempt. */
async function withProof<T>(
  ctx: AppContext,
  user: repo.UserRow,
  proof: { code?: string; password?: string },
  change: (tx: Tx) => Promise<T>,
): Promise<T> {
  if (!user.totpEnabledAt) throw badRequest(M.notOn);
  await countAttempt(ctx, user.id);
  return ctx.db.transaction(async (tx) => {
    await requireProof(ctx, tx, user, proof);
    return change(tx);
  });
}

export const disable = (
  ctx: AppContext,
  user: repo.UserRow,
  proof: { code?: string; password?: string },
  address?: string | null,
) =>
  withProof(ctx, user, proof, async (tx) => {
    await repo.updateUser(tx, user.id, { totpSecret: null, totpEnabledAt: null, totpLastStep: null });
    await tfRepo.replaceRecoveryCodes(tx, user.id, []);
    await journalAccount(tx, user, 'two-factor.disabled', address);
  });

export const regenerateRecoveryCodes = (
  ctx: AppContext,
  user: repo.UserRow,
  proof: { code?: string; password?: string },
  address?: string | null,
) =>
  withProof(ctx, user, proof, async (tx) => {
    const recoveryCodes = await storeNewRecoveryCodes(tx, user.id);
    await journalAccount(tx, user, 'two-factor.recovery-codes-regenerated', address);
    return { recoveryCodes };
  });

/** The signed, single-use token a correct password answers for an account with two-factor on. */
export function issueChallenge(ctx: AppContext, userId: string) {
  const challenge: Challenge = {
    userId,
    nonce: crypto.randomBytes(16).toString('base64url'),
    expiresAt: Date.now() + CHALLENGE_LIFETIME_MS,
  };
  return seal(ctx.config.secret, CHALLENGE_PURPOSE, challenge);
}

function openChallenge(ctx: AppContext, pendingToken: string) {
  const challenge = unseal<Challenge>(ctx.config.secret, CHALLENGE_PURPOSE, pendingToken);
  if (!challenge || challenge.expiresAt < Date.now()) throw badRequest(M.badChallenge);
  return challenge;
}

/** The WebAuthn options for a passkey as the second step, for the account a pending token names. */
export async function passkeyOptions(ctx: AppContext, pendingToken: string) {
  return passkeys.secondFactorOptions(ctx, openChallenge(ctx, pendingToken).userId);
}

/**
 * The second step: the pending token must be unexpired and not completed before, and the code a valid
 * one of a later step than the account last used (or an unused recovery code, or a passkey of the
 * account answering its challenge). Answers the account;
 * the caller starts the session.
 */
export async function completeChallenge(
  ctx: AppContext,
  input: { pendingToken: string; code?: string; recoveryCode?: string; passkey?: AuthenticationResponse },
  address?: string | null,
) {
  const challenge = openChallenge(ctx, input.pendingToken);
  await countAttempt(ctx, challenge.userId);
  const user = await repo.findUserById(ctx.db, challenge.userId);
  if (!user || (input.passkey === undefined && !user.totpEnabledAt)) throw badRequest(M.badChallenge);
  const step =
    input.code === undefined ? undefined : await stepOf(secretOf(ctx, user), input.code, user.totpLastStep);
  // A wrong code rolls back the take: the pending token stays usable for the next try.
  await ctx.db.transaction(async (tx) => {
    if (!(await tfRepo.takeSignInChallenge(tx, challenge.nonce, new Date(challenge.expiresAt))))
      throw badRequest(M.badChallenge);
    if (input.passkey !== undefined) {
      await passkeys.verifySecondFactor(ctx, tx, user.id, input.passkey);
    } else if (input.code !== undefined) {
      if (step === undefined || !(await repo.claimTotpStep(tx, user.id, step))) throw wrongCode();
    } else {
      if (!(await tfRepo.useRecoveryCode(tx, user.id, recoveryHash(input.recoveryCode ?? ''))))
        throw wrongCode();
      const left = await tfRepo.countUnusedRecoveryCodes(tx, user.id);
      await journalAccount(tx, user, 'two-factor.recovery-code-used', address, { recoveryCodesLeft: left });
    }
    await repo.clearSignInAttempts(tx, attemptKey(user.id));
  });
  return user;
}

export const deleteExpiredChallenges = tfRepo.deleteExpiredSignInChallenges;

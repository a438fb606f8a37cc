import { MESSAGES } from '@shared/api/errors';
import type { User } from '@shared/api/auth';
import type { AuthenticationResponse } from '@shared/api/passkeys';
import type { AppContext } from '../context';
import { AppError, badRequest, conflict, notFound, rateLimited, unauthorized } from '../http/errors';
import { hashToken, randomId, randomToken } from '../lib/ids';
import {
  changeEmailMail,
  newDeviceMail,
  resetPasswordMail,
  signUpAttemptMail,
  verifyEmailMail,
} from '../mail/templates';
import type { EmailTokenKind } from '../db/schema';
import { runAccountVerifiedHooks } from './account-hooks';
import { hashPassword, requireStrongPassword, verifyPassword } from './passwords';
import * as repo from './repository';
import {
  authenticate as authenticatePasskey,
  deleteExpiredChallenges as deleteExpiredPasskeyChallenges,
  hasPasskeys,
} from './passkeys';
import * as twoFactor from './two-factor';

const HOUR = 3600_000;
const LINK_LIFETIME: Record<EmailTokenKind, number> = {
  verify: 48 * HOUR,
  change_email: 48 * HOUR,
  reset: HOUR,
};
const LINK_PATH: Record<EmailTokenKind, string> = {
  verify: '/user/verify-email',
  change_email: '/user/verify-email',
  reset: '/auth/reset-password',
};

export const toUserDto = (u: repo.UserRow): User => ({
  id: u.id,
  name: u.name,
  email: u.email,
  emailVerified: u.emailVerified,
});

export interface SessionMeta {
  userAgent?: string;
  /** The client's address, which the audit rows of invitations joined here name. */
  address?: string;
}

/** Starts a session for the account and answers its token (only the hash is stored). */
export async function startSession(ctx: AppContext, userId: string, meta: SessionMeta) {
  const token = randomToken();
  const userAgent = meta.userAgent?.slice(0, 300);
  const known = await repo.listUserSessions(ctx.db, userId);
  // The first session of an account is not news; a browser none of its live sessions used is.
  if (known.length && !known.some((session) => session.userAgent === (userAgent ?? null)))
    ctx.background.run('new-device mail', () => mailNewDevice(ctx, userId, userAgent, meta.address));
  await repo.insertSession(ctx.db, {
    idHash: hashToken(token),
    userId,
    expiresAt: new Date(Date.now() + ctx.config.sessionDays * 24 * HOUR),
    userAgent,
  });
  return token;
}

async function mailNewDevice(ctx: AppContext, userId: string, userAgent?: string, address?: string) {
  const user = await repo.findUserById(ctx.db, userId);
  if (!user) return;
  const device = {
    userAgent: userAgent || 'an unknown browser',
    address: address || 'an unknown address',
    at: new Date().toUTCString(),
  };
  await ctx.mailer.send(newDeviceMail(user.email, user.name, device, `${ctx.config.publicUrl}/workspaces`));
}

async function mailLink(
  ctx: AppContext,
  user: repo.UserRow,
  kind: EmailTokenKind,
  email: string,
  returnTo = '/',
) {
  const token = randomToken();
  await repo.retireEmailTokens(ctx.db, user.id, kind);
  await repo.insertEmailToken(ctx.db, {
    tokenHash: hashToken(token),
    userId: user.id,
    kind,
    email,
    returnTo,
    expiresAt: new Date(Date.now() + LINK_LIFETIME[kind]),
  });
  const link = `${ctx.config.publicUrl}${LINK_PATH[kind]}?token=${encodeURIComponent(token)}`;
  const mail =
    kind === 'verify'
      ? verifyEmailMail(email, user.name, link)
      : kind === 'change_email'
        ? changeEmailMail(email, user.name, link)
        : resetPasswordMail(email, user.name, link);
  await ctx.mailer.send(mail);
}

/**
 * Creates an unverified account and mails its verification link, or — when the address has an account
 * already — mails its owner that someone tried. Both answer alike and in the same time (the password is
 * hashed and the insert tried either way; the mail goes after the answer), so sign-up cannot tell
 * whether an address is registered. The caller signs in next.
 */
export async function signUp(
  ctx: AppContext,
  input: { name: string; email: string; password: string; returnTo?: string },
) {
  await requireStrongPassword(input.password, [input.name, input.email], 'password');
  const created = await repo.insertUser(ctx.db, {
    id: randomId(),
    name: input.name,
    email: input.email,
    passwordHash: await hashPassword(input.password),
  });
  ctx.background.run('sign-up mail', async () => {
    if (created) return mailLink(ctx, created, 'verify', created.email, input.returnTo);
    const owner = await repo.findUserByEmail(ctx.db, input.email);
    if (!owner) return;
    const link = `${ctx.config.publicUrl}/auth/forgot-password`;
    await ctx.mailer.send(signUpAttemptMail(owner.email, owner.name, link));
  });
}

/** Sign-in attempts an address may have per window, from any number of client addresses and processes. */
export const SIGN_IN_ATTEMPTS = 10;
const SIGN_IN_WINDOW_MS = 15 * 60_000;

/** The per-account limit keys on the address typed, so an unknown address is locked out exactly like a known one. */
const attemptKey = (email: string) => hashToken(`sign-in:${email}`);

export async function signIn(ctx: AppContext, input: { email: string; password: string }, meta: SessionMeta) {
  const key = attemptKey(input.email);
  const attempts = await repo.countSignInAttempt(ctx.db, key, SIGN_IN_WINDOW_MS);
  if (attempts > SIGN_IN_ATTEMPTS) throw rateLimited(MESSAGES.signInLockedOut);
  for (const guard of ctx.passwordSignInGuards) await guard(ctx.db, input.email);
  const user = await repo.findUserByEmail(ctx.db, input.email);
  const isValid = await verifyPassword(user?.passwordHash, input.password);
  if (!user || !isValid) throw new AppError('invalid_credentials', MESSAGES.invalidCredentials);
  await repo.clearSignInAttempts(ctx.db, key);
  const methods = [
    ...(user.totpEnabledAt ? (['totp'] as const) : []),
    ...((await hasPasskeys(ctx, user.id)) ? (['passkey'] as const) : []),
  ];
  if (methods.length)
    return {
      twoFactorRequired: true as const,
      pendingToken: twoFactor.issueChallenge(ctx, user.id),
      methods,
    };
  return finishSignIn(ctx, user, meta);
}

/** A sign-in with a passkey instead of a password; an address whose workspace enforces single sign-on is refused alike. */
export async function signInWithPasskey(
  ctx: AppContext,
  response: AuthenticationResponse,
  meta: SessionMeta,
) {
  const user = await authenticatePasskey(ctx, response);
  for (const guard of ctx.passwordSignInGuards) await guard(ctx.db, user.email);
  return finishSignIn(ctx, user, meta);
}

async function finishSignIn(ctx: AppContext, user: repo.UserRow, meta: SessionMeta) {
  if (user.emailVerified) await runAccountVerifiedHooks(ctx, ctx.db, { ...user, address: meta.address });
  const token = await startSession(ctx, user.id, meta);
  return { user: toUserDto(user), token };
}

/** The second step of a password sign-in with two-factor on: the session starts only here. */
export async function signInSecondStep(
  ctx: AppContext,
  input: { pendingToken: string; code?: string; recoveryCode?: string; passkey?: AuthenticationResponse },
  meta: SessionMeta,
) {
  const user = await twoFactor.completeChallenge(ctx, input, meta.address);
  return finishSignIn(ctx, user, meta);
}

export async function signOut(ctx: AppContext, sessionHash: string) {
  await repo.deleteSession(ctx.db, sessionHash);
}

/** The id the Sessions list names a session by: derived from its stored hash, which never leaves the server. */
const publicSessionId = (idHash: string) => hashToken(`session:${idHash}`).slice(0, 22);

export async function listSessions(ctx: AppContext, user: repo.UserRow, currentHash: string | null) {
  const rows = await repo.listUserSessions(ctx.db, user.id);
  return rows.map((row) => ({
    id: publicSessionId(row.idHash),
    userAgent: row.userAgent,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    isCurrent: row.idHash === currentHash,
  }));
}

/** Ends one of the user's own sessions; another user's, or an unknown id, is 404 alike. */
export async function endSession(ctx: AppContext, user: repo.UserRow, id: string) {
  const rows = await repo.listUserSessions(ctx.db, user.id);
  const found = rows.find((row) => publicSessionId(row.idHash) === id);
  if (!found) throw notFound('Session not found');
  await repo.deleteSession(ctx.db, found.idHash);
}

export async function sendVerification(ctx: AppContext, user: repo.UserRow, returnTo?: string) {
  if (user.emailVerified) return;
  await mailLink(ctx, user, 'verify', user.email, returnTo);
}

/** Confirms a verify or change-email link: the address is verified and pending invitations to it join. */
export async function verifyEmail(ctx: AppContext, token: string, address?: string) {
  return ctx.db.transaction(async (tx) => {
    const link = await repo.consumeEmailToken(tx, hashToken(token), ['verify', 'change_email']);
    if (!link) throw badRequest(MESSAGES.invalidToken);
    if (link.kind === 'change_email') {
      const taken = await repo.findUserByEmail(tx, link.email);
      if (taken && taken.id !== link.userId) throw conflict(MESSAGES.emailTaken);
    }
    const current = await repo.findUserById(tx, link.userId);
    if (!current || (link.kind === 'verify' && current.email !== link.email))
      throw badRequest(MESSAGES.invalidToken);
    const user = await repo.updateUser(tx, link.userId, { email: link.email, emailVerified: true });
    await runAccountVerifiedHooks(ctx, tx, { ...user, address });
    return { returnTo: link.returnTo, user: toUserDto(user) };
  });
}

/** Answers alike, in the same time, whether or not the address has an account: the mail goes after. */
export async function requestPasswordReset(ctx: AppContext, email: string, returnTo?: string) {
  const user = await repo.findUserByEmail(ctx.db, email);
  if (user) ctx.background.run('reset mail', () => mailLink(ctx, user, 'reset', user.email, returnTo));
}

/** Sets the new password and ends every session of the account, so a stolen session dies with the old password. */
export async function resetPassword(ctx: AppContext, token: string, password: string) {
  // Hashed before the transaction, which then holds a connection for milliseconds, not argon2's time.
  const passwordHash = await hashPassword(password);
  return ctx.db.transaction(async (tx) => {
    const link = await repo.consumeEmailToken(tx, hashToken(token), ['reset']);
    if (!link) throw badRequest(MESSAGES.invalidToken);
    const current = await repo.findUserById(tx, link.userId);
    if (!current || current.email !== link.email) throw badRequest(MESSAGES.invalidToken);
    // A refused password rolls the transaction back: the link stays usable.
    await requireStrongPassword(password, [current.name, current.email], 'password');
    const user = await repo.updateUser(tx, link.userId, { passwordHash, emailVerified: true });
    await repo.deleteUserSessions(tx, link.userId);
    await repo.clearSignInAttempts(tx, attemptKey(user.email));
    return { returnTo: link.returnTo };
  });
}

export async function changeEmail(
  ctx: AppContext,
  user: repo.UserRow,
  input: { currentPassword: string; newEmail: string; returnTo?: string },
) {
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw new AppError('invalid_credentials', 'Current password is incorrect');
  }
  if (input.newEmail === user.email) throw badRequest('This is already your email address');
  // A taken address answers like a free one (no link is sent to it; confirming re-checks it anyway).
  const taken = await repo.findUserByEmail(ctx.db, input.newEmail);
  if (taken) return;
  ctx.background.run('change-email mail', () =>
    mailLink(ctx, user, 'change_email', input.newEmail, input.returnTo),
  );
}

export async function resolveSession(ctx: AppContext, token: string) {
  const idHash = hashToken(token);
  const found = await repo.findSessionUser(ctx.db, idHash);
  if (!found) return undefined;
  if (Date.now() - found.session.lastSeenAt.getTime() > HOUR) await repo.touchSession(ctx.db, idHash);
  return { user: found.user, sessionHash: idHash };
}

/** Hourly, in every process: forget expired sessions and sign-in counts whose window is over. */
export function startHousekeeping(ctx: AppContext): () => void {
  const timer = setInterval(() => {
    Promise.all([
      repo.deleteExpiredSessions(ctx.db),
      repo.deleteOldSignInAttempts(ctx.db, SIGN_IN_WINDOW_MS),
      twoFactor.deleteExpiredChallenges(ctx.db),
      deleteExpiredPasskeyChallenges(ctx.db),
    ]).catch((err: unknown) => ctx.log.warn({ err }, 'housekeeping failed'));
  }, HOUR);
  timer.unref();
  return () => clearInterval(timer);
}

export function requireUser(user: repo.UserRow | null): repo.UserRow {
  if (!user) throw unauthorized();
  return user;
}

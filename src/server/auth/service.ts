import { MESSAGES } from '@shared/api/errors';
import type { User } from '@shared/api/auth';
import type { AppContext } from '../context';
import { AppError, badRequest, conflict, unauthorized } from '../http/errors';
import { hashToken, randomId, randomToken } from '../lib/ids';
import { changeEmailMail, resetPasswordMail, verifyEmailMail } from '../mail/templates';
import { acceptInvitations } from '../members/repository';
import type { EmailTokenKind } from '../db/schema';
import { hashPassword, verifyPassword } from './passwords';
import * as repo from './repository';

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
}

async function startSession(ctx: AppContext, userId: string, meta: SessionMeta) {
  const token = randomToken();
  await repo.insertSession(ctx.db, {
    idHash: hashToken(token),
    userId,
    expiresAt: new Date(Date.now() + ctx.config.sessionDays * 24 * HOUR),
    userAgent: meta.userAgent?.slice(0, 300),
  });
  return token;
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

export async function signUp(
  ctx: AppContext,
  input: { name: string; email: string; password: string; returnTo?: string },
  meta: SessionMeta,
) {
  const user = await repo.insertUser(ctx.db, {
    id: randomId(),
    name: input.name,
    email: input.email,
    passwordHash: await hashPassword(input.password),
  });
  if (!user) throw conflict(MESSAGES.emailTaken);
  await mailLink(ctx, user, 'verify', user.email, input.returnTo);
  const token = await startSession(ctx, user.id, meta);
  return { user: toUserDto(user), token };
}

export async function signIn(ctx: AppContext, input: { email: string; password: string }, meta: SessionMeta) {
  const user = await repo.findUserByEmail(ctx.db, input.email);
  const isValid = await verifyPassword(user?.passwordHash, input.password);
  if (!user || !isValid) throw new AppError(401, 'invalid_credentials', MESSAGES.invalidCredentials);
  if (user.emailVerified) await acceptInvitations(ctx.db, user);
  const token = await startSession(ctx, user.id, meta);
  return { user: toUserDto(user), token };
}

export async function signOut(ctx: AppContext, sessionHash: string) {
  await repo.deleteSession(ctx.db, sessionHash);
}

export async function sendVerification(ctx: AppContext, user: repo.UserRow, returnTo?: string) {
  if (user.emailVerified) return;
  await mailLink(ctx, user, 'verify', user.email, returnTo);
}

/** Confirms a verify or change-email link: the address is verified and pending invitations to it join. */
export async function verifyEmail(ctx: AppContext, token: string) {
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
    await acceptInvitations(tx, user);
    return { returnTo: link.returnTo, user: toUserDto(user) };
  });
}

export async function requestPasswordReset(ctx: AppContext, email: string, returnTo?: string) {
  const user = await repo.findUserByEmail(ctx.db, email);
  // The answer is the same whether or not the address has an account.
  if (user) await mailLink(ctx, user, 'reset', user.email, returnTo);
}

/** Sets the new password and ends every session of the account, so a stolen session dies with the old password. */
export async function resetPassword(ctx: AppContext, token: string, password: string) {
  const passwordHash = await hashPassword(password);
  return ctx.db.transaction(async (tx) => {
    const link = await repo.consumeEmailToken(tx, hashToken(token), ['reset']);
    if (!link) throw badRequest(MESSAGES.invalidToken);
    const user = await repo.updateUser(tx, link.userId, { passwordHash, emailVerified: true });
    if (!user || user.email !== link.email) throw badRequest(MESSAGES.invalidToken);
    await repo.deleteUserSessions(tx, link.userId);
    return { returnTo: link.returnTo };
  });
}

export async function changeEmail(
  ctx: AppContext,
  user: repo.UserRow,
  input: { currentPassword: string; newEmail: string; returnTo?: string },
) {
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw new AppError(400, 'invalid_credentials', 'Current password is incorrect');
  }
  if (input.newEmail === user.email) throw badRequest('This is already your email address');
  if (await repo.findUserByEmail(ctx.db, input.newEmail)) throw conflict(MESSAGES.emailTaken);
  await mailLink(ctx, user, 'change_email', input.newEmail, input.returnTo);
}

export async function resolveSession(ctx: AppContext, token: string) {
  const idHash = hashToken(token);
  const found = await repo.findSessionUser(ctx.db, idHash);
  if (!found) return undefined;
  if (Date.now() - found.session.lastSeenAt.getTime() > HOUR) await repo.touchSession(ctx.db, idHash);
  return { user: found.user, sessionHash: idHash };
}

export function requireUser(user: repo.UserRow | null): repo.UserRow {
  if (!user) throw unauthorized();
  return user;
}

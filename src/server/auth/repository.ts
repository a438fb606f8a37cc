import { and, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { preparedPerDb } from '../db/prepared';
import { readCache } from '../db/read-cache';
import { emailTokens, signInAttempts, sessions, users, type EmailTokenKind } from '../db/schema';
import { journalAccountChange } from '../journal/journal';

export type UserRow = typeof users.$inferSelect;
/** A signed-in user as a request sees them: with the client address audit rows name (none outside requests). */
export type Caller = UserRow & { readonly address?: string | null };
type SessionRow = typeof sessions.$inferSelect;
export interface SessionUser {
  user: UserRow;
  session: SessionRow;
}

/** Session id hash → the session and its user, read on every request (see db/read-cache.ts). */
const SESSION_CACHE = 'session-user';

/** Drops cached sessions after a write that changes them or their user. */
function dropCachedSessions(db: Db | Tx, matches: (idHash: string, found: SessionUser) => boolean) {
  return journalAccountChange(db, { kind: 'cache', name: SESSION_CACHE, matches });
}

export async function findUserByEmail(db: Db | Tx, email: string) {
  const [user] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return user;
}

export async function findUserById(db: Db | Tx, id: string) {
  const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return user;
}

export async function insertUser(db: Db | Tx, user: typeof users.$inferInsert) {
  const [row] = await db.insert(users).values(user).onConflictDoNothing().returning();
  return row;
}

export async function updateUser(db: Db | Tx, id: string, patch: Partial<typeof users.$inferInsert>) {
  const [row] = await db.update(users).set(patch).where(eq(users.id, id)).returning();
  // Items of any workspace name their writer by account name when the member entry has none.
  await journalAccountChange(
    db,
    { kind: 'cache', name: SESSION_CACHE, matches: (_, found: SessionUser) => found.user.id === id },
    ...(patch.name !== undefined ? [{ kind: 'items' as const }] : []),
  );
  return row;
}

export async function insertSession(db: Db | Tx, session: typeof sessions.$inferInsert) {
  await db.insert(sessions).values(session);
}

const selectSessionUser = preparedPerDb((db) =>
  db
    .select({ user: users, session: sessions })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, sql.placeholder('idHash')), gt(sessions.expiresAt, sql`now()`)))
    .limit(1)
    .prepare('session_user'),
);

/** The signed-in user of a session that has not expired; one prepared query, or the short cache. */
export async function findSessionUser(db: Db, idHash: string): Promise<SessionUser | undefined> {
  const read = async () => (await selectSessionUser(db).execute({ idHash }))[0];
  const cache = readCache<SessionUser>(db, SESSION_CACHE);
  const found = cache ? await cache.get(idHash, read) : await read();
  return found && found.session.expiresAt.getTime() > Date.now() ? found : undefined;
}

export async function touchSession(db: Db, idHash: string) {
  await db.update(sessions).set({ lastSeenAt: new Date() }).where(eq(sessions.idHash, idHash));
  await dropCachedSessions(db, (hash) => hash === idHash);
}

export async function deleteSession(db: Db | Tx, idHash: string) {
  await db.delete(sessions).where(eq(sessions.idHash, idHash));
  await dropCachedSessions(db, (hash) => hash === idHash);
}

/** The user's sessions that have not expired, the most recently used first. */
export async function listUserSessions(db: Db, userId: string) {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, sql`now()`)))
    .orderBy(desc(sessions.lastSeenAt));
}

export async function deleteUserSessions(db: Db | Tx, userId: string) {
  await db.delete(sessions).where(eq(sessions.userId, userId));
  await dropCachedSessions(db, (_, found) => found.user.id === userId);
}

export async function deleteExpiredSessions(db: Db) {
  await db.delete(sessions).where(lt(sessions.expiresAt, new Date()));
  await dropCachedSessions(db, (_, found) => found.session.expiresAt.getTime() < Date.now());
}

export async function insertEmailToken(db: Db | Tx, token: typeof emailTokens.$inferInsert) {
  await db.insert(emailTokens).values(token);
}

/** Marks a live token used and answers it; a used, expired or unknown token answers nothing. */
export async function consumeEmailToken(tx: Tx, tokenHash: string, kinds: EmailTokenKind[]) {
  const [token] = await tx
    .update(emailTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(emailTokens.tokenHash, tokenHash),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, new Date()),
        or(...kinds.map((k) => eq(emailTokens.kind, k))),
      ),
    )
    .returning();
  return token;
}

/** Older links of the same kind stop working when a new one is sent. */
export async function retireEmailTokens(db: Db | Tx, userId: string, kind: EmailTokenKind) {
  await db
    .update(emailTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(emailTokens.userId, userId), eq(emailTokens.kind, kind), isNull(emailTokens.usedAt)));
}

/**
 * Counts one sign-in attempt for an address (a new window starts when the last one is over) and answers
 * how many it has had in the current window, this one included. One statement, so concurrent guesses
 * in any process each get their own number.
 */
export async function countSignInAttempt(db: Db, emailHash: string, windowMs: number): Promise<number> {
  const windowOver = sql`${signInAttempts.windowStart} <= now() - make_interval(secs => ${windowMs / 1000})`;
  const [row] = await db
    .insert(signInAttempts)
    .values({ emailHash, attempts: 1 })
    .onConflictDoUpdate({
      target: signInAttempts.emailHash,
      set: {
        attempts: sql`case when ${windowOver} then 1 else ${signInAttempts.attempts} + 1 end`,
        windowStart: sql`case when ${windowOver} then now() else ${signInAttempts.windowStart} end`,
      },
    })
    .returning({ attempts: signInAttempts.attempts });
  return row.attempts;
}

/** A successful sign-in or a password reset starts the address's count over. */
export async function clearSignInAttempts(db: Db | Tx, emailHash: string) {
  await db.delete(signInAttempts).where(eq(signInAttempts.emailHash, emailHash));
}

export async function deleteOldSignInAttempts(db: Db, windowMs: number) {
  await db.delete(signInAttempts).where(lt(signInAttempts.windowStart, new Date(Date.now() - windowMs)));
}

/**
 * Takes a TOTP time step for the account when it is later than the last one taken: answers false for a
 * code of a step already used (a replay), however many requests race.
 */
export async function claimTotpStep(db: Db | Tx, userId: string, step: number) {
  const taken = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(
      and(
        eq(users.id, userId),
        or(isNull(users.totpLastStep), lt(users.totpLastStep, step)),
        sql`${users.totpEnabledAt} is not null`,
      ),
    )
    .returning({ id: users.id });
  await dropCachedSessions(db, (_, found) => found.user.id === userId);
  return taken.length > 0;
}

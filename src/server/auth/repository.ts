import { and, eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { emailTokens, sessions, users, type EmailTokenKind } from '../db/schema';

export type UserRow = typeof users.$inferSelect;

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
  return row;
}

export async function insertSession(db: Db | Tx, session: typeof sessions.$inferInsert) {
  await db.insert(sessions).values(session);
}

/** The signed-in user of a session that has not expired. */
export async function findSessionUser(db: Db, idHash: string) {
  const [row] = await db
    .select({ user: users, session: sessions })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, new Date())))
    .limit(1);
  return row;
}

export async function touchSession(db: Db, idHash: string) {
  await db.update(sessions).set({ lastSeenAt: new Date() }).where(eq(sessions.idHash, idHash));
}

export async function deleteSession(db: Db | Tx, idHash: string) {
  await db.delete(sessions).where(eq(sessions.idHash, idHash));
}

export async function deleteUserSessions(db: Db | Tx, userId: string) {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

export async function deleteExpiredSessions(db: Db) {
  await db.delete(sessions).where(lt(sessions.expiresAt, new Date()));
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

import { and, asc, count, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { passkeys, webauthnChallenges, type WebauthnChallengePurpose } from '../db/schema';

export type PasskeyRow = typeof passkeys.$inferSelect;

export async function listPasskeys(db: Db | Tx, userId: string) {
  return db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt));
}

export async function countPasskeys(db: Db | Tx, userId: string) {
  const [row] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
  return row?.n ?? 0;
}

export async function findPasskey(db: Db | Tx, id: string) {
  const [row] = await db.select().from(passkeys).where(eq(passkeys.id, id)).limit(1);
  return row;
}

/** Answers false when a passkey with this credential id exists already (of this account or another). */
export async function insertPasskey(tx: Tx, row: typeof passkeys.$inferInsert) {
  const inserted = await tx.insert(passkeys).values(row).onConflictDoNothing().returning({ id: passkeys.id });
  return inserted.length > 0;
}

export async function deletePasskey(tx: Tx, userId: string, id: string) {
  const [row] = await tx
    .delete(passkeys)
    .where(and(eq(passkeys.userId, userId), eq(passkeys.id, id)))
    .returning({ name: passkeys.name });
  return row;
}

/**
 * Moves the signature counter on from the value verification read: answers false when another sign-in
 * with the same passkey moved it first, however many race.
 */
export async function claimCounter(tx: Tx, id: string, seen: number, next: number) {
  const moved = await tx
    .update(passkeys)
    .set({ counter: next, lastUsedAt: new Date() })
    .where(and(eq(passkeys.id, id), eq(passkeys.counter, seen)))
    .returning({ id: passkeys.id });
  return moved.length > 0;
}

export async function insertChallenge(db: Db | Tx, row: typeof webauthnChallenges.$inferInsert) {
  await db.insert(webauthnChallenges).values(row);
}

/** Takes an unexpired challenge made for this purpose (and account): it answers once, then is gone. */
export async function takeChallenge(
  db: Db | Tx,
  challenge: string,
  purpose: WebauthnChallengePurpose,
  userId: string | null,
) {
  const taken = await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.challenge, challenge),
        eq(webauthnChallenges.purpose, purpose),
        userId === null ? isNull(webauthnChallenges.userId) : eq(webauthnChallenges.userId, userId),
        gt(webauthnChallenges.expiresAt, new Date()),
      ),
    )
    .returning({ challenge: webauthnChallenges.challenge });
  return taken.length > 0;
}

export async function deleteExpiredChallenges(db: Db) {
  await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, new Date()));
}

import { and, count, eq, isNull, lt } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { members, recoveryCodes, usedSignInChallenges } from '../db/schema';

/** Replaces every recovery code of the account with the given hashes. */
export async function replaceRecoveryCodes(db: Db | Tx, userId: string, codeHashes: string[]) {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  if (codeHashes.length)
    await db.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
}

/** Marks an unused recovery code used; answers whether there was one. */
export async function useRecoveryCode(db: Db | Tx, userId: string, codeHash: string) {
  const used = await db
    .update(recoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        eq(recoveryCodes.codeHash, codeHash),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ userId: recoveryCodes.userId });
  return used.length > 0;
}

export async function countUnusedRecoveryCodes(db: Db | Tx, userId: string) {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.n ?? 0;
}

/** Records a pending sign-in as completed; answers false when it already was. */
export async function takeSignInChallenge(db: Db | Tx, nonce: string, expiresAt: Date) {
  const taken = await db
    .insert(usedSignInChallenges)
    .values({ nonce, expiresAt })
    .onConflictDoNothing()
    .returning({ nonce: usedSignInChallenges.nonce });
  return taken.length > 0;
}

export async function deleteExpiredSignInChallenges(db: Db) {
  await db.delete(usedSignInChallenges).where(lt(usedSignInChallenges.expiresAt, new Date()));
}

/** The workspaces where the account is an active member: its account-wide changes are audited in each. */
export async function activeWorkspaceIdsOf(db: Db | Tx, userId: string) {
  const rows = await db
    .select({ workspaceId: members.workspaceId })
    .from(members)
    .where(and(eq(members.userId, userId), eq(members.active, true)));
  return rows.map((row) => row.workspaceId);
}

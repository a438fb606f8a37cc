import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { preparedPerDb } from '../db/prepared';
import { readCache } from '../db/read-cache';
import { members, ssoIdentities, workspaces } from '../db/schema';
import type { Change } from '../journal/changes';

export type WorkspaceRow = typeof workspaces.$inferSelect;
type MemberRow = typeof members.$inferSelect;
export interface Membership {
  workspace: WorkspaceRow;
  member: MemberRow;
}

/** (workspace, user) → the workspace and the member entry, read on every workspace route (see db/read-cache.ts). */
const MEMBERSHIP_CACHE = 'membership';

/**
 * The change to journal with any write to a workspace or to its members: drops the cached memberships
 * of that workspace (or only the one member's, given the user).
 */
export const membershipsChanged = (workspaceId: string, userId?: string): Change => ({
  kind: 'cache',
  name: MEMBERSHIP_CACHE,
  matches: (_, found: Membership) =>
    found.workspace.id === workspaceId && (userId === undefined || found.member.userId === userId),
});

/** Forgets this process's cached entry of one member, so the next read asks the database (no write). */
export function forgetCachedMembership(db: Db, workspaceId: string, userId: string) {
  readCache<Membership>(db, MEMBERSHIP_CACHE)?.drop(
    (_, found) => found.workspace.id === workspaceId && found.member.userId === userId,
  );
}

const selectMembership = preparedPerDb((db) =>
  db
    .select({ workspace: workspaces, member: members })
    .from(members)
    .innerJoin(workspaces, eq(workspaces.id, members.workspaceId))
    .where(
      and(
        eq(members.workspaceId, sql.placeholder('workspaceId')),
        eq(members.userId, sql.placeholder('userId')),
      ),
    )
    .limit(1)
    .prepare('membership'),
);

/** The workspace and the user's member entry (active or not) in one query, or the short cache; nothing when either is missing. */
export async function findMembership(
  db: Db,
  workspaceId: string,
  userId: string,
): Promise<Membership | undefined> {
  const read = async () => (await selectMembership(db).execute({ workspaceId, userId }))[0];
  const cache = readCache<Membership>(db, MEMBERSHIP_CACHE);
  return cache ? cache.get(`${workspaceId}\n${userId}`, read) : read();
}

/** Workspaces where the user's member entry is active (spec §6). */
export async function listWorkspacesOfUser(db: Db, userId: string) {
  return db
    .select({
      id: workspaces.id,
      name: workspaces.name,
      oobeDone: workspaces.oobeDone,
      isWorkspaceManager: members.isManager,
    })
    .from(members)
    .innerJoin(workspaces, eq(workspaces.id, members.workspaceId))
    .where(and(eq(members.userId, userId), eq(members.active, true)))
    .orderBy(workspaces.name, workspaces.id);
}

/** Inserts unless the id is taken; answers the row or nothing. */
export async function insertWorkspace(db: Db | Tx, row: typeof workspaces.$inferInsert) {
  const [inserted] = await db.insert(workspaces).values(row).onConflictDoNothing().returning();
  return inserted;
}

/** Saves a new state when the stored version is still `baseVersion`; answers nothing when it is stale. */
export async function updateWorkspace(
  tx: Tx,
  id: string,
  baseVersion: number,
  patch: Partial<Pick<WorkspaceRow, 'name' | 'basics' | 'roles' | 'oobeDone' | 'requireTwoFactor'>>,
) {
  const [row] = await tx
    .update(workspaces)
    .set({ ...patch, version: sql`${workspaces.version} + 1` })
    .where(and(eq(workspaces.id, id), eq(workspaces.version, baseVersion)))
    .returning();
  return row;
}

/** Whether the account signs in to the workspace through its single sign-on (whose provider asks any second factor). */
export async function hasSsoIdentity(db: Db, workspaceId: string, userId: string) {
  const rows = await db
    .select({ userId: ssoIdentities.userId })
    .from(ssoIdentities)
    .where(and(eq(ssoIdentities.workspaceId, workspaceId), eq(ssoIdentities.userId, userId)))
    .limit(1);
  return rows.length > 0;
}

import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { batches, members, workspaces } from '../db/schema';

export type WorkspaceRow = typeof workspaces.$inferSelect;

export async function findWorkspace(db: Db | Tx, id: string) {
  const [row] = await db.select().from(workspaces).where(eq(workspaces.id, id)).limit(1);
  return row;
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
  patch: Partial<Pick<WorkspaceRow, 'name' | 'basics' | 'roles' | 'oobeDone'>>,
) {
  const [row] = await tx
    .update(workspaces)
    .set({ ...patch, version: sql`${workspaces.version} + 1` })
    .where(and(eq(workspaces.id, id), eq(workspaces.version, baseVersion)))
    .returning();
  return row;
}

export async function listBatches(db: Db, workspaceId: string) {
  return db.select().from(batches).where(eq(batches.workspaceId, workspaceId)).orderBy(sql`${batches.createdAt} desc`);
}

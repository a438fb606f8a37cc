import { and, asc, eq, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { members, scimGroupMembers, scimGroups, scimTokens, scimUsers, workspaces } from '../db/schema';

export type ScimTokenRow = typeof scimTokens.$inferSelect;
export type ScimUserRow = typeof scimUsers.$inferSelect;
export type ScimGroupRow = typeof scimGroups.$inferSelect;

export async function findWorkspace(db: Db, id: string) {
  const [row] = await db.select().from(workspaces).where(eq(workspaces.id, id)).limit(1);
  return row;
}

export async function insertToken(tx: Tx, row: typeof scimTokens.$inferInsert) {
  await tx.insert(scimTokens).values(row);
}

export async function listTokens(db: Db, workspaceId: string) {
  return db
    .select()
    .from(scimTokens)
    .where(eq(scimTokens.workspaceId, workspaceId))
    .orderBy(asc(scimTokens.createdAt), asc(scimTokens.id));
}

export async function deleteToken(tx: Tx, workspaceId: string, id: string) {
  const [row] = await tx
    .delete(scimTokens)
    .where(and(eq(scimTokens.workspaceId, workspaceId), eq(scimTokens.id, id)))
    .returning();
  return row;
}

export async function findTokenByHash(db: Db, tokenHash: string) {
  const [row] = await db.select().from(scimTokens).where(eq(scimTokens.tokenHash, tokenHash)).limit(1);
  return row;
}

/** Notes a use of the token, writing at most once a minute per token. */
export async function touchToken(db: Db, workspaceId: string, id: string, at: Date) {
  await db
    .update(scimTokens)
    .set({ lastUsedAt: at })
    .where(
      and(
        eq(scimTokens.workspaceId, workspaceId),
        eq(scimTokens.id, id),
        or(isNull(scimTokens.lastUsedAt), lt(scimTokens.lastUsedAt, new Date(at.getTime() - 60_000))),
      ),
    );
}

/** A page of rows matching `condition` in creation order, and how many match in all. */
async function pageOf<T extends typeof scimUsers | typeof scimGroups>(
  db: Db,
  table: T,
  condition: SQL | undefined,
  offset: number,
  limit: number,
) {
  const [page, [{ total }]] = await Promise.all([
    limit === 0
      ? Promise.resolve([])
      : db
          .select()
          .from(table as typeof scimUsers)
          .where(condition)
          .orderBy(asc(table.createdAt), asc(table.id))
          .offset(offset)
          .limit(limit),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(table as typeof scimUsers)
      .where(condition),
  ]);
  return { page: page as T['$inferSelect'][], total };
}

/** A page of the workspace's users matching `where` (a compiled filter), and the total. */
export const listUsers = (
  db: Db,
  workspaceId: string,
  where: SQL | undefined,
  offset: number,
  limit: number,
) => pageOf(db, scimUsers, and(eq(scimUsers.workspaceId, workspaceId), where), offset, limit);

export async function findUser(db: Db | Tx, workspaceId: string, id: string) {
  const [row] = await db
    .select()
    .from(scimUsers)
    .where(and(eq(scimUsers.workspaceId, workspaceId), eq(scimUsers.id, id)))
    .limit(1);
  return row;
}

export async function findUsers(db: Db | Tx, workspaceId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(scimUsers)
    .where(and(eq(scimUsers.workspaceId, workspaceId), inArray(scimUsers.id, ids)));
}

/** Locks the user's row for the rest of the transaction (concurrent PATCHes apply one after the other). */
export async function lockUser(tx: Tx, workspaceId: string, id: string) {
  const [row] = await tx
    .select()
    .from(scimUsers)
    .where(and(eq(scimUsers.workspaceId, workspaceId), eq(scimUsers.id, id)))
    .for('update')
    .limit(1);
  return row;
}

/** Inserts unless the userName is taken (case-insensitively); answers the row or nothing. */
export async function insertUser(tx: Tx, row: typeof scimUsers.$inferInsert) {
  const [inserted] = await tx.insert(scimUsers).values(row).onConflictDoNothing().returning();
  return inserted;
}

export async function userNameTaken(db: Db | Tx, workspaceId: string, userName: string, exceptId?: string) {
  const rows = await db
    .select({ id: scimUsers.id })
    .from(scimUsers)
    .where(
      and(
        eq(scimUsers.workspaceId, workspaceId),
        sql`lower(${scimUsers.userName}) = lower(${userName})`,
        exceptId ? sql`${scimUsers.id} <> ${exceptId}` : undefined,
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export async function updateUser(
  tx: Tx,
  workspaceId: string,
  id: string,
  patch: Partial<Omit<typeof scimUsers.$inferInsert, 'workspaceId' | 'id'>>,
) {
  const [row] = await tx
    .update(scimUsers)
    .set({ ...patch, version: sql`${scimUsers.version} + 1`, updatedAt: sql`now()` })
    .where(and(eq(scimUsers.workspaceId, workspaceId), eq(scimUsers.id, id)))
    .returning();
  return row;
}

/** Binds the user to the account that is its member, as a side note of the write it is part of (no new version). */
export async function bindUserAccount(tx: Tx, workspaceId: string, id: string, userId: string) {
  const [row] = await tx
    .update(scimUsers)
    .set({ userId })
    .where(and(eq(scimUsers.workspaceId, workspaceId), eq(scimUsers.id, id)))
    .returning();
  return row;
}

export async function deleteUser(tx: Tx, workspaceId: string, id: string) {
  const [row] = await tx
    .delete(scimUsers)
    .where(and(eq(scimUsers.workspaceId, workspaceId), eq(scimUsers.id, id)))
    .returning();
  return row;
}

/** Binds provisioned users to the account that now holds their address and is a member of their workspace. */
export async function linkAccount(db: Db | Tx, userId: string, email: string) {
  return db
    .update(scimUsers)
    .set({ userId })
    .where(
      and(
        eq(scimUsers.email, email),
        isNull(scimUsers.userId),
        sql`exists (select 1 from ${members} where ${members.workspaceId} = ${scimUsers.workspaceId} and ${members.userId} = ${userId})`,
      ),
    )
    .returning({ workspaceId: scimUsers.workspaceId, active: scimUsers.active });
}

/** The groups of each user: their display names and external ids, what the role rules match. */
export async function groupsOfUsers(db: Db | Tx, workspaceId: string, userIds: string[]) {
  if (userIds.length === 0) return new Map<string, ScimGroupRow[]>();
  const rows = await db
    .select({ userId: scimGroupMembers.scimUserId, group: scimGroups })
    .from(scimGroupMembers)
    .innerJoin(
      scimGroups,
      and(
        eq(scimGroups.workspaceId, scimGroupMembers.workspaceId),
        eq(scimGroups.id, scimGroupMembers.groupId),
      ),
    )
    .where(and(eq(scimGroupMembers.workspaceId, workspaceId), inArray(scimGroupMembers.scimUserId, userIds)))
    .orderBy(asc(scimGroups.displayName));
  const byUser = new Map<string, ScimGroupRow[]>();
  for (const { userId, group } of rows) byUser.set(userId, [...(byUser.get(userId) ?? []), group]);
  return byUser;
}

export const listGroups = (
  db: Db,
  workspaceId: string,
  where: SQL | undefined,
  offset: number,
  limit: number,
) => pageOf(db, scimGroups, and(eq(scimGroups.workspaceId, workspaceId), where), offset, limit);

export async function findGroup(db: Db | Tx, workspaceId: string, id: string) {
  const [row] = await db
    .select()
    .from(scimGroups)
    .where(and(eq(scimGroups.workspaceId, workspaceId), eq(scimGroups.id, id)))
    .limit(1);
  return row;
}

export async function lockGroup(tx: Tx, workspaceId: string, id: string) {
  const [row] = await tx
    .select()
    .from(scimGroups)
    .where(and(eq(scimGroups.workspaceId, workspaceId), eq(scimGroups.id, id)))
    .for('update')
    .limit(1);
  return row;
}

export async function groupNameTaken(
  db: Db | Tx,
  workspaceId: string,
  displayName: string,
  exceptId?: string,
) {
  const rows = await db
    .select({ id: scimGroups.id })
    .from(scimGroups)
    .where(
      and(
        eq(scimGroups.workspaceId, workspaceId),
        sql`lower(${scimGroups.displayName}) = lower(${displayName})`,
        exceptId ? sql`${scimGroups.id} <> ${exceptId}` : undefined,
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export async function insertGroup(tx: Tx, row: typeof scimGroups.$inferInsert) {
  const [inserted] = await tx.insert(scimGroups).values(row).onConflictDoNothing().returning();
  return inserted;
}

export async function updateGroup(
  tx: Tx,
  workspaceId: string,
  id: string,
  patch: Partial<Pick<ScimGroupRow, 'displayName' | 'externalId'>>,
) {
  const [row] = await tx
    .update(scimGroups)
    .set({ ...patch, version: sql`${scimGroups.version} + 1`, updatedAt: sql`now()` })
    .where(and(eq(scimGroups.workspaceId, workspaceId), eq(scimGroups.id, id)))
    .returning();
  return row;
}

export async function deleteGroup(tx: Tx, workspaceId: string, id: string) {
  const [row] = await tx
    .delete(scimGroups)
    .where(and(eq(scimGroups.workspaceId, workspaceId), eq(scimGroups.id, id)))
    .returning();
  return row;
}

/** The members of each group, as (SCIM user id, userName). */
export async function membersOfGroups(db: Db | Tx, workspaceId: string, groupIds: string[]) {
  if (groupIds.length === 0) return new Map<string, { id: string; userName: string }[]>();
  const rows = await db
    .select({ groupId: scimGroupMembers.groupId, id: scimUsers.id, userName: scimUsers.userName })
    .from(scimGroupMembers)
    .innerJoin(
      scimUsers,
      and(
        eq(scimUsers.workspaceId, scimGroupMembers.workspaceId),
        eq(scimUsers.id, scimGroupMembers.scimUserId),
      ),
    )
    .where(and(eq(scimGroupMembers.workspaceId, workspaceId), inArray(scimGroupMembers.groupId, groupIds)))
    .orderBy(asc(scimUsers.userName));
  const byGroup = new Map<string, { id: string; userName: string }[]>();
  for (const { groupId, ...user } of rows) byGroup.set(groupId, [...(byGroup.get(groupId) ?? []), user]);
  return byGroup;
}

/** Which of the ids name users of the workspace. */
export async function existingUserIds(db: Db | Tx, workspaceId: string, ids: string[]) {
  if (ids.length === 0) return new Set<string>();
  const rows = await db
    .select({ id: scimUsers.id })
    .from(scimUsers)
    .where(and(eq(scimUsers.workspaceId, workspaceId), inArray(scimUsers.id, ids)));
  return new Set(rows.map((r) => r.id));
}

export async function addGroupMembers(tx: Tx, workspaceId: string, groupId: string, userIds: string[]) {
  if (userIds.length === 0) return;
  await tx
    .insert(scimGroupMembers)
    .values(userIds.map((scimUserId) => ({ workspaceId, groupId, scimUserId })))
    .onConflictDoNothing();
}

export async function removeGroupMembers(tx: Tx, workspaceId: string, groupId: string, userIds: string[]) {
  if (userIds.length === 0) return;
  await tx
    .delete(scimGroupMembers)
    .where(
      and(
        eq(scimGroupMembers.workspaceId, workspaceId),
        eq(scimGroupMembers.groupId, groupId),
        inArray(scimGroupMembers.scimUserId, userIds),
      ),
    );
}

import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { invitations, members, users } from '../db/schema';
import { trimMemberRoles, type Roles } from '@shared/permissions/permissions';

export type MemberRow = typeof members.$inferSelect;

export async function findMember(db: Db | Tx, workspaceId: string, userId: string) {
  const [row] = await db
    .select()
    .from(members)
    .where(and(eq(members.workspaceId, workspaceId), eq(members.userId, userId)))
    .limit(1);
  return row;
}

export async function listMembers(db: Db | Tx, workspaceId: string) {
  return db
    .select({
      userId: members.userId,
      email: users.email,
      displayName: members.displayName,
      active: members.active,
      roles: members.roles,
      isWorkspaceManager: members.isManager,
    })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(eq(members.workspaceId, workspaceId))
    .orderBy(members.displayName, users.email);
}

export async function insertMember(db: Db | Tx, member: typeof members.$inferInsert) {
  await db.insert(members).values(member).onConflictDoNothing();
}

export async function updateMember(
  db: Db | Tx,
  workspaceId: string,
  userId: string,
  patch: Partial<Pick<MemberRow, 'active' | 'roles' | 'isManager' | 'displayName'>>,
) {
  const [row] = await db
    .update(members)
    .set(patch)
    .where(and(eq(members.workspaceId, workspaceId), eq(members.userId, userId)))
    .returning();
  return row;
}

export async function countActiveManagers(db: Db | Tx, workspaceId: string) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(members)
    .where(and(eq(members.workspaceId, workspaceId), eq(members.active, true), eq(members.isManager, true)));
  return row?.n ?? 0;
}

export async function countActiveMembers(db: Db | Tx, workspaceId: string) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(members)
    .where(and(eq(members.workspaceId, workspaceId), eq(members.active, true)));
  return row?.n ?? 0;
}

export async function listInvitations(db: Db | Tx, workspaceId: string) {
  return db
    .select()
    .from(invitations)
    .where(eq(invitations.workspaceId, workspaceId))
    .orderBy(invitations.email);
}

export async function findInvitation(db: Db | Tx, workspaceId: string, email: string) {
  const [row] = await db
    .select()
    .from(invitations)
    .where(and(eq(invitations.workspaceId, workspaceId), eq(invitations.email, email)))
    .limit(1);
  return row;
}

export async function upsertInvitation(db: Db | Tx, invitation: typeof invitations.$inferInsert) {
  const [row] = await db
    .insert(invitations)
    .values(invitation)
    .onConflictDoUpdate({
      target: [invitations.workspaceId, invitations.email],
      set: {
        roles: invitation.roles,
        isManager: invitation.isManager,
        invitedAt: new Date(),
        invitedBy: invitation.invitedBy,
      },
    })
    .returning();
  return row;
}

export async function deleteInvitation(db: Db | Tx, workspaceId: string, email: string) {
  const rows = await db
    .delete(invitations)
    .where(and(eq(invitations.workspaceId, workspaceId), eq(invitations.email, email)))
    .returning({ email: invitations.email });
  return rows.length > 0;
}

/** Turns every invitation to the user's (verified) address into an active membership; answers them. */
export async function acceptInvitations(db: Db | Tx, user: { id: string; email: string; name: string }) {
  const pending = await db.select().from(invitations).where(eq(invitations.email, user.email));
  for (const invitation of pending) {
    await db
      .insert(members)
      .values({
        workspaceId: invitation.workspaceId,
        userId: user.id,
        active: true,
        displayName: user.name,
        roles: invitation.roles,
        isManager: invitation.isManager,
      })
      .onConflictDoNothing();
    await deleteInvitation(db, invitation.workspaceId, invitation.email);
  }
  return pending;
}

/** Keeps members' and invitations' role lists to roles that still exist (spec §5, on workspace save). */
export async function trimRolesOfMembers(tx: Tx, workspaceId: string, roles: Roles) {
  for (const member of await tx.select().from(members).where(eq(members.workspaceId, workspaceId))) {
    const kept = trimMemberRoles(member.roles, roles);
    if (kept.length !== member.roles.length)
      await updateMember(tx, workspaceId, member.userId, { roles: kept });
  }
  for (const invitation of await listInvitations(tx, workspaceId)) {
    const kept = trimMemberRoles(invitation.roles, roles);
    if (kept.length === invitation.roles.length) continue;
    await tx
      .update(invitations)
      .set({ roles: kept })
      .where(and(eq(invitations.workspaceId, workspaceId), eq(invitations.email, invitation.email)));
  }
}

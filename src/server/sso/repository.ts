import { and, eq, inArray, lt, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { samlAssertions, ssoConnections, ssoDomains, ssoIdentities, workspaces } from '../db/schema';

export type SsoConnectionRow = typeof ssoConnections.$inferSelect;

export async function findConnection(db: Db | Tx, workspaceId: string) {
  const [row] = await db
    .select()
    .from(ssoConnections)
    .where(eq(ssoConnections.workspaceId, workspaceId))
    .limit(1);
  return row;
}

/** The connection that owns an email domain, if any. */
export async function findConnectionByDomain(db: Db | Tx, domain: string) {
  const [row] = await db
    .select({ connection: ssoConnections })
    .from(ssoDomains)
    .innerJoin(ssoConnections, eq(ssoConnections.workspaceId, ssoDomains.workspaceId))
    .where(eq(ssoDomains.domain, domain))
    .limit(1);
  return row?.connection;
}

/** Domains of the list that another workspace's connection owns already. */
export async function domainsOwnedElsewhere(db: Db | Tx, workspaceId: string, domains: string[]) {
  if (!domains.length) return [];
  const rows = await db
    .select({ domain: ssoDomains.domain })
    .from(ssoDomains)
    .where(and(inArray(ssoDomains.domain, domains), ne(ssoDomains.workspaceId, workspaceId)));
  return rows.map((r) => r.domain);
}

/** Writes the connection and the domains it owns (replacing the ones it owned before). */
export async function saveConnection(tx: Tx, row: typeof ssoConnections.$inferInsert) {
  const { workspaceId, ...rest } = row;
  await tx
    .insert(ssoConnections)
    .values(row)
    .onConflictDoUpdate({ target: ssoConnections.workspaceId, set: { ...rest, updatedAt: sql`now()` } });
  await tx.delete(ssoDomains).where(eq(ssoDomains.workspaceId, workspaceId));
  if (row.domains.length)
    await tx.insert(ssoDomains).values(row.domains.map((domain) => ({ domain, workspaceId })));
  return (await findConnection(tx, workspaceId))!;
}

export async function deleteConnection(tx: Tx, workspaceId: string) {
  const rows = await tx
    .delete(ssoConnections)
    .where(eq(ssoConnections.workspaceId, workspaceId))
    .returning({ issuer: ssoConnections.issuer });
  return rows[0];
}

export async function findIdentity(db: Db | Tx, workspaceId: string, issuer: string, subject: string) {
  const [row] = await db
    .select()
    .from(ssoIdentities)
    .where(
      and(
        eq(ssoIdentities.workspaceId, workspaceId),
        eq(ssoIdentities.issuer, issuer),
        eq(ssoIdentities.subject, subject),
      ),
    )
    .limit(1);
  return row;
}

export async function findIdentityOfUser(db: Db | Tx, workspaceId: string, userId: string) {
  const [row] = await db
    .select()
    .from(ssoIdentities)
    .where(and(eq(ssoIdentities.workspaceId, workspaceId), eq(ssoIdentities.userId, userId)))
    .limit(1);
  return row;
}

export async function insertIdentity(db: Db | Tx, row: typeof ssoIdentities.$inferInsert) {
  await db.insert(ssoIdentities).values(row);
}

export async function touchIdentity(db: Db | Tx, workspaceId: string, issuer: string, subject: string) {
  await db
    .update(ssoIdentities)
    .set({ lastSignInAt: sql`now()` })
    .where(
      and(
        eq(ssoIdentities.workspaceId, workspaceId),
        eq(ssoIdentities.issuer, issuer),
        eq(ssoIdentities.subject, subject),
      ),
    );
}

/** The roles a workspace has, which role rules may grant. */
export async function workspaceRolesOf(db: Db | Tx, workspaceId: string) {
  const [row] = await db
    .select({ roles: workspaces.roles })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .limit(1);
  return row?.roles ?? {};
}

/**
 * Records a SAML assertion as used until it expires; answers false when it was used before. The
 * workspace's expired ones go first, so the table holds only assertions that could still be replayed.
 */
export async function takeSamlAssertion(
  db: Db | Tx,
  workspaceId: string,
  assertionId: string,
  expiresAt: Date,
) {
  await db
    .delete(samlAssertions)
    .where(and(eq(samlAssertions.workspaceId, workspaceId), lt(samlAssertions.expiresAt, new Date())));
  const taken = await db
    .insert(samlAssertions)
    .values({ workspaceId, assertionId, expiresAt })
    .onConflictDoNothing()
    .returning({ assertionId: samlAssertions.assertionId });
  return taken.length > 0;
}

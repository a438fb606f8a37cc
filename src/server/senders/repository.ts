import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { RECIPIENT_DEFAULTS } from '@shared/api/senders';
import type { Db, Tx } from '../db/client';
import { items, senders, sendingDomains, sendingSettings } from '../db/schema';

export type SenderRow = typeof senders.$inferSelect;
export type SendingDomainRow = typeof sendingDomains.$inferSelect;

const senderKey = (workspaceId: string, id: string) =>
  and(eq(senders.workspaceId, workspaceId), eq(senders.id, id));
const domainKey = (workspaceId: string, domain: string) =>
  and(eq(sendingDomains.workspaceId, workspaceId), eq(sendingDomains.domain, domain));

export async function listSenders(db: Db | Tx, workspaceId: string) {
  return db
    .select()
    .from(senders)
    .where(eq(senders.workspaceId, workspaceId))
    .orderBy(asc(senders.createdAt), asc(senders.id));
}

export async function findSender(db: Db | Tx, workspaceId: string, id: string) {
  const [row] = await db.select().from(senders).where(senderKey(workspaceId, id));
  return row;
}

export async function insertSender(tx: Tx, row: typeof senders.$inferInsert) {
  const [inserted] = await tx.insert(senders).values(row).returning();
  return inserted;
}

export async function updateSender(
  tx: Tx,
  workspaceId: string,
  id: string,
  patch: Partial<Pick<SenderRow, 'fromName' | 'fromAddress' | 'replyTo' | 'domain'>>,
) {
  const [row] = await tx.update(senders).set(patch).where(senderKey(workspaceId, id)).returning();
  return row;
}

export async function deleteSender(tx: Tx, workspaceId: string, id: string) {
  const [row] = await tx.delete(senders).where(senderKey(workspaceId, id)).returning();
  return row;
}

export async function listDomains(db: Db | Tx, workspaceId: string, domains: string[]) {
  if (domains.length === 0) return [];
  return db
    .select()
    .from(sendingDomains)
    .where(and(eq(sendingDomains.workspaceId, workspaceId), inArray(sendingDomains.domain, domains)))
    .orderBy(asc(sendingDomains.domain));
}

export async function findDomain(db: Db | Tx, workspaceId: string, domain: string) {
  const [row] = await db.select().from(sendingDomains).where(domainKey(workspaceId, domain));
  return row;
}

/** Adds the domain with its key pair unless the workspace has it already (then its key stays). */
export async function ensureDomain(tx: Tx, row: typeof sendingDomains.$inferInsert) {
  await tx.insert(sendingDomains).values(row).onConflictDoNothing();
}

export async function recordCheck(
  tx: Tx,
  workspaceId: string,
  domain: string,
  outcome: { problems: string[]; checkedAt: Date },
) {
  const [row] = await tx
    .update(sendingDomains)
    .set({
      problems: outcome.problems,
      checkedAt: outcome.checkedAt,
      verifiedAt: outcome.problems.length === 0 ? outcome.checkedAt : null,
    })
    .where(domainKey(workspaceId, domain))
    .returning();
  return row;
}

export async function findPostalAddress(db: Db | Tx, workspaceId: string) {
  const [row] = await db
    .select({ postalAddress: sendingSettings.postalAddress })
    .from(sendingSettings)
    .where(eq(sendingSettings.workspaceId, workspaceId));
  return row?.postalAddress ?? '';
}

/** Who the workspace's campaigns go to (the defaults when it never saved its sending settings). */
export async function findRecipientSettings(db: Db | Tx, workspaceId: string) {
  const [row] = await db
    .select({
      emailAttribute: sendingSettings.emailAttribute,
      mailUnknownConsent: sendingSettings.mailUnknownConsent,
    })
    .from(sendingSettings)
    .where(eq(sendingSettings.workspaceId, workspaceId));
  return row ?? RECIPIENT_DEFAULTS;
}

/** Whether one of the workspace's customer profile attributes has the key. */
export async function isAttributeKey(db: Db, workspaceId: string, key: string) {
  const found = await db
    .select({ id: items.id })
    .from(items)
    .where(
      and(
        eq(items.workspaceId, workspaceId),
        eq(items.schema, 'customer-profile-attribute'),
        sql`${items.data} ->> 'key' = ${key}`,
      ),
    )
    .limit(1);
  return found.length > 0;
}

export async function saveRecipientSettings(
  tx: Tx,
  row: { workspaceId: string; emailAttribute: string; mailUnknownConsent: boolean; updatedBy: string },
) {
  const values = { ...row, updatedAt: new Date() };
  const { workspaceId: _, ...changes } = values;
  await tx
    .insert(sendingSettings)
    .values(values)
    .onConflictDoUpdate({ target: sendingSettings.workspaceId, set: changes });
}

export async function savePostalAddress(
  tx: Tx,
  row: { workspaceId: string; postalAddress: string; updatedBy: string },
) {
  const values = { ...row, updatedAt: new Date() };
  await tx
    .insert(sendingSettings)
    .values(values)
    .onConflictDoUpdate({
      target: sendingSettings.workspaceId,
      set: { postalAddress: values.postalAddress, updatedAt: values.updatedAt, updatedBy: values.updatedBy },
    });
}

import { and, desc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { approvals } from '../db/schema';
import type { ItemKey } from '../items/repository';

const ofItem = (key: ItemKey) =>
  and(
    eq(approvals.workspaceId, key.workspaceId),
    eq(approvals.schema, key.schema),
    eq(approvals.itemId, key.id),
  );

export async function insertApproval(tx: Tx, row: typeof approvals.$inferInsert) {
  await tx.insert(approvals).values(row);
}

/** Every approval of every version of an item, newest version first. */
export async function listApprovals(db: Db, key: ItemKey) {
  return db.select().from(approvals).where(ofItem(key)).orderBy(desc(approvals.version), approvals.at);
}

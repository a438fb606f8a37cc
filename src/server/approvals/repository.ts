import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { approvals } from '../db/schema';
import type { ItemKey } from '../items/repository';

export type ApprovalRow = typeof approvals.$inferSelect;

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

/** The approvals of the given versions of some items of one workspace. */
export async function approvalsOfVersions(
  db: Db | Tx,
  workspaceId: string,
  versions: readonly { schema: string; id: string; version: number }[],
) {
  if (versions.length === 0) return [];
  const tuples = versions.map((v) => sql`(${v.schema}, ${v.id}, ${v.version}::int)`);
  return db
    .select()
    .from(approvals)
    .where(
      and(
        eq(approvals.workspaceId, workspaceId),
        sql`(${approvals.schema}, ${approvals.itemId}, ${approvals.version}) in (${sql.join(tuples, sql`, `)})`,
      ),
    );
}

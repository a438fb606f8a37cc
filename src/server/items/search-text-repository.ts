import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { rows } from '../db/migrate';
import { items } from '../db/schema';

/** An item whose search text is still to be computed. */
export interface PendingSearchText {
  workspaceId: string;
  schema: string;
  id: string;
  data: Record<string, unknown>;
}

/** Whether any item's search text is still to be computed (the pending index's first entry). */
export async function hasPendingSearchTexts(db: Db) {
  const [row] = rows<{ pending: boolean }>(
    await db.execute(sql`select exists (select 1 from items where search_text is null) as pending`),
  );
  return Boolean(row?.pending);
}

/**
 * Up to `limit` items whose search text is still to be computed, locked until the transaction ends
 * (a save of one waits, and writes its own); rows another process holds are skipped.
 */
export async function lockPendingSearchTexts(tx: Tx, limit: number): Promise<PendingSearchText[]> {
  return tx
    .select({ workspaceId: items.workspaceId, schema: items.schema, id: items.id, data: items.data })
    .from(items)
    .where(sql`${items.searchText} is null`)
    .limit(limit)
    .for('update', { skipLocked: true });
}

/** Writes the search texts of locked items in one statement; nothing else of them changes. */
export async function writeSearchTexts(
  tx: Tx,
  texts: readonly { workspaceId: string; schema: string; id: string; searchText: string }[],
) {
  if (texts.length === 0) return;
  const relation = JSON.stringify(
    texts.map((t) => ({
      workspace_id: t.workspaceId,
      schema: t.schema,
      id: t.id,
      search_text: t.searchText,
    })),
  );
  await tx.execute(sql`
    update items i set search_text = r.search_text
    from jsonb_to_recordset(${relation}::jsonb) as r(workspace_id text, schema text, id text, search_text text)
    where i.workspace_id = r.workspace_id and i.schema = r.schema and i.id = r.id`);
}

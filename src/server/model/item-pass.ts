import { and, asc, eq, gt } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { items } from '../db/schema';

type Data = Record<string, unknown>;

/** Items are read this many at a time. */
const BATCH = 500;

interface ItemRowLite {
  id: string;
  version: number;
  data: Data;
  hasErrors: boolean;
  modelVersion: number;
}

/** Every item of a schema, a batch at a time in id order. */
export async function* itemsOf(db: Db | Tx, workspaceId: string, schema: string) {
  let after = '';
  for (;;) {
    const batch: ItemRowLite[] = await db
      .select({
        id: items.id,
        version: items.version,
        data: items.data,
        hasErrors: items.hasErrors,
        modelVersion: items.modelVersion,
      })
      .from(items)
      .where(and(eq(items.workspaceId, workspaceId), eq(items.schema, schema), gt(items.id, after)))
      .orderBy(asc(items.id))
      .limit(BATCH);
    if (batch.length === 0) return;
    yield batch;
    after = batch[batch.length - 1].id;
    if (batch.length < BATCH) return;
  }
}

import { and, eq, gt, sql } from 'drizzle-orm';
import {
  LIVE_EVENTS,
  LIVE_MESSAGES,
  LOCK_IDLE_MS,
  type ItemLock,
  type LiveLockEvent,
} from '@shared/api/live';
import { ITEM_MESSAGES } from '@shared/api/items';
import type { AppContext } from '../context';
import type { Db, Tx } from '../db/client';
import { rows } from '../db/migrate';
import { itemLocks } from '../db/schema';
import { conflict, notFound } from '../http/errors';
import { findItem } from '../items/repository';
import { requireRight, type SchemaScope } from '../items/scope';
import { journal } from '../journal/journal';
import { tabKey } from './tab-key';

/**
 * Soft edit locks: entering edit mode takes the item's lock, the editor's tab renews it while they
 * work, Save, Cancel and leaving release it, and it lapses after LOCK_IDLE_MS without renewal. Another
 * member may take it over (the first editor's tab is told). Saves are still checked by version.
 */

type LockRow = typeof itemLocks.$inferSelect;
interface LockRecord {
  user_id: string;
  user_name: string;
  tab: string;
  taken_at: string | Date;
  expires_at: string | Date;
}

const iso = (value: string | Date) => new Date(value).toISOString();
/** A lock as answered and told: its holder's tab by its key, never by its id. */
const presentRecord = (ctx: AppContext, r: LockRecord): ItemLock => ({
  userId: r.user_id,
  name: r.user_name,
  key: tabKey(ctx.config.secret, r.user_id, r.tab),
  takenAt: iso(r.taken_at),
  expiresAt: iso(r.expires_at),
});
const presentRow = (ctx: AppContext, r: LockRow): ItemLock => ({
  userId: r.userId,
  name: r.userName,
  key: tabKey(ctx.config.secret, r.userId, r.tab),
  takenAt: r.takenAt.toISOString(),
  expiresAt: r.expiresAt.toISOString(),
});

const keyOf = (scope: SchemaScope, id: string) =>
  and(
    eq(itemLocks.workspaceId, scope.workspace.id),
    eq(itemLocks.schema, scope.schema.name),
    eq(itemLocks.itemId, id),
  );

/** The item's lock while it holds, or null. */
export async function currentLock(
  ctx: AppContext,
  db: Db | Tx,
  scope: SchemaScope,
  id: string,
): Promise<ItemLock | null> {
  const [row] = await db.select().from(itemLocks).where(keyOf(scope, id)).limit(1);
  return row && row.expiresAt.getTime() > Date.now() ? presentRow(ctx, row) : null;
}

const lockNotice = (scope: SchemaScope, event: LiveLockEvent) => ({
  kind: 'live' as const,
  workspaceId: scope.workspace.id,
  event: LIVE_EVENTS.lock,
  data: { ...event },
});

/**
 * Takes or renews the item's lock for the caller's tab, in one statement: a lapsed lock, or one this
 * tab holds, is taken; another holder's only with `takeOver` (answers 409 'Being edited by {name}'
 * otherwise, with the lock). Answers the lock.
 */
export async function takeLock(
  ctx: AppContext,
  scope: SchemaScope,
  id: string,
  body: { tab: string; takeOver: boolean },
): Promise<{ lock: ItemLock }> {
  requireRight(scope, 'edit');
  const key = { workspaceId: scope.workspace.id, schema: scope.schema.name, id };
  return ctx.db.transaction(async (tx) => {
    if (!(await findItem(tx, key))) throw notFound(ITEM_MESSAGES.instanceNotFound);
    const [before] = await tx
      .select()
      .from(itemLocks)
      .where(and(keyOf(scope, id), gt(itemLocks.expiresAt, sql`now()`)))
      .for('update');
    const [row] = rows<LockRecord>(
      await tx.execute(sql`
        insert into item_locks as l (workspace_id, schema, item_id, user_id, user_name, tab, taken_at, expires_at)
        values (${key.workspaceId}, ${key.schema}, ${id}, ${scope.user.id}, ${scope.member.displayName}, ${body.tab},
                now(), now() + ${`${LOCK_IDLE_MS} milliseconds`}::interval)
        on conflict (workspace_id, schema, item_id) do update set
          user_id = excluded.user_id, user_name = excluded.user_name, tab = excluded.tab,
          taken_at = case when l.user_id = excluded.user_id and l.tab = excluded.tab and l.expires_at > now()
                          then l.taken_at else excluded.taken_at end,
          expires_at = excluded.expires_at
        where l.expires_at <= now() or (l.user_id = excluded.user_id and l.tab = excluded.tab) or ${body.takeOver}
        returning l.*`),
    );
    if (!row) {
      const held = await currentLock(ctx, tx, scope, id);
      throw conflict(LIVE_MESSAGES.beingEdited(held?.name ?? ''), { lock: held });
    }
    const lock = presentRecord(ctx, row);
    const renewed = before && before.userId === row.user_id && before.tab === row.tab;
    if (!renewed) {
      const takenFrom = before
        ? {
            userId: before.userId,
            key: tabKey(ctx.config.secret, before.userId, before.tab),
            name: before.userName,
          }
        : undefined;
      await journal(tx, { changes: [lockNotice(scope, { schema: key.schema, id, lock, takenFrom })] });
    }
    return { lock };
  });
}

/** Releases the item's lock if the caller's tab holds it (Save, Cancel, leaving); answers the lock as it is then. */
export async function releaseLock(ctx: AppContext, scope: SchemaScope, id: string, tab: string) {
  requireRight(scope, 'edit');
  return ctx.db.transaction(async (tx) => {
    const released = await tx
      .delete(itemLocks)
      .where(and(keyOf(scope, id), eq(itemLocks.userId, scope.user.id), eq(itemLocks.tab, tab)))
      .returning();
    if (released.length > 0)
      await journal(tx, { changes: [lockNotice(scope, { schema: scope.schema.name, id, lock: null })] });
    return { lock: await currentLock(ctx, tx, scope, id) };
  });
}

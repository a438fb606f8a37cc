import { sql } from 'drizzle-orm';
import type { UndeclaredKind } from '@shared/api/undeclared';
import type { Db, Tx } from '../db/client';
import { rows } from '../db/migrate';

/** One kept name and type of value, as `noteUndeclared` adds to it: how many messages, texts of an array attribute. */
export interface UndeclaredTally {
  kind: UndeclaredKind;
  event: string;
  name: string;
  type: string;
  count: number;
  examples?: string[];
}

export interface UndeclaredRow extends UndeclaredTally {
  firstSeen: Date;
  lastSeen: Date;
}

/** Texts an array attribute keeps for its options. */
export const MAX_EXAMPLES = 100;

/** Every name the workspace kept (the declared since too), as `kind \t event \t name`. */
export async function undeclaredNames(db: Db, workspaceId: string): Promise<Set<string>> {
  const found = rows<{ kind: string; event: string; name: string }>(
    await db.execute(sql`
      select distinct kind, event, name from customer_undeclared where workspace_id = ${workspaceId}::text`),
  );
  return new Set(found.map((row) => `${row.kind}\t${row.event}\t${row.name}`));
}

/**
 * Adds a request's tallies, in key order (concurrent requests lock shared rows in the same order):
 * counts added, the last time moved on, an array attribute's texts merged up to MAX_EXAMPLES.
 */
export async function noteUndeclared(tx: Tx, workspaceId: string, tallies: UndeclaredTally[], at: Date) {
  if (!tallies.length) return;
  const given = JSON.stringify(tallies.map((t) => ({ ...t, examples: t.examples ?? null })));
  const when = at.toISOString();
  await tx.execute(sql`
    insert into customer_undeclared
      (workspace_id, kind, event, name, type, count, first_seen, last_seen, examples)
    select ${workspaceId}::text, kind, event, name, type, count, ${when}::timestamptz, ${when}::timestamptz, examples
    from jsonb_to_recordset(${given}::jsonb)
      as t(kind text, event text, name text, type text, count bigint, examples text[])
    order by kind, event, name, type
    on conflict (workspace_id, kind, event, name, type) do update set
      count = customer_undeclared.count + excluded.count,
      last_seen = greatest(customer_undeclared.last_seen, excluded.last_seen),
      examples = case
        when excluded.examples is null then customer_undeclared.examples
        else array(select distinct e from unnest(coalesce(customer_undeclared.examples, '{}') || excluded.examples) as u(e)
                   order by e limit ${MAX_EXAMPLES}::int)
      end`);
}

/** Everything the workspace kept, one row per name and type of value. */
export async function listUndeclared(db: Db, workspaceId: string): Promise<UndeclaredRow[]> {
  return rows<{
    kind: UndeclaredKind;
    event: string;
    name: string;
    type: string;
    count: string | number;
    first_seen: string | Date;
    last_seen: string | Date;
    examples: string[] | null;
  }>(
    await db.execute(sql`
      select kind, event, name, type, count, first_seen, last_seen, examples
      from customer_undeclared where workspace_id = ${workspaceId}::text
      order by kind, event, name, type`),
  ).map((row) => ({
    kind: row.kind,
    event: row.event,
    name: row.name,
    type: row.type,
    count: Number(row.count),
    firstSeen: new Date(row.first_seen),
    lastSeen: new Date(row.last_seen),
    ...(row.examples ? { examples: row.examples } : {}),
  }));
}

/**
 * The names a field had before renames, for SQL that reads stored rows: a row written in a model
 * version before a rename holds the value under the old name until the background migration reaches
 * it (model/migrate.ts), so a filter or an order on the new name reads the old one in such rows.
 */
import type { ModelOp } from './types';

/** Rows stored in a model version before `until` hold the field as `name` (null: it had none then). */
export interface FormerName {
  until: number;
  name: string | null;
}

/** Per field of the schema now, its former names, oldest first; fields never renamed are absent. */
export type FormerNames = ReadonlyMap<string, readonly FormerName[]>;

/**
 * The former names of the fields of `schema` (its field keys now: `keys`), from the changes that
 * renamed its fields (any order): the renames are undone from the newest change back, each change as a
 * whole.
 */
export function formerNamesIn(
  changes: readonly { version: number; ops: readonly ModelOp[] }[],
  schema: string,
  keys: Iterable<string>,
): Map<string, FormerName[]> {
  // Each field of the model now (that a rename reached) → its name at the point of history reached.
  const nameAt = new Map<string, string | null>();
  const fieldNamed = (name: string) => {
    for (const [key, at] of nameAt) if (at === name) return key;
    return nameAt.has(name) ? undefined : name;
  };
  const former = new Map<string, FormerName[]>();
  for (const change of [...changes].sort((a, b) => b.version - a.version)) {
    const before = new Map(nameAt);
    for (const op of [...change.ops].reverse()) {
      if (
        op.op !== 'renameField' ||
        op.schema !== schema ||
        op.blockType !== undefined ||
        op.table !== undefined
      )
        continue;
      const key = fieldNamed(op.to);
      if (key === undefined) continue;
      // A field now named as the renamed one was before had no value under that name then.
      const holder = fieldNamed(op.from);
      if (holder !== undefined && holder !== key) nameAt.set(holder, null);
      nameAt.set(key, op.from);
    }
    for (const [key, name] of nameAt) {
      if ((before.has(key) ? before.get(key) : key) === name) continue;
      former.set(key, [{ until: change.version, name }, ...(former.get(key) ?? [])]);
    }
  }
  const now = new Set(keys);
  return new Map([...former].filter(([key]) => now.has(key)));
}

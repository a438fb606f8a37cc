import type { AppContext } from '../context';
import { itemLabel } from '../journal/journal';
import { copyData, uniqueValuesOf } from './copy-data';
import { takenValues } from './repository';
import { requireRight, type SchemaScope } from './scope';
import { createItem, requireItem } from './service';

/** Copies weighed at once when looking for the first whose title and slugs are free. */
const CANDIDATES = 20;

/** The data of the first copy (1, 2, …) whose title and slugs no item of the schema holds yet. */
async function firstFreeCopy(ctx: AppContext, scope: SchemaScope, data: Record<string, unknown>) {
  const { schema } = scope;
  for (let first = 1; ; first += CANDIDATES) {
    const copies = Array.from({ length: CANDIDATES }, (_, i) => copyData(schema, data, first + i));
    const unique = copies.map((copy) => uniqueValuesOf(schema, copy));
    const wanted: Record<string, string[]> = {};
    for (const values of unique)
      for (const [key, value] of Object.entries(values)) (wanted[key] ??= []).push(value);
    const taken = await takenValues(ctx.db, { workspaceId: scope.workspace.id, schema: schema.name }, wanted);
    const free = unique.findIndex((values) =>
      Object.entries(values).every(([key, value]) => !taken.get(key)?.has(value)),
    );
    if (free >= 0) return copies[free];
  }
}

/**
 * Duplicates an item as a new draft: its current data with the title marked as a copy and slugs made
 * unique (`copyData`), created through the same path as any new item (validation, edit rights on the
 * schema, the journal), so it starts at version 1 with no stage copies, approvals, comments or
 * history before it, and nothing kept about the source but what its data holds (a campaign's sends
 * and results stay with the campaign). Audited as item.duplicated, naming the source.
 */
export async function duplicateItem(ctx: AppContext, scope: SchemaScope, id: string) {
  requireRight(scope, 'edit');
  const source = await requireItem(ctx, scope, id);
  const data = await firstFreeCopy(ctx, scope, source.data);
  return createItem(ctx, scope, data, {
    action: 'item.duplicated',
    detail: { sourceId: source.id, sourceVersion: source.version, sourceLabel: itemLabel(source.data) },
  });
}

import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { ContentModel } from '@shared/model/registry';
import { UNNAMED_ITEM } from '@shared/validation/messages';
import type { AppContext } from '../context';
import { items } from '../db/schema';
import { modelOfWorkspace } from '../model/repository';
import type { FileUsage } from './local-analyser';

/** Schemas with top-level file fields, their domain and the keys of those fields. */
const fileFieldsOf = (model: ContentModel) =>
  model.domains.flatMap((domain) =>
    domain.schemas.flatMap((schema) => {
      const keys = schema.fields.filter((f) => f.type === 'file').map((f) => f.key);
      return keys.length > 0 ? [{ domain: domain.name, schema: schema.name, title: schema.title, keys }] : [];
    }),
  );

/**
 * The items whose file fields hold one of the files, as single-item page URLs
 * (`/{workspace}/{domain}/{schema}/{id}`): the local analyser reports matches as these pages.
 */
export async function findItemUsages(
  ctx: AppContext,
  workspaceId: string,
  storageNames: string[],
): Promise<Map<string, FileUsage[]>> {
  const usages = new Map<string, FileUsage[]>();
  const model = storageNames.length === 0 ? undefined : await modelOfWorkspace(ctx.db, workspaceId);
  const fileFields = model ? fileFieldsOf(model) : [];
  if (fileFields.length === 0) return usages;
  const keys = [...new Set(fileFields.flatMap((f) => f.keys))];
  const contains = keys.flatMap((key) =>
    storageNames.map(
      (name) => sql`${items.data} @> ${JSON.stringify({ [key]: { storageName: name } })}::jsonb`,
    ),
  );
  const rows = await ctx.db
    .select({ schema: items.schema, id: items.id, data: items.data })
    .from(items)
    .where(
      and(
        eq(items.workspaceId, workspaceId),
        inArray(
          items.schema,
          fileFields.map((f) => f.schema),
        ),
        or(...contains),
      ),
    )
    .limit(200);
  for (const row of rows) {
    const def = fileFields.find((f) => f.schema === row.schema);
    if (!def) continue;
    const name =
      typeof row.data.name === 'string' && row.data.name.trim() ? row.data.name.trim() : UNNAMED_ITEM;
    for (const key of def.keys) {
      const value = row.data[key] as { storageName?: unknown } | null | undefined;
      if (typeof value?.storageName !== 'string' || !storageNames.includes(value.storageName)) continue;
      const list = usages.get(value.storageName) ?? [];
      list.push({
        url: `/${workspaceId}/${def.domain}/${row.schema}/${row.id}`,
        title: `${def.title} "${name}"`,
      });
      usages.set(value.storageName, list);
    }
  }
  return usages;
}

import { and, eq, inArray, ne } from 'drizzle-orm';
import type { ContentModel } from '@shared/model/registry';
import type { Db, Tx } from '../db/client';
import { published, publishedSlugs } from '../db/schema';
import type { ItemKey, ItemRow } from '../items/repository';
import { slugOf } from './slugs';

const ofItem = (key: ItemKey) =>
  and(eq(published.workspaceId, key.workspaceId), eq(published.schema, key.schema), eq(published.id, key.id));

const copyColumns = {
  schema: published.schema,
  id: published.id,
  stage: published.stage,
  version: published.version,
  publishedAt: published.publishedAt,
  publishedBy: published.publishedBy,
};

/**
 * Copies of some items of a workspace: the condition narrows by schemas and ids, `keep` then holds the
 * exact pairs asked for.
 */
export function copiesOfItems(workspaceId: string, keys: readonly { schema: string; id: string }[]) {
  const wanted = new Set(keys.map((k) => `${k.schema}/${k.id}`));
  return {
    where: and(
      eq(published.workspaceId, workspaceId),
      inArray(published.schema, [...new Set(keys.map((k) => k.schema))]),
      inArray(published.id, [...new Set(keys.map((k) => k.id))]),
    ),
    keep: (row: { schema: string; id: string }) => wanted.has(`${row.schema}/${row.id}`),
  };
}

/** The stage copies of some items of one workspace (without their data). */
export async function copiesOf(
  db: Db | Tx,
  workspaceId: string,
  keys: readonly { schema: string; id: string }[],
) {
  if (keys.length === 0) return [];
  const { where, keep } = copiesOfItems(workspaceId, keys);
  const rows = await db.select(copyColumns).from(published).where(where);
  return rows.filter(keep);
}

/** One version of an item's content, as its history keeps it. */
export interface VersionContent {
  version: number;
  data: ItemRow['data'];
  refs: ItemRow['refs'];
  /** The model version the data is in. */
  modelVersion: number;
}

/**
 * Copies the item's current version (or the given older one) to a stage, replacing an older copy. Its
 * slug joins the slugs the item was published under there, and the others become its previousSlugs.
 */
export async function upsertCopy(
  tx: Tx,
  model: ContentModel,
  item: ItemRow,
  stage: string,
  by: string,
  at: Date,
  content: VersionContent = item,
) {
  const slug = slugOf(model.schema(item.schema), content.data);
  const previousSlugs = slug ? await recordSlug(tx, item, stage, slug, at) : [];
  const values = {
    workspaceId: item.workspaceId,
    schema: item.schema,
    id: item.id,
    stage,
    version: content.version,
    itemVersion: item.version,
    data: content.data,
    refs: content.refs,
    publishedAt: at,
    publishedBy: by,
    slug,
    previousSlugs,
    modelVersion: content.modelVersion,
  };
  await tx
    .insert(published)
    .values(values)
    .onConflictDoUpdate({
      target: [published.workspaceId, published.schema, published.id, published.stage],
      set: {
        version: values.version,
        itemVersion: values.itemVersion,
        data: values.data,
        refs: values.refs,
        publishedAt: at,
        publishedBy: by,
        slug,
        previousSlugs,
        modelVersion: values.modelVersion,
      },
    });
}

/** Keeps the slug among the item's slugs in the stage; answers the others, oldest first. */
async function recordSlug(tx: Tx, item: ItemRow, stage: string, slug: string, at: Date) {
  const place = { workspaceId: item.workspaceId, stage, schema: item.schema, id: item.id };
  await tx
    .insert(publishedSlugs)
    .values({ ...place, slug, firstPublishedAt: at })
    .onConflictDoNothing();
  const others = await tx
    .select({ slug: publishedSlugs.slug })
    .from(publishedSlugs)
    .where(
      and(
        eq(publishedSlugs.workspaceId, place.workspaceId),
        eq(publishedSlugs.schema, place.schema),
        eq(publishedSlugs.id, place.id),
        eq(publishedSlugs.stage, stage),
        ne(publishedSlugs.slug, slug),
      ),
    )
    .orderBy(publishedSlugs.firstPublishedAt, publishedSlugs.slug);
  return others.map((row) => row.slug);
}

export async function deleteCopy(tx: Tx, key: ItemKey, stage: string) {
  const rows = await tx
    .delete(published)
    .where(and(ofItem(key), eq(published.stage, stage)))
    .returning({ id: published.id });
  return rows.length > 0;
}

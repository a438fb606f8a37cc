import { sql } from 'drizzle-orm';
import type { ContentModel } from '@shared/model/registry';
import type { Tx } from '../db/client';
import { rows } from '../db/migrate';
import { slugFieldOf } from '../publishing/slugs';

/** The name-slug field of each schema that has one, for SQL (`{schema: field}`). */
export const slugFieldsOf = (model: ContentModel) =>
  JSON.stringify(
    Object.fromEntries(
      model.schemaNames().flatMap((name) => {
        const field = slugFieldOf(model.schema(name));
        return field ? [[name, field]] : [];
      }),
    ),
  );

/** The columns of a stage copy, in the order the statements below insert them. */
export const COPY_COLUMNS = sql.raw(
  '(workspace_id, schema, id, stage, version, item_version, data, refs, published_at, published_by, slug, previous_slugs, model_version)',
);

/** An insert of copies replaces the stage's copies of the same items. */
export const REPLACING_COPIES = sql.raw(`on conflict (workspace_id, schema, id, stage) do update set
  version = excluded.version, item_version = excluded.item_version, data = excluded.data,
  refs = excluded.refs, published_at = excluded.published_at, published_by = excluded.published_by,
  slug = excluded.slug, previous_slugs = excluded.previous_slugs, model_version = excluded.model_version`);

/** The previousSlugs of copy `c` put in the stage: the other slugs its item was published under there. */
export const previousSlugsOf = (
  stage: string,
) => sql`case when c.slug is null then '{}'::text[] else coalesce((
    select array_agg(s.slug order by s.first_published_at, s.slug) from published_slugs s
    where s.workspace_id = c.workspace_id and s.stage = ${stage} and s.schema = c.schema
      and s.id = c.id and s.slug <> c.slug), '{}'::text[]) end`;

interface ReleaseInStage {
  workspaceId: string;
  id: string;
  stage: string;
}

/**
 * Puts the release's entries in its stage, set-based (three statements whatever their number) and
 * checking nothing: each publish entry's pinned version (or the item's current one) copied over what
 * is there, its slug recorded among the slugs it was published under and the others kept as its
 * previousSlugs (as upsertCopy does for one item); each unpublish entry's copy removed. Answers the
 * entries whose copy was removed.
 */
export async function putReleaseInStage(
  tx: Tx,
  model: ContentModel,
  release: ReleaseInStage,
  at: Date,
  by: string,
) {
  const { workspaceId, id, stage } = release;
  const slugFields = slugFieldsOf(model);
  // Text: postgres.js takes no Date for a parameter of a raw statement.
  const atText = at.toISOString();
  const removed = await tx.execute(sql`
    delete from published p using release_entries e
    where e.workspace_id = ${workspaceId} and e.release_id = ${id} and e.action = 'unpublish'
      and p.workspace_id = e.workspace_id and p.schema = e.schema and p.id = e.item_id and p.stage = ${stage}
    returning p.schema, p.id`);
  await tx.execute(sql`
    create temporary table release_copies on commit drop as
    select i.workspace_id, i.schema, i.id, coalesce(v.num, i.version) as version, i.version as item_version,
      coalesce(v.data, i.data) as data, coalesce(v.refs, i.refs) as refs,
      coalesce(v.model_version, i.model_version) as model_version,
      nullif(coalesce(v.data, i.data) ->> (${slugFields}::jsonb ->> i.schema), '') as slug
    from release_entries e
    join items i on i.workspace_id = e.workspace_id and i.schema = e.schema and i.id = e.item_id
    left join item_versions v on e.version is not null and e.version <> i.version
      and v.workspace_id = i.workspace_id and v.schema = i.schema and v.item_id = i.id and v.num = e.version
    where e.workspace_id = ${workspaceId} and e.release_id = ${id} and e.action = 'publish'`);
  await tx.execute(sql`
    insert into published_slugs (workspace_id, stage, schema, slug, id, first_published_at)
    select workspace_id, ${stage}, schema, slug, id, ${atText}::timestamptz from release_copies where slug is not null
    on conflict do nothing`);
  await tx.execute(sql`
    insert into published as p ${COPY_COLUMNS}
    select c.workspace_id, c.schema, c.id, ${stage}, c.version, c.item_version, c.data, c.refs, ${atText}::timestamptz, ${by}, c.slug,
      ${previousSlugsOf(stage)}, c.model_version
    from release_copies c
    ${REPLACING_COPIES}`);
  await tx.execute(sql`drop table release_copies`);
  return rows<{ schema: string; id: string }>(removed);
}

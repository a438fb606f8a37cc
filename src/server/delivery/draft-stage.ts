import { sql, TransactionRollbackError, type SQL } from 'drizzle-orm';
import type { ContentModel } from '@shared/model/registry';
import type { AppContext } from '../context';
import type { Db, Tx } from '../db/client';
import { rows } from '../db/migrate';
import type { ReleaseRow } from '../releases/repository';
import {
  COPY_COLUMNS,
  previousSlugsOf,
  putReleaseInStage,
  REPLACING_COPIES,
  slugFieldsOf,
} from '../releases/stage-copies';
import type { SchemaType } from '@shared/schemas/types';
import { slugFieldOf } from '../publishing/slugs';
import { copiesByKeys, copiesFrom, copyOfRow, type CopiesTable, type Copy, type CopyRow } from './repository';

/** Where drafts are answered: a stage of a workspace, in its current model. */
interface DraftPlace {
  workspaceId: string;
  stage: string;
  model: ContentModel;
}

/**
 * Which items' drafts an answer reads: one item, those a slug may name, a schema's, or the whole
 * workspace's (GraphQL); `depth` levels of the items they reference come with them.
 */
export type DraftSeed =
  | { schema: string; id: string }
  | { schema: string; slug: string }
  | { schema: string }
  | { everything: true };

function seedsOf(place: DraftPlace, seed: DraftSeed, release: ReleaseRow | undefined): SQL {
  const ws = place.workspaceId;
  const inRelease = release
    ? sql` union select e.schema, e.item_id from release_entries e
        where e.workspace_id = ${ws} and e.release_id = ${release.id} and e.action = 'publish'`
    : sql``;
  if ('everything' in seed) return sql`select i.schema, i.id from items i where i.workspace_id = ${ws}`;
  if ('id' in seed) return sql`select ${seed.schema}::text, ${seed.id}::text${inRelease}`;
  if ('slug' in seed) {
    // Every item that may answer to the slug: its draft holds it (in any locale), or its stage copy
    // does or once did (the draft may have moved away from it, which the answer must show).
    const asJson = JSON.stringify(seed.slug);
    return sql`select i.schema, i.id from items i
        where i.workspace_id = ${ws} and i.schema = ${seed.schema} and strpos(i.data::text, ${asJson}) > 0
      union select p.schema, p.id from published p
        where p.workspace_id = ${ws} and p.stage = ${place.stage} and p.schema = ${seed.schema} and p.slug = ${seed.slug}
      union select s.schema, s.id from published_slugs s
        where s.workspace_id = ${ws} and s.stage = ${place.stage} and s.schema = ${seed.schema} and s.slug = ${seed.slug}${inRelease}`;
  }
  return sql`select i.schema, i.id from items i where i.workspace_id = ${ws} and i.schema = ${seed.schema}${inRelease}`;
}

/**
 * Writes the drafts (the items' working versions) of the seed's items and of the items they reference,
 * `depth` levels deep, over the stage's copies, in one statement: each as a publish would copy it
 * (its slug among the slugs it had there, the others its previousSlugs), published at its last write.
 */
async function putDraftsInStage(
  tx: Tx,
  place: DraftPlace,
  seed: DraftSeed,
  depth: number,
  release: ReleaseRow | undefined,
  by: string,
) {
  const { workspaceId: ws, stage } = place;
  await tx.execute(sql`
    with recursive seeds(schema, id) as (${seedsOf(place, seed, release)}),
    wanted(schema, id, depth) as (
      select schema, id, 0 from seeds
      union
      select r.value ->> 'schemaType', r.key, w.depth + 1
      from wanted w
      join items i on i.workspace_id = ${ws} and i.schema = w.schema and i.id = w.id
      cross join lateral jsonb_each(i.refs) r
      where w.depth < ${depth}::int
    ),
    copies as (
      select i.workspace_id, i.schema, i.id, i.version, i.data, i.refs, i.model_version, i.last_written_at,
        nullif(i.data ->> (${slugFieldsOf(place.model)}::jsonb ->> i.schema), '') as slug
      from (select distinct schema, id from wanted) w
      -- Each by its key (limit 1 keeps the subquery a nested loop): the planner cannot tell how few
      -- items the recursion finds, and would scan all of the workspace's to hash them.
      cross join lateral (
        select * from items i where i.workspace_id = ${ws} and i.schema = w.schema and i.id = w.id limit 1
      ) i
    ),
    slugs as (
      insert into published_slugs (workspace_id, stage, schema, slug, id, first_published_at)
      select workspace_id, ${stage}, schema, slug, id, last_written_at from copies where slug is not null
      on conflict do nothing
    )
    insert into published as p ${COPY_COLUMNS}
    select c.workspace_id, c.schema, c.id, ${stage}, c.version, c.version, c.data, c.refs, c.last_written_at, ${by}, c.slug,
      ${previousSlugsOf(stage)}, c.model_version
    from copies c
    ${REPLACING_COPIES}`);
}

export interface DraftRender {
  place: DraftPlace;
  seed: DraftSeed;
  /** How many levels of references the answer embeds (include=refs). */
  depth: number;
  /** A release to put in the stage over the drafts (when it is of this stage and not yet published). */
  release?: ReleaseRow;
  /** Who reads, as the copies name their publisher while they exist. */
  by: string;
  /** Writes to make first, in the same transaction (an unsaved form's values as the item's draft). */
  before?: (tx: Tx) => Promise<void>;
}

/**
 * An answer rendered from drafts: in a transaction, the drafts `draft` names are written over the
 * stage's copies (and its release on top), `render` reads the stage through that transaction (its
 * delivery cache is its own, thrown away with it), and the transaction is rolled back: nothing is
 * written, nothing reaches the shared delivery cache.
 */
export async function renderFromDrafts<T>(
  ctx: AppContext,
  draft: DraftRender,
  render: (ctx: AppContext) => Promise<T>,
): Promise<T> {
  let answer: { value: T } | undefined;
  try {
    await ctx.db.transaction(async (tx) => {
      await draft.before?.(tx);
      await putDraftsInStage(tx, draft.place, draft.seed, draft.depth, draft.release, draft.by);
      const { release } = draft;
      if (release && release.state !== 'published' && release.stage === draft.place.stage)
        await putReleaseInStage(tx, draft.place.model, release, new Date(), draft.by);
      const db = tx as unknown as Db;
      answer = { value: await render({ ...ctx, db, readDb: db }) };
      tx.rollback();
    });
  } catch (err) {
    if (!(err instanceof TransactionRollbackError)) throw err;
  }
  return answer!.value;
}

/**
 * The copies putDraftsInStage would write for these items and those they reference `depth` levels deep,
 * read instead of written, in one statement: each item's working version as its copy of the stage (its
 * slug, the other slugs it had there as previousSlugs, published at its last write). One of `keys` with
 * no working version is answered by the stage's copy, if it has one, as it would be over there.
 */
export async function draftCopiesOf(
  db: Db,
  place: DraftPlace,
  keys: readonly { schema: string; id: string }[],
  depth = 0,
): Promise<Copy[]> {
  if (keys.length === 0) return [];
  const { workspaceId: ws, stage } = place;
  const asked = JSON.stringify(keys.map((key) => [key.schema, key.id]));
  const drafts = rows<CopyRow>(
    await db.execute(sql`
      with recursive wanted(schema, id, depth) as (
        select w.key ->> 0, w.key ->> 1, 0 from jsonb_array_elements(${asked}::jsonb) as w(key)
        union
        select r.value ->> 'schemaType', r.key, w.depth + 1
        from wanted w
        join items i on i.workspace_id = ${ws} and i.schema = w.schema and i.id = w.id
        cross join lateral jsonb_each(i.refs) r
        where w.depth < ${depth}::int
      )
      select c.id, c.schema, c.version, c.published_at, c.data, c.refs, c.slug, c.model_version,
        ${previousSlugsOf(stage)} as previous_slugs
      from (
        select i.workspace_id, i.schema, i.id, i.version, i.data::text as data, i.refs, i.model_version,
          i.last_written_at as published_at,
          nullif(i.data ->> (${slugFieldsOf(place.model)}::jsonb ->> i.schema), '') as slug
        from (select distinct schema, id from wanted) w
        -- Each by its key (see putDraftsInStage).
        cross join lateral (
          select * from items i where i.workspace_id = ${ws} and i.schema = w.schema and i.id = w.id limit 1
        ) i
      ) c`),
  ).map(copyOfRow);
  const found = new Set(drafts.map(copyKeyOf));
  const missing = keys.filter((key) => !found.has(copyKeyOf(key)));
  return missing.length === 0 ? drafts : [...drafts, ...(await copiesByKeys(db, ws, stage, missing))];
}

/** An item's schema and id, as one string. */
export const copyKeyOf = (item: { schema: string; id: string }) => `${item.schema}\t${item.id}`;

/**
 * A schema's drafts as the stage's copies a publish would make of them (its slug the name-slug field's
 * value, published at its last write), as a table named like the stage's copies: the published list's
 * and slug's SQL reads it in their place. Their previousSlugs are left empty (withPreviousSlugs fills
 * those of the copies an answer holds, not those of every row a list reads).
 */
export function draftsTable(place: Omit<DraftPlace, 'model'>, schema: SchemaType): CopiesTable {
  const field = slugFieldOf(schema);
  const slug = field ? sql`nullif(i.data ->> ${field}::text, '')` : sql`null::text`;
  return copiesFrom(sql`select i.workspace_id, ${place.stage}::text as stage, i.schema, i.id, i.version,
      i.data, i.refs, i.last_written_at as published_at, ${slug} as slug, '{}'::text[] as previous_slugs,
      i.model_version
    from items i where i.workspace_id = ${place.workspaceId} and i.schema = ${schema.name}::text`);
}

/**
 * The copies of draftsTable with their previousSlugs (the other slugs their items were published under
 * in the stage), set on them.
 */
export async function withPreviousSlugs<T extends Copy>(
  db: Db,
  place: { workspaceId: string; stage: string },
  copies: T[],
): Promise<T[]> {
  const slugged = copies.filter((copy) => copy.slug !== null);
  if (slugged.length === 0) return copies;
  const asked = JSON.stringify(slugged.map((copy) => [copy.schema, copy.id, copy.slug]));
  const found = rows<{ schema: string; id: string; previous_slugs: string[] }>(
    await db.execute(sql`
      select c.schema, c.id, ${previousSlugsOf(place.stage)} as previous_slugs
      from (
        select ${place.workspaceId}::text as workspace_id, k ->> 0 as schema, k ->> 1 as id, k ->> 2 as slug
        from jsonb_array_elements(${asked}::jsonb) as k
      ) c`),
  );
  const byKey = new Map(found.map((row) => [copyKeyOf(row), row.previous_slugs]));
  for (const copy of slugged) copy.previousSlugs = byKey.get(copyKeyOf(copy)) ?? [];
  return copies;
}

import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { MAX_BLOCK_DEPTH } from '@shared/model/types';
import { allowedBlockTypes, nestedEntries, type BlockTypes } from '@shared/schemas/blocks';
import type { ContentModel } from '@shared/model/registry';
import type { Domain, FieldDef, SchemaType } from '@shared/schemas/types';
import { UNNAMED_ITEM } from '@shared/validation/messages';
import type { AppContext } from '../context';
import { items } from '../db/schema';
import { modelOfWorkspace } from '../workspaces/content-model';
import type { FileUsage } from './local-analyser';

/** A step of the path to a file field in item data: a key, or every entry of a list (table rows, blocks). */
const EACH = Symbol('each');
type Path = readonly (string | typeof EACH)[];

/** The paths of a schema's file fields: top-level, in table rows and in blocks (at any depth). */
function filePaths(fields: readonly FieldDef[], blockTypes: BlockTypes | undefined, depth = 0): Path[] {
  return fields.flatMap((field): Path[] => {
    if (field.type === 'file') return [[field.key]];
    const inner =
      field.type === 'table'
        ? filePaths(field.columns, blockTypes, depth)
        : field.type === 'blocks' && depth < MAX_BLOCK_DEPTH
          ? allowedBlockTypes(field, blockTypes).flatMap((type) =>
              filePaths(type.fields, blockTypes, depth + 1),
            )
          : [];
    return inner.map((path) => [field.key, EACH, ...path]);
  });
}

/** A path as text, to tell paths apart: 'rows.[].image'. */
const pathKey = (path: Path) => path.map((step) => (step === EACH ? '[]' : JSON.stringify(step))).join('.');

const distinctPaths = (paths: readonly Path[]) => [
  ...new Map(paths.map((path) => [pathKey(path), path])).values(),
];

/** The jsonb value that item data holding `leaf` at `path` contains (`@>`): `{ rows: [{ image: leaf }] }`. */
const containing = (path: Path, leaf: object): unknown =>
  path.reduceRight<unknown>((inner, step) => (step === EACH ? [inner] : { [step]: inner }), leaf);

interface FileHolder {
  domain: string;
  schema: SchemaType;
  paths: Path[];
}

/** The schemas with file fields, with their domain and the (distinct) paths of those fields. */
function fileHolders(domains: readonly Domain[]): FileHolder[] {
  return domains.flatMap((domain) =>
    domain.schemas.flatMap((schema) => {
      const paths = distinctPaths(filePaths(schema.fields, schema.blockTypes));
      return paths.length > 0 ? [{ domain: domain.name, schema, paths }] : [];
    }),
  );
}

/** The file holders of each model version, derived once. */
const holdersOf = new WeakMap<ContentModel, FileHolder[]>();
function fileHoldersOf(model: ContentModel) {
  let holders = holdersOf.get(model);
  if (!holders) holdersOf.set(model, (holders = fileHolders(model.domains)));
  return holders;
}

/** The storage names of the file values in item data, where its schema has file fields. */
function storageNamesIn(fields: readonly FieldDef[], data: Record<string, unknown>, schema: SchemaType) {
  const found = new Set<string>();
  const visit = (inner: readonly FieldDef[], holder: Record<string, unknown>) => {
    for (const field of inner) {
      const value = holder[field.key] as { storageName?: unknown } | null | undefined;
      if (field.type === 'file' && typeof value?.storageName === 'string') found.add(value.storageName);
      for (const entry of nestedEntries(field, value, schema.blockTypes)) visit(entry.fields, entry.data);
    }
  };
  visit(fields, data);
  return found;
}

/**
 * The items whose file fields (in table rows and blocks too) hold one of the files, as single-item page
 * URLs (`/{workspace}/{domain}/{schema}/{id}`), once per item: the local analyser reports matches as
 * these pages; the schemas searched are those of the workspace's model.
 */
export async function findItemUsages(
  ctx: AppContext,
  workspaceId: string,
  storageNames: string[],
): Promise<Map<string, FileUsage[]>> {
  const usages = new Map<string, FileUsage[]>();
  const model = storageNames.length === 0 ? undefined : await modelOfWorkspace(ctx.db, workspaceId);
  const holders = model ? fileHoldersOf(model) : [];
  if (holders.length === 0) return usages;
  const paths = distinctPaths(holders.flatMap((holder) => holder.paths));
  const contains = paths.flatMap((path) =>
    storageNames.map(
      (name) => sql`${items.data} @> ${JSON.stringify(containing(path, { storageName: name }))}::jsonb`,
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
          holders.map((holder) => holder.schema.name),
        ),
        or(...contains),
      ),
    )
    .limit(200);
  for (const row of rows) {
    const holder = holders.find((candidate) => candidate.schema.name === row.schema);
    if (!holder) continue;
    const { schema } = holder;
    const name =
      typeof row.data.name === 'string' && row.data.name.trim() ? row.data.name.trim() : UNNAMED_ITEM;
    for (const storageName of storageNamesIn(schema.fields, row.data, schema)) {
      if (!storageNames.includes(storageName)) continue;
      const list = usages.get(storageName) ?? [];
      list.push({
        url: `/${workspaceId}/${holder.domain}/${row.schema}/${row.id}`,
        title: `${schema.title} "${name}"`,
      });
      usages.set(storageName, list);
    }
  }
  return usages;
}

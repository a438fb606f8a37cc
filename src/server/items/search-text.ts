import type { ContentModel } from '@shared/model/registry';
import type { FieldType, SchemaType } from '@shared/schemas/types';
import type { AppContext } from '../context';
import { modelOfWorkspace } from '../workspaces/content-model';
import type { ItemFieldReaders } from './field-readers';
import { forEachFieldValue } from './field-values';
import { lockPendingSearchTexts, writeSearchTexts } from './search-text-repository';

/** Field types whose values are the words people typed, searched as they are. */
const WORD_TYPES: ReadonlySet<FieldType> = new Set(['text', 'multiline', 'tags']);

const strings = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : Array.isArray(value)
      ? value.filter((entry): entry is string => typeof entry === 'string')
      : [];

/**
 * The words the item list's search looks in, one field a line: text, multi-line text and tags as
 * typed, and what the readers of other field types read in their values (rich text's words, not its
 * markup), in table rows, blocks and every locale too. Keys, slugs, ids, code and addresses are left
 * out: a search for "span" finds the items that say span, not every item with a <span>.
 */
export function searchTextOf(
  schema: Pick<SchemaType, 'fields' | 'blockTypes'>,
  data: Readonly<Record<string, unknown>>,
  readers: ItemFieldReaders,
): string {
  const lines: string[] = [];
  forEachFieldValue(schema, data, (field, value) => {
    if (WORD_TYPES.has(field.type)) lines.push(...strings(value));
    else {
      const text = readers[field.type]?.text?.(value);
      if (text) lines.push(text);
    }
  });
  return lines.filter((line) => line.trim()).join('\n');
}

/** Items whose search text is computed in one transaction. */
const FILL_BATCH = 500;

/** What the search matched before an item's words were computed: its name and title. */
const nameAndTitle = (data: Readonly<Record<string, unknown>>) =>
  [data.name, data.title].filter((value): value is string => typeof value === 'string').join('\n');

/**
 * Computes the search text of every item still without one (rows stored before it existed, rows a
 * content-model change rewrote), a batch a transaction, each by its workspace's current model, until
 * none is left or `stopping` is aborted. Several processes share the work: each skips the rows another
 * holds. Answers how many it wrote.
 */
export async function fillPendingSearchTexts(ctx: AppContext, stopping?: AbortSignal): Promise<number> {
  let written = 0;
  while (!stopping?.aborted) {
    const count = await ctx.db.transaction(async (tx) => {
      const pending = await lockPendingSearchTexts(tx, FILL_BATCH);
      // Read in the transaction: on PGlite's one connection a read beside it would wait for it.
      const models = new Map<string, Promise<ContentModel | undefined>>();
      const modelOf = (workspaceId: string) => {
        if (!models.has(workspaceId)) models.set(workspaceId, modelOfWorkspace(tx, workspaceId));
        return models.get(workspaceId)!;
      };
      const texts = [];
      for (const row of pending) {
        const schema = (await modelOf(row.workspaceId))?.schema(row.schema);
        const searchText = schema
          ? searchTextOf(schema, row.data, ctx.itemFieldReaders)
          : nameAndTitle(row.data);
        texts.push({ ...row, searchText });
      }
      await writeSearchTexts(tx, texts);
      return pending.length;
    });
    written += count;
    if (count < FILL_BATCH) break;
  }
  return written;
}

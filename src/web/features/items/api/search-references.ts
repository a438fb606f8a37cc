import type { QueryClient } from '@tanstack/react-query';
import type { Item } from '@shared/api/items';
import type { ContentModel } from '@shared/model/registry';
import type { Reference } from '@shared/schemas/types';
import { itemThumbId, itemTitle } from '../item-labels';
import { getItems } from './get-items';
import { itemKeys } from './keys';

/** What a reference field stores for an item (spec §3 Reference). */
function referenceOf(model: ContentModel, item: Item): Reference {
  const schema = model.schema(item.schema);
  const thumbId = schema ? itemThumbId(schema, item.data) : undefined;
  const altText = typeof item.data.altText === 'string' && item.data.altText ? item.data.altText : undefined;
  return {
    id: item.id,
    schemaType: item.schema,
    label: itemTitle(item.data),
    ...(thumbId ? { thumbId } : {}),
    ...(altText ? { altText } : {}),
  };
}

/** How many matches of each target schema a reference search offers. */
export const REFERENCE_SEARCH_LIMIT = 25;

/**
 * ItemForm's referenceSearch: the newest items of each target schema whose name or title contains the
 * typed text, case-insensitively (the items list API's `q`), cached briefly per text.
 */
export function createReferenceSearch(client: QueryClient, ws: string, model: ContentModel) {
  return async (schemaTypes: readonly string[], query: string): Promise<Reference[]> => {
    const q = query.trim();
    const pages = await Promise.all(
      schemaTypes.map((schema) =>
        client.fetchQuery({
          queryKey: itemKeys.search(ws, schema, q),
          queryFn: ({ signal }) =>
            getItems(ws, { schema, view: 'all', q, limit: REFERENCE_SEARCH_LIMIT }, signal),
          staleTime: 15_000,
        }),
      ),
    );
    return pages.flatMap((page) => page.items.map((item) => referenceOf(model, item)));
  };
}

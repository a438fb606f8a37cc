import type { QueryClient } from '@tanstack/react-query';
import { MAX_QUERY_LIMIT, type Item } from '@shared/api/items';
import { getSchema } from '@shared/schemas/catalogue';
import type { Reference } from '@shared/schemas/types';
import { itemThumbId, itemTitle } from '../item-labels';
import { getItems } from './get-items';
import { itemKeys } from './keys';

/** What a reference field stores for an item (spec §3 Reference). */
export function referenceOf(item: Item): Reference {
  const schema = getSchema(item.schema);
  const thumbId = schema ? itemThumbId(schema, item.data) : undefined;
  const altText = typeof item.data.altText === 'string' && item.data.altText ? item.data.altText : undefined;
  return {
    id: item.id,
    schemaType: item.schema,
    label: schema ? itemTitle(schema, item.data) : item.id,
    ...(thumbId ? { thumbId } : {}),
    ...(altText ? { altText } : {}),
  };
}

/**
 * ItemForm's referenceSearch: the newest items of each target schema (through the items list API,
 * cached briefly), filtered by the typed text against their title and id.
 */
export function createReferenceSearch(client: QueryClient, ws: string) {
  return async (schemaTypes: readonly string[], query: string): Promise<Reference[]> => {
    const pages = await Promise.all(
      schemaTypes.map((schema) =>
        client.fetchQuery({
          queryKey: itemKeys.search(ws, schema),
          queryFn: () => getItems(ws, { schema, view: 'all', limit: MAX_QUERY_LIMIT }),
          staleTime: 15_000,
        }),
      ),
    );
    const needle = query.trim().toLowerCase();
    return pages
      .flatMap((page) => page.items.map(referenceOf))
      .filter((ref) => !needle || (ref.label ?? '').toLowerCase().includes(needle) || ref.id.toLowerCase() === needle);
  };
}

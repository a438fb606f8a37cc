import type { ItemList } from '@shared/api/items';
import { DEFAULT_NEAR_RADIUS_KM, hasAddressField, NEAR_MESSAGES, parseNear } from '@shared/geo/address';
import type { AppContext } from '../context';
import { badRequest } from '../http/errors';
import type { WorkspaceAccess } from '../workspaces/access';
import { presentItems } from './present';
import { listItems, type ItemFilter, type NearCursor } from './repository';

export interface NearListQuery {
  schemas: string[];
  filter: ItemFilter;
  near: string;
  radiusKm?: number;
  cursor?: string;
  limit: number;
  q?: string;
}

const encodeNearCursor = (cursor: NearCursor) =>
  Buffer.from(JSON.stringify(['near', cursor.distanceKm, cursor.id])).toString('base64url');

function decodeNearCursor(text: string): NearCursor {
  try {
    const [kind, distanceKm, id] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown[];
    if (kind === 'near' && typeof distanceKm === 'number' && typeof id === 'string' && id.length <= 64) {
      return { distanceKm, id };
    }
  } catch {
    // answered below
  }
  throw badRequest('Invalid cursor: ask for the first page again');
}

/**
 * The "near" list: items of schemas with an address whose address lies within radiusKm of
 * the point, nearest first, keyset-paged on (distance, id). Works with the views all and
 * last-updated-by-me and with the text search.
 */
export async function listNear(
  ctx: AppContext,
  access: WorkspaceAccess,
  query: NearListQuery,
): Promise<ItemList> {
  const center = parseNear(query.near);
  if ('error' in center) throw badRequest(center.error);
  const schemas = query.schemas.filter((name) => {
    const schema = access.model.schema(name);
    return schema && hasAddressField(schema);
  });
  if (query.schemas.length === 1 && schemas.length === 0) throw badRequest(NEAR_MESSAGES.noAddress);
  if (query.filter.kind !== 'all' && query.filter.kind !== 'written-by') throw badRequest(NEAR_MESSAGES.view);
  if (schemas.length === 0) return { items: [], nextCursor: null };
  const radiusKm = query.radiusKm ?? DEFAULT_NEAR_RADIUS_KM;
  const rows = await listItems(ctx.db, {
    workspaceId: access.workspace.id,
    schemas,
    filter: {
      kind: 'near',
      center,
      radiusKm,
      writtenBy: query.filter.kind === 'written-by' ? query.filter.userId : undefined,
    },
    search: query.q || undefined,
    nearCursor: query.cursor ? decodeNearCursor(query.cursor) : undefined,
    limit: query.limit,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: await presentItems(ctx.db, access, page),
    nextCursor:
      rows.length > query.limit && last
        ? encodeNearCursor({ distanceKm: last.distanceKm ?? 0, id: last.item.id })
        : null,
  };
}

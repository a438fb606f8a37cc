import { useState } from 'react';
import { useDebouncedValue } from '@mantine/hooks';
import type { NearValue } from '@web/components/places/near-filter';
import { useItems } from '../api/get-items';
import type { ListQuery } from '../api/keys';

/**
 * A list's items narrowed by what the user types (debounced) and, where offered, a place and radius
 * and a locale they miss.
 */
export function useItemListQuery(workspaceId: string, query: ListQuery) {
  const [searchText, setSearchText] = useState('');
  const [q] = useDebouncedValue(searchText.trim(), 300);
  const [near, setNear] = useState<NearValue | null>(null);
  const [missing, setMissing] = useState('');
  const nearQuery = near
    ? { near: `${near.center.latitude},${near.center.longitude}`, radiusKm: near.radiusKm }
    : {};
  const items = useItems(workspaceId, {
    ...query,
    ...(q ? { q } : {}),
    ...nearQuery,
    ...(missing ? { missing } : {}),
  });
  const all = items.data?.pages.flatMap((page) => page.items) ?? [];
  return { searchText, setSearchText, q, near, setNear, missing, setMissing, items, all };
}

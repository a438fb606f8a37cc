import { useState } from 'react';
import { errorMessage, isApiError } from '@web/lib/api-client';
import type { Item } from '@shared/api/items';
import { NEW_ITEM_ID, useSaveItem } from '../api/save-item';

/** Spec §8 banners, shown by the item form when a save fails. */
const updateFailedMessage = (e: unknown) => `Item update failed. Error: ${errorMessage(e)}`;
const createFailedMessage = (e: unknown) => `Failed to create the new item. Error: ${errorMessage(e)}`;

/**
 * The item form's onSave for one item: creates (id 'new') or saves the next version based on the version
 * shown. A rejection carries the spec's banner text; a stale version (409) also raises `conflict`.
 */
export function useItemSave(
  ws: string,
  schema: string,
  id: string,
  baseVersion: number | undefined,
  onSaved?: (item: Item) => void,
) {
  const save = useSaveItem();
  const [conflict, setConflict] = useState(false);
  const isNew = id === NEW_ITEM_ID;

  const handleSave = async (data: Record<string, unknown>) => {
    try {
      const item = await save.mutateAsync({
        ws,
        schema,
        id,
        data,
        baseVersion: isNew ? undefined : baseVersion,
      });
      setConflict(false);
      onSaved?.(item);
    } catch (e) {
      if (isApiError(e) && e.status === 409) setConflict(true);
      throw new Error(isNew ? createFailedMessage(e) : updateFailedMessage(e), { cause: e });
    }
  };

  return { handleSave, conflict, clearConflict: () => setConflict(false) };
}

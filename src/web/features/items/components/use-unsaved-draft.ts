import { useCallback, useEffect, useRef, useState } from 'react';
import type { ItemData } from '@web/components/fields/types';
import {
  forgetItemDraft,
  itemDraftKey,
  keepItemDraft,
  readItemDraft,
  type ItemDraft,
} from '@web/lib/item-drafts';
import type { ItemLive } from './use-item-live';

function keepIfLockLost(
  { key, baseVersion, lockLost }: { key: string; baseVersion: number | undefined; lockLost: boolean },
  form: { data: ItemData; dirty: boolean } | null,
) {
  if (lockLost && form?.dirty && baseVersion !== undefined) keepItemDraft(key, baseVersion, form.data);
}

/**
 * The item screen's unsaved edits kept in the browser: written while the user edits without the lock
 * (it was taken over or lapsed), offered back when the item is opened again or edit mode is left, and
 * forgotten on a successful save or on Discard. Restored edits keep the version they were made on, so
 * a save of them is refused (409) when the item changed since.
 */
export function useUnsavedDraft(
  ws: string,
  schema: string,
  id: string,
  live: Pick<ItemLive, 'editing' | 'lockLost' | 'edit'>,
  storedVersion: number | undefined,
) {
  const key = itemDraftKey(ws, schema, id);
  const [draft, setDraft] = useState(() => readItemDraft(key));
  const [restored, setRestored] = useState<ItemDraft | null>(null);
  const baseVersion = restored?.version ?? storedVersion;
  const latest = useRef<{ data: ItemData; dirty: boolean } | null>(null);
  const keeping = useRef({ key, baseVersion, lockLost: live.lockLost });
  keeping.current = { key, baseVersion, lockLost: live.lockLost };

  /** The form's onDataChange. */
  const noteData = useCallback((data: ItemData, dirty: boolean) => {
    latest.current = { data, dirty };
    keepIfLockLost(keeping.current, latest.current);
  }, []);

  // The moment the lock is lost, the edits made so far are kept; later ones through noteData.
  useEffect(() => keepIfLockLost(keeping.current, latest.current), [live.lockLost]);

  // Out of edit mode (and on entering it) the offer shows what is kept now.
  useEffect(() => {
    setDraft(readItemDraft(key));
    if (!live.editing) setRestored(null);
  }, [key, live.editing]);

  const forget = () => {
    forgetItemDraft(key);
    setDraft(null);
    setRestored(null);
  };

  return {
    /** Offered unless the form holds these edits already (being kept, or restored). */
    offer: draft && !(live.editing && (live.lockLost || restored)) ? draft : null,
    /** Restored edits for the form to start from, while editing them. */
    restored,
    baseVersion,
    noteData,
    /** Enters edit mode with the kept edits; answers false when another editor holds the lock. */
    restore: async () => {
      const kept = readItemDraft(key);
      if (!kept || !(await live.edit())) return false;
      setRestored(kept);
      return true;
    },
    discard: forget,
    /** After a successful save. */
    saved: forget,
  };
}

export type UnsavedDraft = ReturnType<typeof useUnsavedDraft>;

import { useEffect, useState } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { Item } from '@shared/api/items';
import type { ItemFormMode } from '@web/components/item-form/item-form';
import { useLiveEvents, useTellPresence } from '@web/lib/live';
import { useItemLock } from './use-item-lock';

/** Who wrote the item elsewhere, and when. */
export interface ChangedElsewhere {
  name: string;
  at: string;
}

/** The key of the field the user is in while editing (its row's `data-field`), for presence. */
function useEditedField(editing: boolean) {
  const [field, setField] = useState<string | null>(null);
  useEffect(() => {
    if (!editing) return setField(null);
    const onFocus = (event: FocusEvent) => {
      const row = (event.target as Element | null)?.closest?.('[data-field]');
      if (row) setField(row.getAttribute('data-field'));
    };
    document.addEventListener('focusin', onFocus);
    return () => document.removeEventListener('focusin', onFocus);
  }, [editing]);
  return field;
}

/**
 * The item screen, live: the form's mode (entering edit mode takes the item's lock), presence, and
 * other members' writes (view mode refetches; edit mode keeps the user's edits and the version they
 * are based on, and says who changed the item).
 */
export function useItemLive(ws: string, schema: string, id: string, item: UseQueryResult<Item>) {
  const [mode, setMode] = useState<ItemFormMode>('view');
  const [changedElsewhere, setChangedElsewhere] = useState<ChangedElsewhere | null>(null);
  const [deleted, setDeleted] = useState<ChangedElsewhere | null>(null);
  const [isViewOnly, setViewOnly] = useState(false);
  const editing = mode === 'edit';
  const lock = useItemLock(ws, schema, id, editing);
  const editedField = useEditedField(editing);
  useTellPresence(ws, { item: { schema, id }, field: editing ? editedField : null });

  useLiveEvents({
    item: (event) => {
      if (event.schema !== schema || event.id !== id) return;
      // Deleted: nothing to refetch; the screen says so and keeps what it shows (and the user's edits).
      if (event.action === 'item.deleted') return setDeleted({ name: event.actor.name, at: event.at });
      // Writes that leave no version (a comment) do not change the item; its panels follow them.
      if (event.version === null || event.version <= (item.data?.version ?? 0)) return;
      if (editing) setChangedElsewhere({ name: event.actor.name, at: event.at });
      else void item.refetch();
    },
    reset: () => {
      if (!editing && !deleted) void item.refetch();
    },
  });

  /** Edit mode, with the lock; answers false (back in view mode) when another editor holds it. */
  const edit = async () => {
    setMode('edit');
    setViewOnly(false);
    const taken = await lock.take();
    if (!taken) setMode('view');
    return taken;
  };

  const handleModeChange = (next: ItemFormMode) => {
    if (next === 'edit') return void edit();
    setMode(next);
    setChangedElsewhere(null);
  };

  return {
    mode,
    editing,
    edit,
    handleModeChange,
    changedElsewhere,
    deleted,
    /** Editing, but another tab now holds the lock (taken over, or taken after it lapsed). */
    lockLost: editing && (lock.takenOverBy !== null || lock.heldByOther !== null),
    lock,
    isViewOnly,
    viewOnly: () => setViewOnly(true),
    takeOver: () => void lock.take(true).then((taken) => taken && setMode('edit')),
    /** After reloading the stored version: view mode, nothing pending. */
    reset: () => {
      setChangedElsewhere(null);
      setMode('view');
    },
  };
}

export type ItemLive = ReturnType<typeof useItemLive>;

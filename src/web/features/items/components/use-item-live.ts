import { useEffect, useState } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { Item } from '@shared/api/items';
import type { ItemFormMode } from '@web/components/item-form/item-form';
import { useLiveEvents, useTellPresence } from '@web/lib/live';
import { useItemLock } from './use-item-lock';

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
  const [isViewOnly, setViewOnly] = useState(false);
  const editing = mode === 'edit';
  const lock = useItemLock(ws, schema, id, editing);
  const editedField = useEditedField(editing);
  useTellPresence(ws, { item: { schema, id }, field: editing ? editedField : null });

  useLiveEvents({
    item: (event) => {
      if (event.schema !== schema || event.id !== id) return;
      const shown = item.data?.version ?? 0;
      if (event.version !== null && event.version <= shown) return;
      if (editing) setChangedElsewhere({ name: event.actor.name, at: event.at });
      else void item.refetch();
    },
    reset: () => {
      if (!editing) void item.refetch();
    },
  });

  const handleModeChange = (next: ItemFormMode) => {
    setMode(next);
    if (next !== 'edit') return setChangedElsewhere(null);
    setViewOnly(false);
    void lock.take().then((taken) => !taken && setMode('view'));
  };

  return {
    mode,
    editing,
    handleModeChange,
    changedElsewhere,
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

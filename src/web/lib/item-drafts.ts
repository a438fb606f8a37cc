import type { ItemData } from '@web/components/fields/types';

/**
 * Unsaved edits of an item kept in this browser when the edit lock was lost (taken over, or taken by
 * another editor after it lapsed): one entry per workspace, schema and item, with the version the
 * edits start from, so restoring them still meets the save's version check.
 */
export interface ItemDraft {
  savedAt: string;
  /** The version the edits were made on. */
  version: number;
  data: ItemData;
}

const PREFIX = 'marquee:item-draft:';

export const itemDraftKey = (ws: string, schema: string, id: string) => `${PREFIX}${ws}/${schema}/${id}`;

const isItemDraft = (value: unknown): value is ItemDraft => {
  const draft = value as Partial<ItemDraft> | null;
  return (
    typeof draft?.savedAt === 'string' &&
    typeof draft.version === 'number' &&
    typeof draft.data === 'object' &&
    draft.data !== null
  );
};

export function readItemDraft(key: string, storage: Storage = localStorage): ItemDraft | null {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(key) ?? 'null');
    return isItemDraft(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

export function keepItemDraft(key: string, version: number, data: ItemData, storage: Storage = localStorage) {
  const draft: ItemDraft = { savedAt: new Date().toISOString(), version, data };
  try {
    storage.setItem(key, JSON.stringify(draft));
  } catch {
    // A full or unavailable storage only costs the draft; the form still holds the edits.
  }
}

/** Forgets every kept draft (signing out: the next user of this browser sees none). */
export function forgetItemDrafts(storage: Storage = localStorage) {
  try {
    for (const key of Object.keys(storage)) if (key.startsWith(PREFIX)) storage.removeItem(key);
  } catch {
    // Storage may be unavailable (private mode); nothing was kept then.
  }
}

export function forgetItemDraft(key: string, storage: Storage = localStorage) {
  try {
    storage.removeItem(key);
  } catch {
    // Nothing was kept then.
  }
}

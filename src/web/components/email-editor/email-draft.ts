/**
 * Spec §4 "Email editor: syncs with browser storage and closes when an exit flag is set": the editor
 * writes its content to localStorage as the user works, so a reload or a crash loses nothing; the
 * form's Save or Cancel (the exit flag) removes it.
 */
export interface EmailDraft {
  savedAt: string;
  template: Record<string, unknown>;
}

const PREFIX = 'marquee:email-draft:';

/** One draft per item screen (a new item's screen included). */
export const draftKey = (path: string) => `${PREFIX}${path}`;

export function readDraft(key: string, storage: Storage = localStorage): EmailDraft | null {
  try {
    const parsed = JSON.parse(storage.getItem(key) ?? 'null') as EmailDraft | null;
    return parsed &&
      typeof parsed.savedAt === 'string' &&
      parsed.template &&
      typeof parsed.template === 'object'
      ? parsed
      : null;
  } catch {
    return null;
  }
}

export function writeDraft(key: string, template: Record<string, unknown>, storage: Storage = localStorage) {
  try {
    storage.setItem(key, JSON.stringify({ savedAt: new Date().toISOString(), template }));
  } catch {
    // A full storage only costs the draft; the form still holds the edit.
  }
}

export function clearDraft(key: string, storage: Storage = localStorage) {
  storage.removeItem(key);
}

/** A draft worth offering: one whose design differs from what the form holds. */
export const differsFrom = (draft: EmailDraft, template: unknown) =>
  JSON.stringify(draft.template['gjs-nl-html'] ?? '') !==
    JSON.stringify((template as Record<string, unknown> | null)?.['gjs-nl-html'] ?? '') ||
  JSON.stringify(draft.template['gjs-nl-css'] ?? '') !==
    JSON.stringify((template as Record<string, unknown> | null)?.['gjs-nl-css'] ?? '');

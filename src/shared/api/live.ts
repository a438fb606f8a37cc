import { z } from 'zod';

/**
 * The HTTP contract of working together live: one event stream per signed-in tab and workspace
 * (Server-Sent Events at `GET /api/v1/workspaces/{ws}/live?tab=…`), presence and soft edit locks.
 */

/**
 * A tab's id, chosen by the browser for the life of the tab and known to it alone: streams tell others'
 * tabs by an opaque key of the member and the tab (`ready` tells a tab its own).
 */
const TabId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'tab: Not a tab id' });

export const LiveStreamQuery = z.object({ tab: TabId });

/** The events a stream sends, by their SSE event name. */
export const LIVE_EVENTS = {
  /** The stream is open: `LiveReadyEvent`. */
  ready: 'ready',
  /** An item was written: `LiveItemEvent`. */
  item: 'item',
  /** Items of the workspace changed in ways no single item event tells (a renamed writer, a schedule): refetch lists. */
  items: 'items',
  /** Events may have been missed: refetch everything shown. */
  reset: 'reset',
  /** The member lost access: the stream ends and must not be reopened. */
  revoked: 'revoked',
  /** An item's edit lock changed: `LiveLockEvent`. */
  lock: 'lock',
  /** Where a member's tab is, or that it left: `LivePresenceEvent`. */
  presence: 'presence',
  /** The workspace's content model changed: `LiveModelEvent`; reload the model and what it shapes. */
  model: 'model',
} as const;

/** The content model's new version. */
export interface LiveModelEvent {
  version: number;
}

/** The `ready` event: this tab's key, as presence events and locks name it. */
export interface LiveReadyEvent {
  key: string;
}

export interface LiveItemEvent {
  schema: string;
  id: string;
  /** The version the write left; null for a deletion. */
  version: number | null;
  /** The audit action, e.g. `item.saved`, `item.created`, `item.deleted`, `item.published`. */
  action: string;
  actor: { id: string; name: string };
  /** When the server heard of the write (ISO 8601). */
  at: string;
}

export const LIVE_MESSAGES = {
  beingEdited: (name: string) => `Being edited by ${name}`,
  changedBy: (name: string, time: string) => `Changed by ${name} at ${time}`,
  deletedBy: (name: string, time: string) => `Deleted by ${name} at ${time}`,
  restoreDraft: (time: string) => `Restore your unsaved changes from ${time}`,
} as const;

/** How long an edit lock holds without being renewed: the editor counts as idle after this. */
export const LOCK_IDLE_MS = 5 * 60_000;
/** A tab not heard from for this long is gone (tabs tell where they are every 10 s). */
export const PRESENCE_GONE_MS = 30_000;

export const TakeLockBody = z
  .object({
    tab: TabId,
    takeOver: z.boolean().default(false).describe('Move the lock from another editor, who is told'),
  })
  .strict();

export const ItemLock = z.object({
  userId: z.string(),
  name: z.string(),
  key: z.string().describe('The opaque key of the holder’s tab (the `ready` event tells a tab its own)'),
  takenAt: z.string(),
  expiresAt: z.string(),
});
export type ItemLock = z.infer<typeof ItemLock>;

export const LockAnswer = z.object({ lock: ItemLock.nullable() });

/** Where a tab is: an item (and the field being edited), or a list of a schema. */
export const PresenceBody = z
  .object({
    tab: TabId,
    item: z
      .object({ schema: z.string().max(100), id: z.string().max(100) })
      .strict()
      .optional(),
    field: z.string().max(100).nullable().optional(),
    list: z.string().max(100).optional().describe('The schema whose list is shown'),
  })
  .strict();
export type PresenceBody = z.infer<typeof PresenceBody>;

/** The `lock` event: the item's lock as it now is, and whom a take-over took it from. */
export interface LiveLockEvent {
  schema: string;
  id: string;
  lock: ItemLock | null;
  takenFrom?: { userId: string; key: string; name: string };
}

/** The `presence` event: a member's tab, by its key, is here (`where` null: it left). */
export interface LivePresenceEvent {
  key: string;
  user: { id: string; name: string };
  where: Omit<PresenceBody, 'tab'> | null;
}

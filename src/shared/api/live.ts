import { z } from 'zod';

/**
 * The HTTP contract of working together live: one event stream per signed-in tab and workspace
 * (Server-Sent Events at `GET /api/v1/workspaces/{ws}/live?tab=…`), presence and soft edit locks.
 */

/** A tab's id, chosen by the browser for the life of the tab. */
const TabId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'tab: Not a tab id' });

export const LiveStreamQuery = z.object({ tab: TabId });

/** The events a stream sends, by their SSE event name. */
export const LIVE_EVENTS = {
  /** The stream is open: `{ tab }`. */
  ready: 'ready',
  /** An item was written: `LiveItemEvent`. */
  item: 'item',
  /** Items of the workspace changed in ways no single item event tells (a renamed writer, a schedule): refetch lists. */
  items: 'items',
  /** Events may have been missed: refetch everything shown. */
  reset: 'reset',
  /** The member lost access: the stream ends and must not be reopened. */
  revoked: 'revoked',
} as const;

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

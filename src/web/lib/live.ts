import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import {
  LIVE_EVENTS,
  type LiveItemEvent,
  type LiveLockEvent,
  type LiveModelEvent,
  type LivePresenceEvent,
  type LiveReadyEvent,
  type PresenceBody,
} from '@shared/api/live';
import { apiRequest } from './api-client';
import { contentModelQueryOptions } from './content-model';

/**
 * Working together live, in the browser: the workspace's event stream (one per tab, opened by the
 * workspace shell), what it tells the query cache, and the presence of other members' tabs.
 */

const TAB_STORAGE_KEY = 'marquee.live.tab';
/** Tabs tell where they are this often; the server forgets a tab unheard for 30 s. */
const PRESENCE_HEARTBEAT_MS = 10_000;
/** The first wait before reopening a stream the server refused; doubled up to the maximum. */
const REOPEN_MIN_MS = 2_000;
const REOPEN_MAX_MS = 60_000;

let memoryTabId: string | null = null;

/** This tab's id, kept in sessionStorage for the life of the tab. */
export function liveTabId(): string {
  try {
    const stored = sessionStorage.getItem(TAB_STORAGE_KEY);
    if (stored) return stored;
    const created = crypto.randomUUID().replaceAll('-', '');
    sessionStorage.setItem(TAB_STORAGE_KEY, created);
    return created;
  } catch {
    memoryTabId ??= crypto.randomUUID().replaceAll('-', '');
    return memoryTabId;
  }
}

let ownKey: string | null = null;

/**
 * This tab's key, as presence events and locks name it (the server tells it, on opening the stream and
 * in the lock this tab takes); null until then.
 */
export const liveTabKey = () => ownKey;
export function noteLiveTabKey(key: string) {
  ownKey = key;
}

export interface LiveHandlers {
  item?: (event: LiveItemEvent) => void;
  lock?: (event: LiveLockEvent) => void;
  /** Events may have been missed: refetch what is shown. */
  reset?: () => void;
}

const listeners = new Set<{ current: LiveHandlers }>();

function tell<K extends keyof LiveHandlers>(kind: K, ...args: Parameters<NonNullable<LiveHandlers[K]>>) {
  for (const listener of listeners)
    (listener.current[kind] as ((...a: unknown[]) => void) | undefined)?.(...args);
}

/** Calls the latest `handlers` for the workspace stream's events while the component is mounted. */
export function useLiveEvents(handlers: LiveHandlers) {
  const ref = useRef(handlers);
  useEffect(() => {
    ref.current = handlers;
  });
  useEffect(() => {
    listeners.add(ref);
    return () => {
      listeners.delete(ref);
    };
  }, []);
}

// Presence: the other tabs of the workspace (by key) and where they are, as the stream last told.
let presence: ReadonlyMap<string, LivePresenceEvent> = new Map();
const presenceWatchers = new Set<() => void>();

function setPresence(next: ReadonlyMap<string, LivePresenceEvent>) {
  presence = next;
  for (const watcher of presenceWatchers) watcher();
}

function notePresence(event: LivePresenceEvent) {
  if (event.key === ownKey) return;
  const next = new Map(presence);
  if (event.where) next.set(event.key, event);
  else next.delete(event.key);
  setPresence(next);
}

const subscribePresence = (watcher: () => void) => {
  presenceWatchers.add(watcher);
  return () => presenceWatchers.delete(watcher);
};

/** The other tabs of the workspace, by their keys. */
export const usePresence = () => useSyncExternalStore(subscribePresence, () => presence);

const workspaceKey = (ws: string): QueryKey => ['workspaces', ws];
/** ['workspaces', ws, 'items', 'detail', schema, id]: the item a screen shows, refreshed by that screen. */
const isItemDetail = (key: QueryKey) => key[2] === 'items' && key[3] === 'detail' && key.length === 6;
/** Lists, saved views and reference searches of the workspace's items. */
const isItemListing = (key: QueryKey) => key[2] === 'items' && (key[3] === 'list' || key[3] === 'search');

/** What an item event makes stale: every listing, and what hangs below the item (history, comments, approvals). */
function invalidateForItem(client: QueryClient, ws: string, event: LiveItemEvent) {
  void client.invalidateQueries({
    queryKey: workspaceKey(ws),
    predicate: ({ queryKey: key }) =>
      isItemListing(key) ||
      (key[3] === 'detail' && key[4] === event.schema && key[5] === event.id && key.length > 6),
  });
  // An item shown nowhere is fetched afresh when next opened; the one shown is its screen's to refresh.
  void client.invalidateQueries({
    queryKey: ['workspaces', ws, 'items', 'detail', event.schema, event.id],
    exact: true,
    refetchType: 'none',
  });
}

function invalidateAll(client: QueryClient, ws: string) {
  void client.invalidateQueries({
    queryKey: workspaceKey(ws),
    predicate: ({ queryKey }) => !isItemDetail(queryKey),
  });
}

/**
 * The content model changed: its new version is loaded before the workspace is refetched, so screens
 * that read the model through the workspace find it without waiting; lists are shaped by it too.
 */
async function reloadModel(client: QueryClient, ws: string, event: LiveModelEvent | null) {
  if (event && Number.isInteger(event.version))
    await client.prefetchQuery(contentModelQueryOptions(ws, event.version));
  invalidateAll(client, ws);
}

const parse = <T>(message: MessageEvent): T | null => {
  try {
    return JSON.parse(String(message.data)) as T;
  } catch {
    return null;
  }
};

interface StreamOptions {
  ws: string;
  client: QueryClient;
  /** Access to the workspace is gone: the stream is closed for good. */
  onRevoked: () => void;
}

/** Opens the workspace's event stream; reopens it when the server refused it; answers the function that closes it. */
export function openLiveStream({ ws, client, onRevoked }: StreamOptions): () => void {
  let source: EventSource | null = null;
  let reopenTimer: ReturnType<typeof setTimeout> | undefined;
  let reopenDelay = REOPEN_MIN_MS;
  let opened = false;
  let closed = false;

  const open = () => {
    const url = `/api/v1/workspaces/${encodeURIComponent(ws)}/live?tab=${encodeURIComponent(liveTabId())}`;
    const stream = new EventSource(url, { withCredentials: true });
    source = stream;
    stream.addEventListener(LIVE_EVENTS.ready, (message) => {
      const ready = parse<LiveReadyEvent>(message);
      if (ready?.key) noteLiveTabKey(ready.key);
      reopenDelay = REOPEN_MIN_MS;
      setPresence(new Map());
      // A stream opened again may have missed events.
      if (opened) {
        invalidateAll(client, ws);
        tell('reset');
      }
      opened = true;
    });
    stream.addEventListener(LIVE_EVENTS.item, (message) => {
      const event = parse<LiveItemEvent>(message);
      if (!event) return;
      invalidateForItem(client, ws, event);
      tell('item', event);
    });
    stream.addEventListener(LIVE_EVENTS.items, () => {
      void client.invalidateQueries({
        queryKey: workspaceKey(ws),
        predicate: ({ queryKey }) => isItemListing(queryKey),
      });
    });
    stream.addEventListener(LIVE_EVENTS.reset, () => {
      invalidateAll(client, ws);
      tell('reset');
    });
    stream.addEventListener(LIVE_EVENTS.model, (message) => {
      void reloadModel(client, ws, parse<LiveModelEvent>(message));
    });
    stream.addEventListener(LIVE_EVENTS.lock, (message) => {
      const event = parse<LiveLockEvent>(message);
      if (event) tell('lock', event);
    });
    stream.addEventListener(LIVE_EVENTS.presence, (message) => {
      const event = parse<LivePresenceEvent>(message);
      if (event) notePresence(event);
    });
    stream.addEventListener(LIVE_EVENTS.revoked, () => {
      close();
      onRevoked();
    });
    // The browser reconnects a dropped stream by itself; one the server refused (not 200) stays closed.
    stream.addEventListener('error', () => {
      if (closed || stream.readyState !== EventSource.CLOSED) return;
      reopenTimer = setTimeout(open, reopenDelay);
      reopenDelay = Math.min(reopenDelay * 2, REOPEN_MAX_MS);
    });
  };

  const close = () => {
    closed = true;
    clearTimeout(reopenTimer);
    source?.close();
    setPresence(new Map());
  };

  // Without EventSource (test environments, very old browsers) the app works as before, without live updates.
  if (typeof EventSource !== 'undefined') open();
  return close;
}

const presencePath = (ws: string) => `/api/v1/workspaces/${encodeURIComponent(ws)}/live/presence`;

/** Tells the workspace where this tab is (an item and the field being edited, or a list), every 10 s while mounted. */
export function useTellPresence(ws: string, where: Omit<PresenceBody, 'tab'>) {
  const whereKey = JSON.stringify(where);
  useEffect(() => {
    const body = { tab: liveTabId(), ...(JSON.parse(whereKey) as Omit<PresenceBody, 'tab'>) };
    const send = () => void apiRequest(presencePath(ws), { method: 'PUT', body }).catch(() => undefined);
    send();
    const timer = setInterval(send, PRESENCE_HEARTBEAT_MS);
    return () => clearInterval(timer);
  }, [ws, whereKey]);
}

import { useEffect, useRef, useState } from 'react';
import { ItemLock, LockAnswer } from '@shared/api/live';
import { apiRequest, isApiError } from '@web/lib/api-client';
import { liveTabId, liveTabKey, noteLiveTabKey, useLiveEvents } from '@web/lib/live';
import { itemPath } from '../api/keys';

/** An editor who has been active in this time renews the lock (it lapses after 5 minutes unrenewed). */
const RENEW_MS = 60_000;
const ACTIVITY_EVENTS = ['keydown', 'input', 'pointerdown'] as const;

const lockPath = (ws: string, schema: string, id: string) => `${itemPath(ws, schema, id)}/lock`;

function lockOf409(e: unknown): ItemLock | null {
  if (!isApiError(e) || e.status !== 409) return null;
  const parsed = ItemLock.safeParse((e.details as { lock?: unknown } | undefined)?.lock);
  return parsed.success ? parsed.data : null;
}

/** Releases the lock even while the page goes away. */
function releaseOnLeaving(ws: string, schema: string, id: string) {
  const url = `${lockPath(ws, schema, id)}?tab=${encodeURIComponent(liveTabId())}`;
  void fetch(url, { method: 'DELETE', credentials: 'same-origin', keepalive: true }).catch(() => undefined);
}

/**
 * The item's soft edit lock as this tab sees it: who holds it (kept current by the stream's `lock`
 * events), taking it on entering edit mode, renewing it while the user works, releasing it on leaving
 * edit mode, the screen or the page; and whether another member took it over from this tab.
 */
export function useItemLock(ws: string, schema: string, id: string, editing: boolean) {
  const [lock, setLock] = useState<ItemLock | null>(null);
  const [takenOverBy, setTakenOverBy] = useState<string | null>(null);
  const held = lock !== null && lock.key === liveTabKey();
  const heldRef = useRef(held);
  heldRef.current = held;

  useEffect(() => {
    let live = true;
    void apiRequest(lockPath(ws, schema, id), { schema: LockAnswer })
      .then((answer) => live && setLock(answer.lock))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [ws, schema, id]);

  useLiveEvents({
    lock: (event) => {
      if (event.schema !== schema || event.id !== id) return;
      setLock(event.lock);
      if (event.takenFrom && event.takenFrom.key === liveTabKey() && event.lock)
        setTakenOverBy(event.lock.name);
    },
  });

  /** Takes (or with `takeOver`, moves) the lock; answers false when another editor holds it. */
  const take = async (takeOver = false) => {
    try {
      const answer = await apiRequest(lockPath(ws, schema, id), {
        method: 'PUT',
        body: { tab: liveTabId(), takeOver },
        schema: LockAnswer,
      });
      // The lock this tab took names it: its key, whether or not the stream told it yet.
      if (answer.lock) noteLiveTabKey(answer.lock.key);
      setLock(answer.lock);
      setTakenOverBy(null);
      return true;
    } catch (e) {
      const other = lockOf409(e);
      if (other) setLock(other);
      // Without an answer (offline) editing goes on: the lock is soft, the save's version check is not.
      return other === null;
    }
  };

  // While editing with the lock: renew it every minute in which the user did something.
  useEffect(() => {
    if (!editing || !held) return;
    let active = false;
    const noteActivity = () => {
      active = true;
    };
    for (const name of ACTIVITY_EVENTS) document.addEventListener(name, noteActivity, true);
    const timer = setInterval(() => {
      if (!active) return;
      active = false;
      void take();
    }, RENEW_MS);
    return () => {
      clearInterval(timer);
      for (const name of ACTIVITY_EVENTS) document.removeEventListener(name, noteActivity, true);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [editing, held, ws, schema, id]);

  // Leaving edit mode (Save, Cancel) releases the lock.
  useEffect(() => {
    if (editing || !heldRef.current) return;
    void apiRequest(`${lockPath(ws, schema, id)}?tab=${encodeURIComponent(liveTabId())}`, {
      method: 'DELETE',
      schema: LockAnswer,
    })
      .then((answer) => setLock(answer.lock))
      .catch(() => undefined);
  }, [editing, ws, schema, id]);

  // Leaving the screen or the page releases it too.
  useEffect(() => {
    const onPageHide = () => heldRef.current && releaseOnLeaving(ws, schema, id);
    window.addEventListener('pagehide', onPageHide);
    return () => {
      window.removeEventListener('pagehide', onPageHide);
      if (heldRef.current) releaseOnLeaving(ws, schema, id);
    };
  }, [ws, schema, id]);

  const heldByOther = lock !== null && !held && new Date(lock.expiresAt).getTime() > Date.now() ? lock : null;
  return { heldByOther, takenOverBy, take, dismissTakenOver: () => setTakenOverBy(null) };
}

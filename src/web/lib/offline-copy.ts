import { isApiError } from './api-client';
import { forgetItemDrafts } from './item-drafts';

/**
 * The last answers the route guards need (who is signed in, the workspace and its content model), kept
 * in localStorage so a screen visited before opens without a network: the service worker has its code,
 * this its frame's data. Only these are kept; lists and items always come from the server. Signing out
 * forgets them, and the unsaved item edits kept in this browser too.
 */
const PREFIX = 'marquee:offline:';

/** The fetch never reached the server (offline, DNS, connection refused). */
const isNetworkError = (e: unknown) => isApiError(e) && e.status === 0;

export function forgetOfflineCopies() {
  forgetItemDrafts();
  try {
    for (const key of Object.keys(localStorage)) if (key.startsWith(PREFIX)) localStorage.removeItem(key);
  } catch {
    // Storage may be unavailable (private mode); nothing was kept then.
  }
}

/** Answers `fetcher`'s value and keeps it; without a network, the copy kept last time (if any). */
export async function withOfflineCopy<T>(key: string, fetcher: () => Promise<T>): Promise<T> {
  try {
    const value = await fetcher();
    try {
      localStorage.setItem(PREFIX + key, JSON.stringify(value));
    } catch {
      // A full or unavailable storage only costs the offline copy.
    }
    return value;
  } catch (e) {
    const kept = isNetworkError(e) ? readCopy(key) : undefined;
    if (kept === undefined) throw e;
    return kept as T;
  }
}

function readCopy(key: string): unknown {
  try {
    const text = localStorage.getItem(PREFIX + key);
    return text === null ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

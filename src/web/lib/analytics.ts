import type { EventBody } from '@shared/api/events';
import { workspaceIdFromPath } from '@web/app/guards';

/**
 * Spec §3 Analytics event doc. The server adds xmUser and xmSession from the session; the client sends
 * the event type, the URL and the workspace it happened in. Never throws: analytics must not break the app.
 */
export function logEvent(eventType: string, data?: Record<string, unknown>, url = currentUrl()): void {
  const path = safePath(url);
  const xmWs = workspaceIdFromPath(path);
  const body: EventBody = { eventType, url, ...(xmWs ? { xmWs } : {}), ...(data ? { data } : {}) };
  try {
    void fetch('/api/v1/events', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      keepalive: true,
    }).catch(() => undefined);
  } catch {
    /* ignored */
  }
}

function currentUrl() {
  return typeof window === 'undefined' ? '/' : window.location.pathname + window.location.search;
}

function safePath(url: string) {
  try {
    return new URL(url, 'http://x').pathname;
  } catch {
    return url;
  }
}

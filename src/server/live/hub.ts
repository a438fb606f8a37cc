import type { ServerResponse } from 'node:http';
import { LIVE_EVENTS, PRESENCE_GONE_MS, type LiveItemEvent, type LivePresenceEvent } from '@shared/api/live';
import type { AppContext } from '../context';
import { watchCommittedChanges, type Change, type LiveNotice } from '../journal/changes';
import { journal } from '../journal/journal';
import { grantsStillHeld, type StreamGrant } from './repository';

/** How often every stream's access is checked again, besides the journal's notices of revocations. */
const RECHECK_MS = 30_000;
/** A comment line this often keeps proxies from closing a quiet stream and finds closed sockets. */
const KEEPALIVE_MS = 25_000;
/** A stream whose reader fell this far behind is closed (its tab reconnects and refetches). */
const MAX_BUFFERED_BYTES = 1024 * 1024;
/** How often tabs not heard from are looked for. */
const PRESENCE_CHECK_MS = 5_000;
/** How long events gather before they are written to the streams. */
const FLUSH_MS = 25;
/** The read caches whose notices may mean a revoked session or membership. */
const ACCESS_CACHES = new Set(['session-user', 'membership']);

/** One open event stream: a tab of a member in a workspace. */
export interface LiveStream extends StreamGrant {
  tab: string;
  response: ServerResponse;
}

const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * The streams of one server process, by workspace, fed from the journal's committed changes (one
 * LISTEN per process, journal/changes.ts): an event is encoded once per workspace and written to each
 * of its streams. Access is checked again for every stream, in one query, on each notice that may
 * revoke a session or a membership and every RECHECK_MS; a stream whose access is gone ends at once.
 */
export class LiveHub {
  private readonly byWorkspace = new Map<string, Set<LiveStream>>();
  /** Where each tab of each workspace was last said to be (by any process), and when. */
  private readonly presence = new Map<string, Map<string, { event: LivePresenceEvent; at: number }>>();
  private readonly stopWatching: () => void;
  private readonly timers: NodeJS.Timeout[];
  private closing = false;
  /** Events waiting for the next flush, by workspace. */
  private readonly pending = new Map<string, string[]>();
  private flushing: NodeJS.Timeout | undefined;
  private recheck: { running: boolean; again: boolean } = { running: false, again: false };

  constructor(private readonly ctx: AppContext) {
    this.stopWatching = watchCommittedChanges(ctx.db, {
      committed: (changes) => this.committed(changes),
      lost: () => {
        this.broadcast(frame(LIVE_EVENTS.reset, {}));
        this.checkAccess();
      },
    });
    this.timers = [
      setInterval(() => this.checkAccess(), RECHECK_MS),
      setInterval(() => this.broadcast(':\n\n'), KEEPALIVE_MS),
      setInterval(() => this.forgetGonePresence(), PRESENCE_CHECK_MS),
    ];
    for (const timer of this.timers) timer.unref();
  }

  get size() {
    let n = 0;
    for (const streams of this.byWorkspace.values()) n += streams.size;
    return n;
  }

  open(stream: LiveStream) {
    let streams = this.byWorkspace.get(stream.workspaceId);
    if (!streams) this.byWorkspace.set(stream.workspaceId, (streams = new Set()));
    streams.add(stream);
    stream.response.once('close', () => {
      if (this.forget(stream) && !this.closing) void this.left(stream);
    });
    this.write(stream, frame(LIVE_EVENTS.ready, { tab: stream.tab }));
    for (const { event } of this.presence.get(stream.workspaceId)?.values() ?? [])
      this.write(stream, frame(LIVE_EVENTS.presence, event));
  }

  /** Tells every process that a closed stream's tab left. */
  private async left(stream: LiveStream) {
    const event: LivePresenceEvent = { tab: stream.tab, user: { id: stream.userId, name: '' }, where: null };
    await journal(this.ctx.db, {
      changes: [
        { kind: 'live', workspaceId: stream.workspaceId, event: LIVE_EVENTS.presence, data: { ...event } },
      ],
    }).catch((err: unknown) => this.ctx.log.warn({ err }, 'live: presence notice failed'));
  }

  private notice(change: LiveNotice) {
    if (change.event === LIVE_EVENTS.presence) {
      const event = change.data as unknown as LivePresenceEvent;
      let tabs = this.presence.get(change.workspaceId);
      if (!tabs) this.presence.set(change.workspaceId, (tabs = new Map()));
      if (event.where) tabs.set(event.tab, { event, at: Date.now() });
      else tabs.delete(event.tab);
      if (tabs.size === 0) this.presence.delete(change.workspaceId);
    }
    this.send(change.workspaceId, change.event, change.data);
  }

  /**
   * Forgets tabs not heard from for a while (their process may have died without a word): checked every
   * PRESENCE_CHECK_MS, so each is gone within PRESENCE_GONE_MS of its last word.
   */
  private forgetGonePresence() {
    const before = Date.now() - (PRESENCE_GONE_MS - PRESENCE_CHECK_MS);
    for (const [workspaceId, tabs] of this.presence) {
      for (const [tab, { event, at }] of tabs)
        if (at < before) {
          tabs.delete(tab);
          this.send(workspaceId, LIVE_EVENTS.presence, { ...event, where: null });
        }
      if (tabs.size === 0) this.presence.delete(workspaceId);
    }
  }

  /**
   * Sends `event` to every stream of the workspace, gathered with the others of the next FLUSH_MS into
   * one write per stream: at 100 writes a second and 2,000 streams a write per event and stream was
   * 200,000 socket writes a second, more than the process could do (measured with bench/live.ts).
   */
  send(workspaceId: string, event: string, data: unknown) {
    if (!this.byWorkspace.has(workspaceId)) return;
    const pending = this.pending.get(workspaceId);
    if (pending) pending.push(frame(event, data));
    else this.pending.set(workspaceId, [frame(event, data)]);
    this.flushing ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  private flush() {
    this.flushing = undefined;
    for (const [workspaceId, frames] of this.pending) {
      const text = frames.join('');
      for (const stream of this.byWorkspace.get(workspaceId) ?? []) this.write(stream, text);
    }
    this.pending.clear();
  }

  /** Ends every stream (the server is closing). */
  close() {
    this.closing = true;
    clearTimeout(this.flushing);
    this.stopWatching();
    for (const timer of this.timers) clearInterval(timer);
    for (const streams of this.byWorkspace.values()) for (const stream of streams) stream.response.end();
    this.byWorkspace.clear();
  }

  private committed(changes: Change[]) {
    const itemsTold = new Set<string>();
    const at = new Date().toISOString();
    let accessChanged = false;
    for (const change of changes) {
      if (change.kind === 'item') {
        itemsTold.add(change.workspaceId);
        const { schema, id, version, action, actor } = change;
        this.send(change.workspaceId, LIVE_EVENTS.item, {
          schema,
          id,
          version,
          action,
          actor,
          at,
        } satisfies LiveItemEvent);
      } else if (change.kind === 'live') this.notice(change);
      else if (change.kind === 'cache' && ACCESS_CACHES.has(change.name)) accessChanged = true;
    }
    for (const change of changes)
      if (change.kind === 'items' && change.workspaceId && !itemsTold.has(change.workspaceId)) {
        itemsTold.add(change.workspaceId);
        this.send(change.workspaceId, LIVE_EVENTS.items, {});
      }
    if (accessChanged) this.checkAccess();
  }

  private write(stream: LiveStream, text: string) {
    if (stream.response.writableLength > MAX_BUFFERED_BYTES) stream.response.destroy();
    else stream.response.write(text);
  }

  private broadcast(text: string) {
    for (const streams of this.byWorkspace.values()) for (const stream of streams) this.write(stream, text);
  }

  /** Answers whether the stream was still open here. */
  private forget(stream: LiveStream) {
    const streams = this.byWorkspace.get(stream.workspaceId);
    const had = streams?.delete(stream) ?? false;
    if (streams?.size === 0) this.byWorkspace.delete(stream.workspaceId);
    return had;
  }

  /** Checks every stream's access again (once more after a running check when asked meanwhile). */
  private checkAccess() {
    if (this.recheck.running) {
      this.recheck.again = true;
      return;
    }
    this.recheck.running = true;
    void this.checkAll()
      .catch((err: unknown) => this.ctx.log.warn({ err }, 'live: access check failed'))
      .finally(() => {
        this.recheck.running = false;
        if (this.recheck.again) {
          this.recheck.again = false;
          this.checkAccess();
        }
      });
  }

  private async checkAll() {
    const streams = [...this.byWorkspace.values()].flatMap((set) => [...set]);
    const held = await grantsStillHeld(this.ctx.db, streams);
    streams.forEach((stream, i) => {
      if (held.has(i)) return;
      stream.response.end(frame(LIVE_EVENTS.revoked, {}));
      if (this.forget(stream)) void this.left(stream);
    });
  }
}

import type { ServerResponse } from 'node:http';
import { LIVE_EVENTS, type LiveItemEvent } from '@shared/api/live';
import type { AppContext } from '../context';
import { watchCommittedChanges, type Change } from '../journal/changes';
import { grantsStillHeld, type StreamGrant } from './repository';

/** How often every stream's access is checked again, besides the journal's notices of revocations. */
const RECHECK_MS = 30_000;
/** A comment line this often keeps proxies from closing a quiet stream and finds closed sockets. */
const KEEPALIVE_MS = 25_000;
/** A stream whose reader fell this far behind is closed (its tab reconnects and refetches). */
const MAX_BUFFERED_BYTES = 1024 * 1024;
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
  private readonly stopWatching: () => void;
  private readonly timers: NodeJS.Timeout[];
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
    stream.response.once('close', () => this.forget(stream));
    this.write(stream, frame(LIVE_EVENTS.ready, { tab: stream.tab }));
  }

  /** Sends `event` to every stream of the workspace (presence and locks use this too). */
  send(workspaceId: string, event: string, data: unknown) {
    const streams = this.byWorkspace.get(workspaceId);
    if (!streams) return;
    const text = frame(event, data);
    for (const stream of streams) this.write(stream, text);
  }

  /** Ends every stream (the server is closing). */
  close() {
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
      } else if (change.kind === 'cache' && ACCESS_CACHES.has(change.name)) accessChanged = true;
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

  private forget(stream: LiveStream) {
    const streams = this.byWorkspace.get(stream.workspaceId);
    streams?.delete(stream);
    if (streams?.size === 0) this.byWorkspace.delete(stream.workspaceId);
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
      this.forget(stream);
    });
  }
}

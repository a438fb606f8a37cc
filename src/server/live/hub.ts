import type { ServerResponse } from 'node:http';
import {
  LIVE_EVENTS,
  PRESENCE_GONE_MS,
  type LiveItemEvent,
  type LiveLockEvent,
  type LivePresenceEvent,
  type LiveReadyEvent,
} from '@shared/api/live';
import type { AppContext } from '../context';
import type { ContentModel } from '@shared/model/registry';
import { readableSchemaNamesOf } from '../items/scope';
import { modelOf } from '../workspaces/content-model';
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
  /** The tab's opaque key (tab-key.ts), the only name of it other streams are told. */
  key: string;
  /** The schemas the member may read (items/scope.ts): events of any other schema never reach the stream. */
  readable: ReadonlySet<string>;
  response: ServerResponse;
}

/** Which streams an event is for, by the schemas their member may read; every stream when absent. */
type Audience = (readable: ReadonlySet<string>) => boolean;
/** An event about these schemas, for the streams whose member may read them all. */
const readers =
  (schemas: readonly string[]): Audience =>
  (readable) =>
    schemas.every((schema) => readable.has(schema));

interface PresenceEntry {
  event: LivePresenceEvent;
  at: number;
  /** The readers the tab's place is for (the item's schema, the list's). */
  audience: Audience;
}

const placeSchemas = (where: LivePresenceEvent['where']) =>
  [where?.item?.schema, where?.list].filter((schema) => schema !== undefined);

const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
const goneFrame = (event: LivePresenceEvent) => frame(LIVE_EVENTS.presence, { ...event, where: null });

/**
 * The streams of one server process, by workspace, fed from the journal's committed changes (one
 * LISTEN per process, journal/changes.ts): an event is encoded once per workspace and written to each
 * of its streams whose member may read its schema (items, locks, the places of tabs). Access is checked
 * again for every stream, in one query, on each notice that may revoke a session or a membership or
 * change what a member may read, and every RECHECK_MS; a stream whose access is gone ends at once.
 */
export class LiveHub {
  private readonly byWorkspace = new Map<string, Set<LiveStream>>();
  /** Where each tab of each workspace (by its key) was last said to be (by any process), and when. */
  private readonly presence = new Map<string, Map<string, PresenceEntry>>();
  private readonly stopWatching: () => void;
  private readonly timers: NodeJS.Timeout[];
  private closing = false;
  /** Events waiting for the next flush, by workspace. */
  private readonly pending = new Map<string, { text: string; audience?: Audience }[]>();
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
    this.write(stream, frame(LIVE_EVENTS.ready, { key: stream.key } satisfies LiveReadyEvent));
    for (const { event, audience } of this.presence.get(stream.workspaceId)?.values() ?? [])
      if (audience(stream.readable)) this.write(stream, frame(LIVE_EVENTS.presence, event));
  }

  /** Tells every process that a closed stream's tab left. */
  private async left(stream: LiveStream) {
    const event: LivePresenceEvent = { key: stream.key, user: { id: stream.userId, name: '' }, where: null };
    await journal(this.ctx.db, {
      changes: [
        { kind: 'live', workspaceId: stream.workspaceId, event: LIVE_EVENTS.presence, data: { ...event } },
      ],
    }).catch((err: unknown) => this.ctx.log.warn({ err }, 'live: presence notice failed'));
  }

  private notice(change: LiveNotice) {
    if (change.event === LIVE_EVENTS.presence)
      return this.presenceNoticed(change.workspaceId, change.data as unknown as LivePresenceEvent);
    if (change.event === LIVE_EVENTS.lock) {
      const { schema } = change.data as unknown as LiveLockEvent;
      return this.send(change.workspaceId, change.event, change.data, readers([schema]));
    }
    this.send(change.workspaceId, change.event, change.data);
  }

  /**
   * Keeps where a tab is, and tells the streams that may read its place; those that could read where it
   * was before, and not where it is now, are told it left.
   */
  private presenceNoticed(workspaceId: string, event: LivePresenceEvent) {
    let tabs = this.presence.get(workspaceId);
    if (!tabs) this.presence.set(workspaceId, (tabs = new Map()));
    const before = tabs.get(event.key);
    const audience = event.where ? readers(placeSchemas(event.where)) : undefined;
    if (audience) {
      tabs.set(event.key, { event, at: Date.now(), audience });
      this.send(workspaceId, LIVE_EVENTS.presence, event, audience);
    } else tabs.delete(event.key);
    if (before) {
      const stillTold = audience ?? (() => false);
      this.sendFrame(workspaceId, goneFrame(before.event), (r) => before.audience(r) && !stillTold(r));
    }
    if (tabs.size === 0) this.presence.delete(workspaceId);
  }

  /**
   * Forgets tabs not heard from for a while (their process may have died without a word): checked every
   * PRESENCE_CHECK_MS, so each is gone within PRESENCE_GONE_MS of its last word.
   */
  private forgetGonePresence() {
    const before = Date.now() - (PRESENCE_GONE_MS - PRESENCE_CHECK_MS);
    for (const [workspaceId, tabs] of this.presence) {
      for (const [key, { event, at, audience }] of tabs)
        if (at < before) {
          tabs.delete(key);
          this.sendFrame(workspaceId, goneFrame(event), audience);
        }
      if (tabs.size === 0) this.presence.delete(workspaceId);
    }
  }

  /**
   * Sends `event` to every stream of the workspace, gathered with the others of the next FLUSH_MS into
   * one write per stream: at 100 writes a second and 2,000 streams a write per event and stream was
   * 200,000 socket writes a second, more than the process could do (measured with bench/live.ts).
   */
  send(workspaceId: string, event: string, data: unknown, audience?: Audience) {
    if (this.byWorkspace.has(workspaceId)) this.sendFrame(workspaceId, frame(event, data), audience);
  }

  private sendFrame(workspaceId: string, text: string, audience?: Audience) {
    if (!this.byWorkspace.has(workspaceId)) return;
    const pending = this.pending.get(workspaceId);
    if (pending) pending.push({ text, audience });
    else this.pending.set(workspaceId, [{ text, audience }]);
    this.flushing ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  /** Writes the gathered events: encoded once per workspace, and once more per set of readable schemas. */
  private flush() {
    this.flushing = undefined;
    for (const [workspaceId, frames] of this.pending) {
      const everyone = frames.every((f) => !f.audience) ? frames.map((f) => f.text).join('') : undefined;
      const byReadable = new Map<ReadonlySet<string>, string>();
      for (const stream of this.byWorkspace.get(workspaceId) ?? []) {
        let text = everyone ?? byReadable.get(stream.readable);
        if (text === undefined) {
          text = frames
            .filter((f) => !f.audience || f.audience(stream.readable))
            .map((f) => f.text)
            .join('');
          byReadable.set(stream.readable, text);
        }
        if (text) this.write(stream, text);
      }
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
        const event: LiveItemEvent = { schema, id, version, action, actor, at };
        this.send(change.workspaceId, LIVE_EVENTS.item, event, readers([schema]));
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
    const models = new Map<number, ContentModel>();
    for (const [i, grant] of held)
      models.set(
        i,
        await modelOf(this.ctx.db, { id: streams[i].workspaceId, modelVersion: grant.modelVersion }),
      );
    streams.forEach((stream, i) => {
      const grant = held.get(i);
      if (grant)
        return this.mayRead(stream, readableSchemaNamesOf(models.get(i)!, grant.domains, grant.isManager));
      stream.response.end(frame(LIVE_EVENTS.revoked, {}));
      if (this.forget(stream)) void this.left(stream);
    });
  }

  /**
   * Lets the stream carry the schemas its member may now read: the tabs whose place it no longer may
   * read leave it, those it now may read arrive, and it is told to refetch what it shows.
   */
  private mayRead(stream: LiveStream, readable: ReadonlySet<string>) {
    const before = stream.readable;
    if (readable === before || !this.byWorkspace.get(stream.workspaceId)?.has(stream)) return;
    stream.readable = readable;
    if (readable.size === before.size && [...readable].every((schema) => before.has(schema))) return;
    let text = '';
    for (const { event, audience } of this.presence.get(stream.workspaceId)?.values() ?? []) {
      if (audience(before) && !audience(readable)) text += goneFrame(event);
      else if (!audience(before) && audience(readable)) text += frame(LIVE_EVENTS.presence, event);
    }
    this.write(stream, text + frame(LIVE_EVENTS.reset, {}));
  }
}

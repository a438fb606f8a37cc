import { act, createElement } from 'react';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveItemEvent, LivePresenceEvent } from '@shared/api/live';
import { builtInModelDoc, ContentModel } from '@shared/model/registry';
import { installFakeApi } from '@web/test/fake-api';
import { FakeEventSource } from '@web/test/fake-event-source';
import { render, waitFor } from '@web/test/render';
import { contentModelQueryKey } from './content-model';
import { liveTabId, liveTabKey, openLiveStream, useLiveEvents, usePresence, type LiveHandlers } from './live';

const latest = () => FakeEventSource.opened.at(-1)!;

const itemEvent = (over: Partial<LiveItemEvent> = {}): LiveItemEvent => ({
  schema: 'blog-post',
  id: 'post1',
  version: 2,
  action: 'item.saved',
  actor: { id: 'u2', name: 'Bea Editor' },
  at: '2026-01-02T10:00:00.000Z',
  ...over,
});

const workspaceKey = ['workspaces', 'acme'];
const listKey = ['workspaces', 'acme', 'items', 'list', { schema: 'blog-post', view: 'all' }];
const detailKey = ['workspaces', 'acme', 'items', 'detail', 'blog-post', 'post1'];
const historyKey = [...detailKey, 'history'];
const otherHistoryKey = ['workspaces', 'acme', 'items', 'detail', 'blog-post', 'post2', 'history'];

function clientWithQueries() {
  const client = new QueryClient();
  for (const key of [listKey, detailKey, historyKey, otherHistoryKey]) client.setQueryData(key, {});
  return client;
}

const isStale = (client: QueryClient, key: unknown[]) => client.getQueryState(key)?.isInvalidated === true;

/** A component that hears the stream's events while mounted. */
async function listen(handlers: LiveHandlers) {
  function Listener() {
    useLiveEvents(handlers);
    return null;
  }
  return render(createElement(Listener));
}

/** What usePresence gives, as text: the tabs and their users. */
async function showPresence() {
  function Presence() {
    const tabs = usePresence();
    return createElement(
      'p',
      { 'data-testid': 'presence' },
      [...tabs.values()].map((tab) => `${tab.key}:${tab.user.name}`).join(','),
    );
  }
  await render(createElement(Presence));
  return () => document.querySelector('[data-testid="presence"]')!.textContent;
}

describe('the live stream', () => {
  let close: () => void = () => {};
  const onRevoked = vi.fn();

  beforeEach(() => {
    FakeEventSource.opened = [];
    onRevoked.mockReset();
    vi.stubGlobal('EventSource', FakeEventSource);
  });

  afterEach(() => {
    act(() => close());
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('opens one stream for the workspace and this tab, with credentials', () => {
    close = openLiveStream({ ws: 'acme', client: new QueryClient(), onRevoked });
    expect(FakeEventSource.opened).toHaveLength(1);
    expect(latest().url).toBe(`/api/v1/workspaces/acme/live?tab=${liveTabId()}`);
    expect(latest().init).toEqual({ withCredentials: true });
    expect(liveTabId()).toBe(liveTabId());
  });

  it('tells mounted listeners of item and lock events, and makes lists and what hangs below the item stale', async () => {
    const client = clientWithQueries();
    close = openLiveStream({ ws: 'acme', client, onRevoked });
    const item = vi.fn();
    const lock = vi.fn();
    const listener = await listen({ item, lock });
    latest().send('ready');

    latest().send('item', itemEvent());
    expect(item).toHaveBeenCalledWith(itemEvent());
    expect(isStale(client, listKey)).toBe(true);
    expect(isStale(client, historyKey)).toBe(true);
    expect(isStale(client, detailKey)).toBe(true);
    expect(isStale(client, otherHistoryKey)).toBe(false);

    const lockEvent = { schema: 'blog-post', id: 'post1', lock: null };
    latest().send('lock', lockEvent);
    expect(lock).toHaveBeenCalledWith(lockEvent);

    await listener.unmount();
    latest().send('item', itemEvent({ version: 3 }));
    expect(item).toHaveBeenCalledTimes(1);
  });

  it('ignores events it cannot read', async () => {
    close = openLiveStream({ ws: 'acme', client: new QueryClient(), onRevoked });
    const item = vi.fn();
    await listen({ item });
    latest().sendText('item', '{');
    expect(item).not.toHaveBeenCalled();
  });

  it('reopens a stream the server refused, waiting longer after each refusal, and says what may have been missed', async () => {
    vi.useFakeTimers();
    const client = clientWithQueries();
    close = openLiveStream({ ws: 'acme', client, onRevoked });
    const reset = vi.fn();
    await listen({ reset });
    latest().send('ready');
    expect(reset).not.toHaveBeenCalled();

    // A dropped connection the browser retries by itself: nothing to do here.
    latest().fail({ closed: false });
    vi.advanceTimersByTime(120_000);
    expect(FakeEventSource.opened).toHaveLength(1);

    latest().fail({ closed: true });
    vi.advanceTimersByTime(1_999);
    expect(FakeEventSource.opened).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeEventSource.opened).toHaveLength(2);

    latest().fail({ closed: true });
    vi.advanceTimersByTime(3_999);
    expect(FakeEventSource.opened).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeEventSource.opened).toHaveLength(3);

    // Open again: listeners refetch what they show, and the next refusal waits the least again.
    latest().send('ready');
    expect(reset).toHaveBeenCalledTimes(1);
    expect(isStale(client, listKey)).toBe(true);
    expect(isStale(client, detailKey)).toBe(false);
    latest().fail({ closed: true });
    vi.advanceTimersByTime(2_000);
    expect(FakeEventSource.opened).toHaveLength(4);
  });

  it('waits at most a minute between attempts', () => {
    vi.useFakeTimers();
    close = openLiveStream({ ws: 'acme', client: new QueryClient(), onRevoked });
    for (let attempt = 0; attempt < 8; attempt++) {
      latest().fail({ closed: true });
      vi.advanceTimersByTime(60_000);
    }
    expect(FakeEventSource.opened).toHaveLength(9);
  });

  it('a reset event makes everything shown but the open item stale and tells listeners', async () => {
    const client = clientWithQueries();
    close = openLiveStream({ ws: 'acme', client, onRevoked });
    const reset = vi.fn();
    await listen({ reset });
    latest().send('reset');
    expect(reset).toHaveBeenCalledTimes(1);
    expect(isStale(client, listKey)).toBe(true);
    expect(isStale(client, otherHistoryKey)).toBe(true);
    expect(isStale(client, detailKey)).toBe(false);
  });

  it('on a model change, loads the new model before the workspace (which names its version) goes stale', async () => {
    installFakeApi({
      'GET /api/v1/workspaces/acme/content-model': () => [200, { version: 4, model: builtInModelDoc() }],
    });
    const client = clientWithQueries();
    client.setQueryData(workspaceKey, {});
    const modelWhenStale: unknown[] = [];
    client.getQueryCache().subscribe(({ type, query }) => {
      if (type === 'updated' && isStale(client, workspaceKey) && query.queryKey.length === 2)
        modelWhenStale.push(client.getQueryData(contentModelQueryKey('acme', 4)));
    });
    close = openLiveStream({ ws: 'acme', client, onRevoked });
    latest().send('ready');
    latest().send('model', { version: 4 });
    await waitFor(() => expect(isStale(client, workspaceKey)).toBe(true));
    expect(modelWhenStale[0]).toBeInstanceOf(ContentModel);
    expect((modelWhenStale[0] as ContentModel).version).toBe(4);
    expect(isStale(client, listKey)).toBe(true);
    // The open item form keeps its values: the item shown is its screen's to refresh.
    expect(isStale(client, detailKey)).toBe(false);
  });

  it('on revoked, closes the stream for good and says so', () => {
    vi.useFakeTimers();
    close = openLiveStream({ ws: 'acme', client: new QueryClient(), onRevoked });
    latest().send('ready');
    latest().send('revoked');
    expect(onRevoked).toHaveBeenCalledTimes(1);
    expect(latest().readyState).toBe(FakeEventSource.CLOSED);
    latest().fail({ closed: true });
    vi.advanceTimersByTime(120_000);
    expect(FakeEventSource.opened).toHaveLength(1);
  });

  it('closing it closes the stream and cancels a pending reopen', () => {
    vi.useFakeTimers();
    close = openLiveStream({ ws: 'acme', client: new QueryClient(), onRevoked });
    const first = latest();
    first.fail({ closed: true });
    close();
    vi.advanceTimersByTime(120_000);
    expect(FakeEventSource.opened).toHaveLength(1);
    expect(first.readyState).toBe(FakeEventSource.CLOSED);
  });

  it('opens nothing where the browser has no EventSource, and the app goes on', async () => {
    vi.stubGlobal('EventSource', undefined);
    const item = vi.fn();
    await listen({ item });
    expect(() => {
      close = openLiveStream({ ws: 'acme', client: new QueryClient(), onRevoked });
    }).not.toThrow();
    expect(FakeEventSource.opened).toHaveLength(0);
    expect(() => close()).not.toThrow();
    expect(item).not.toHaveBeenCalled();
  });

  // Broke: presence was kept by tab id, which every stream was told, and this tab knew itself by its id.
  it('keeps the other tabs’ presence by key, not this tab’s (the key the stream told it), and forgets it when closed', async () => {
    close = openLiveStream({ ws: 'acme', client: new QueryClient(), onRevoked });
    const shown = await showPresence();
    const here = (key: string, name: string, where: LivePresenceEvent['where']): LivePresenceEvent => ({
      key,
      user: { id: name, name },
      where,
    });
    await act(async () => {
      latest().send('ready', { key: 'keyOfThisTab' });
      latest().send('presence', here('keyBea', 'Bea', { list: 'blog-post' }));
      latest().send('presence', here('keyCy', 'Cy', { item: { schema: 'blog-post', id: 'post1' } }));
      latest().send('presence', here('keyOfThisTab', 'Me', { list: 'blog-post' }));
    });
    expect(liveTabKey()).toBe('keyOfThisTab');
    expect(shown()).toBe('keyBea:Bea,keyCy:Cy');
    await act(async () => latest().send('presence', here('keyBea', 'Bea', null)));
    expect(shown()).toBe('keyCy:Cy');
    await act(async () => close());
    expect(shown()).toBe('');
  });
});

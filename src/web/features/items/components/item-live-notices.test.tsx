import { act } from 'react';
import { QueryClient, type UseQueryResult } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Item } from '@shared/api/items';
import type { LiveItemEvent } from '@shared/api/live';
import { BUILT_IN_MODEL } from '@shared/model/registry';
import { bodyText, button, renderUi } from '@web/components/item-form/test-utils';
import { openLiveStream } from '@web/lib/live';
import { installFakeApi } from '@web/test/fake-api';
import { FakeEventSource } from '@web/test/fake-event-source';
import { freeLockRoutes, THIS_TAB_KEY } from '@web/test/item-lock';
import { click } from '@web/test/render';
import { testItem } from '@web/test/test-item';
import { ItemLiveNotices } from './item-live-notices';
import { useItemLive } from './use-item-live';

const schema = BUILT_IN_MODEL.schema('blog-post')!;

const item: Item = { ...testItem('blog-post', 'post1', { name: 'Harbour notes' }), version: 2 };

const refetch = vi.fn();
const query = { data: item, refetch } as unknown as UseQueryResult<Item>;

/** The item screen's live part: its notices and the mode the form would be in. */
function Screen() {
  const live = useItemLive('acme', 'blog-post', 'post1', query);
  return (
    <>
      <ItemLiveNotices ws="acme" schema={schema} item={item} live={live} onReload={() => {}} />
      <p data-testid="mode">{live.mode}</p>
      <button type="button" onClick={() => live.handleModeChange('edit')}>
        Enter edit mode
      </button>
    </>
  );
}

const event = (over: Partial<LiveItemEvent>): LiveItemEvent => ({
  schema: 'blog-post',
  id: 'post1',
  version: 3,
  action: 'item.saved',
  actor: { id: 'u2', name: 'Bea Editor' },
  at: '2026-01-02T10:00:00.000Z',
  ...over,
});

const stream = () => FakeEventSource.opened.at(-1)!;
const send = (data: LiveItemEvent) => act(async () => stream().send('item', data));
const mode = () => document.querySelector('[data-testid="mode"]')!.textContent;

describe('the item screen told of writes elsewhere', () => {
  let close = () => {};
  beforeEach(async () => {
    FakeEventSource.opened = [];
    refetch.mockClear();
    vi.stubGlobal('EventSource', FakeEventSource);
    installFakeApi({
      ...freeLockRoutes('/api/v1/workspaces/acme/items/blog-post/post1'),
      'PUT /api/v1/workspaces/acme/live/presence': () => [200, { ok: true }],
    });
    close = openLiveStream({ ws: 'acme', client: new QueryClient(), onRevoked: () => {} });
    stream().send('ready', { key: THIS_TAB_KEY });
    await renderUi(<Screen />);
  });
  afterEach(() => {
    act(() => close());
    vi.unstubAllGlobals();
  });

  it('in view mode, a save elsewhere refetches the item', async () => {
    await send(event({}));
    expect(refetch).toHaveBeenCalledTimes(1);
    expect(bodyText()).not.toContain('Deleted by');
  });

  it('in view mode, a deletion marks the item instead of refetching it', async () => {
    await send(event({ version: null, action: 'item.deleted' }));
    expect(refetch).not.toHaveBeenCalled();
    expect(bodyText()).toMatch(/Deleted by Bea Editor at .*2026/);
    expect(bodyText()).toContain('it can no longer be edited, published or commented on');
  });

  it('in edit mode, a deletion says the edits stay but cannot be saved', async () => {
    await click(button('Enter edit mode'));
    expect(mode()).toBe('edit');
    await send(event({ version: null, action: 'item.deleted' }));
    expect(mode()).toBe('edit');
    expect(bodyText()).toContain('Deleted by Bea Editor at');
    expect(bodyText()).toContain('saving them cannot succeed');
    expect(refetch).not.toHaveBeenCalled();
  });

  it('in edit mode, a save elsewhere says who changed it and keeps the edits', async () => {
    await click(button('Enter edit mode'));
    await send(event({}));
    expect(mode()).toBe('edit');
    expect(bodyText()).toContain('Changed by Bea Editor at');
    expect(refetch).not.toHaveBeenCalled();
  });

  it('takes a write that leaves no version (a comment) for neither a deletion nor a change', async () => {
    await send(event({ version: null, action: 'comment.created' }));
    expect(bodyText()).not.toContain('Deleted by');
    await click(button('Enter edit mode'));
    await send(event({ version: null, action: 'comment.created' }));
    expect(bodyText()).not.toContain('Deleted by');
    expect(bodyText()).not.toContain('Changed by');
    expect(refetch).not.toHaveBeenCalled();
  });

  it('ignores writes of other items', async () => {
    await send(event({ id: 'post2', version: null }));
    expect(bodyText()).not.toContain('Deleted by');
    expect(refetch).not.toHaveBeenCalled();
  });
});

import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Item } from '@shared/api/items';
import { BUILT_IN_MODEL } from '@shared/model/registry';
import { testItem } from '@web/test/test-item';
import { REFERENCE_SEARCH_LIMIT, createReferenceSearch } from './search-references';

const item = (schema: string, id: string, name: string): Item => testItem(schema, id, { name });

/** Answers each schema's list with the items the test gives; records the URLs asked. */
function stubItemsApi(bySchema: Record<string, Item[]>) {
  const urls: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(String(input), 'http://x');
      urls.push(url);
      const schema = url.pathname.split('/').pop()!;
      return new Response(JSON.stringify({ items: bySchema[schema] ?? [], nextCursor: null }), {
        status: 200,
      });
    }),
  );
  return urls;
}

afterEach(() => vi.unstubAllGlobals());

describe('createReferenceSearch', () => {
  it("asks each target schema's list for the typed text (q) and offers what the server found", async () => {
    const urls = stubItemsApi({
      copy: [item('copy', 'c1', 'Summer Launch')],
      email: [item('email', 'e1', 'Launch mail')],
    });
    const search = createReferenceSearch(new QueryClient(), 'acme', BUILT_IN_MODEL);
    const found = await search(['copy', 'email'], '  launch ');
    expect(found.map((ref) => [ref.schemaType, ref.id, ref.label])).toEqual([
      ['copy', 'c1', 'Summer Launch'],
      ['email', 'e1', 'Launch mail'],
    ]);
    expect(
      urls.map((url) => [url.pathname, url.searchParams.get('q'), url.searchParams.get('limit')]),
    ).toEqual([
      ['/api/v1/workspaces/acme/items/copy', 'launch', String(REFERENCE_SEARCH_LIMIT)],
      ['/api/v1/workspaces/acme/items/email', 'launch', String(REFERENCE_SEARCH_LIMIT)],
    ]);
  });

  it('without text offers the newest items, and answers a repeated text from the cache', async () => {
    const urls = stubItemsApi({ copy: [item('copy', 'c2', 'Newest'), item('copy', 'c1', 'Older')] });
    const search = createReferenceSearch(new QueryClient(), 'acme', BUILT_IN_MODEL);
    expect((await search(['copy'], '')).map((ref) => ref.label)).toEqual(['Newest', 'Older']);
    expect(urls[0].searchParams.has('q')).toBe(false);
    await search(['copy'], '');
    expect(urls).toHaveLength(1);
  });
});

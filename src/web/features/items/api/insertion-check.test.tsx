import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Item } from '@shared/api/items';
import type { Workspace } from '@shared/api/workspaces';
import { insertionErrors, locationNotAllowed } from '@shared/media/insertion-rules';
import { BUILT_IN_MODEL } from '@shared/model/registry';
import { ItemForm } from '@web/components/item-form/item-form';
import { byLabel, renderUi } from '@web/components/item-form/test-utils';
import { click, waitFor } from '@web/test/render';
import { testItem } from '@web/test/test-item';
import { useItemFormEnvironment } from '../components/use-item-form-environment';
import { createInsertionCheck } from './insertion-check';

// The form's file fields load their editor lazily: a test that ended first left that import to run
// after the environment was torn down, which failed the run on a slow machine.
beforeAll(() => import('@web/components/media/file-field-editor'));

const item = (schema: string, id: string, data: Record<string, unknown>): Item =>
  testItem(schema, id, { name: id, ...data });

const stored: Record<string, Item> = {
  early: item('copy', 'early', { text: 'x', startTime: '2025-07-03T00:00:00.000Z' }),
  fits: item('copy', 'fits', {
    text: 'x',
    startTime: '2025-07-04T01:00:00.000Z',
    endTime: '2025-07-04T02:00:00.000Z',
  }),
  french: item('marquee-assets-image-set', 'french', { locations: ['FR'] }),
};

/** Answers GET …/items/{schema}/{id} from `stored` (404 otherwise); records the paths asked. */
function stubItemApi() {
  const paths: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const path = new URL(String(input), 'http://x').pathname;
      paths.push(path);
      const found = stored[path.split('/').pop()!];
      return found
        ? new Response(JSON.stringify(found), { status: 200 })
        : new Response(JSON.stringify({ error: { code: 'not_found', message: 'Instance not found' } }), {
            status: 404,
          });
    }),
  );
  return paths;
}

afterEach(() => vi.unstubAllGlobals());

const event = BUILT_IN_MODEL.schema('event')!;
const launch = {
  name: 'Launch party',
  startTime: '2025-07-04T00:00:00.000Z',
  startTime_tz: 'America/New_York',
  endTime: '2025-07-04T04:00:00.000Z',
  endTime_tz: 'America/New_York',
  allowedLocations: ['US'],
};
const ref = (schemaType: string, id: string) => ({ id, schemaType, label: id });
const tooEarly = insertionErrors(stored.early.data, launch)[0];

describe('createInsertionCheck', () => {
  it("answers each breaking copy and image set by its path with the rules' messages", async () => {
    const paths = stubItemApi();
    const check = createInsertionCheck(new QueryClient(), 'acme');
    const errors = await check(event, {
      ...launch,
      copy: [ref('copy', 'fits'), ref('copy', 'early'), ref('copy', 'gone')],
      images: [ref('marquee-assets-image-set', 'french')],
    });
    expect(errors).toEqual({ 'copy.1': tooEarly, 'images.0': locationNotAllowed('France') });
    expect(tooEarly).toMatch(/^Start time must be after /);
    expect(paths.sort()).toEqual([
      '/api/v1/workspaces/acme/items/copy/early',
      '/api/v1/workspaces/acme/items/copy/fits',
      '/api/v1/workspaces/acme/items/copy/gone',
      '/api/v1/workspaces/acme/items/marquee-assets-image-set/french',
    ]);
  });

  it('asks again only when the references or the event window change; other schemas answer {}', async () => {
    const paths = stubItemApi();
    const check = createInsertionCheck(new QueryClient(), 'acme');
    const data = { ...launch, copy: [ref('copy', 'early')] };
    expect(await check(event, data)).toEqual({ 'copy.0': tooEarly });
    expect(await check(event, { ...data, name: 'Renamed', description: 'x' })).toEqual({
      'copy.0': tooEarly,
    });
    expect(paths).toHaveLength(1);
    // An earlier start lets the copy in (the fetched item comes from the cache).
    expect(await check(event, { ...data, startTime: '2025-07-02T00:00:00.000Z' })).toEqual({});
    expect(paths).toHaveLength(1);
    expect(await check(BUILT_IN_MODEL.schema('copy')!, data)).toEqual({});
    expect(paths).toHaveLength(1);
  });
});

const workspace: Pick<Workspace, 'id' | 'basics' | 'modelVersion'> = {
  id: 'acme',
  modelVersion: 0,
  basics: {
    name: 'Acme',
    domains: ['marketing'],
    stages: ['Live'],
    timezones: [],
    dateFormat: 'relative',
  } as Workspace['basics'],
};

function EventForm({ value }: { value: Record<string, unknown> }) {
  const environment = useItemFormEnvironment(workspace);
  return (
    <ItemForm schema={event} value={value} mode="edit" canEdit onSave={async () => {}} {...environment} />
  );
}

const fieldError = (label: string) =>
  byLabel(label).closest('.mantine-InputWrapper-root')?.querySelector('.mantine-InputWrapper-error')
    ?.textContent ?? null;

describe('the item screens check an event’s copy and images before saving', () => {
  it("shows 'Start time must be after …' under Copy, and drops it when the copy is removed", async () => {
    stubItemApi();
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await renderUi(
      <QueryClientProvider client={client}>
        <EventForm value={{ ...launch, copy: [ref('copy', 'fits'), ref('copy', 'early')] }} />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(fieldError('Copy')).toBe(tooEarly));
    await click(byLabel('Remove early'));
    await waitFor(() => expect(fieldError('Copy')).toBeNull());
  });
});

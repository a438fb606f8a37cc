import { act } from 'react';
import { installFakeApi } from '@web/test/fake-api';
import { render } from '@web/test/render';
import { useFormFeed } from './form-feed';
import { usePreviewChannel } from './use-preview-channel';

const SITE = 'http://site.test';
const RENDER = 'POST /api/v1/workspaces/acme/preview/render';
const ITEM = { id: 'p1', schema: 'landing-page', version: 3, publishedAt: '2026-12-02T10:00:00.000Z' };

function Harness({ data, onEdit }: { data: Record<string, unknown>; onEdit: (path: string) => void }) {
  const feed = useFormFeed();
  const { frameRef, error } = usePreviewChannel({
    ws: 'acme',
    schema: 'landing-page',
    id: 'p1',
    locale: 'fr-FR',
    origin: SITE,
    feed,
    stored: data,
    onEdit,
  });
  return (
    <>
      <iframe ref={frameRef} title="page" />
      <output>{error}</output>
    </>
  );
}

/** A message as the editor's window receives it. */
const receive = (data: unknown, origin: string, source: unknown) =>
  act(() => {
    const event = new MessageEvent('message', { data, origin });
    Object.defineProperty(event, 'source', { value: source });
    window.dispatchEvent(event);
  });

const flush = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)));

describe('usePreviewChannel', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('renders the values on the server and posts the item to the page’s origin only', async () => {
    const api = installFakeApi({
      [RENDER]: (body) => [
        200,
        {
          item: { ...ITEM, data: (body as { data: object }).data },
          editInfo: { title: 'acme:landing-page:p1:title' },
        },
      ],
    });
    const onEdit = vi.fn();
    const { container, unmount } = await render(<Harness data={{ title: 'Hi' }} onEdit={onEdit} />);
    const page = container.querySelector('iframe')!.contentWindow!;
    const posted = vi.spyOn(page, 'postMessage').mockImplementation(() => {});
    await flush();
    expect(api.calls.find((call) => `${call.method} ${call.path}` === RENDER)?.body).toEqual({
      schema: 'landing-page',
      id: 'p1',
      data: { title: 'Hi' },
      locale: 'fr-FR',
    });
    const item = { ...ITEM, data: { title: 'Hi' }, _editInfo: { title: 'acme:landing-page:p1:title' } };

    // A page that becomes ready gets the last item; another origin's or window's message is ignored.
    await receive({ type: 'marquee:ready', version: 1 }, SITE, page);
    expect(posted).toHaveBeenCalledWith({ type: 'marquee:item', item }, SITE);
    posted.mockClear();
    await receive({ type: 'marquee:ready', version: 1 }, 'http://evil.test', page);
    await receive({ type: 'marquee:ready', version: 1 }, SITE, window);
    expect(posted).not.toHaveBeenCalled();

    await receive(
      { type: 'marquee:edit', path: 'sections.1.text', schema: 'landing-page', id: 'p1' },
      SITE,
      page,
    );
    await receive({ type: 'marquee:edit', path: 'title', schema: 'landing-page', id: 'other' }, SITE, page);
    await receive(
      { type: 'marquee:edit', path: 'title', schema: 'landing-page', id: 'p1' },
      'http://evil.test',
      page,
    );
    expect(onEdit.mock.calls).toEqual([['sections.1.text']]);
    await unmount();
  });

  it('says when the values cannot be rendered', async () => {
    installFakeApi({
      [RENDER]: () => [400, { error: { code: 'validation_failed', message: 'Title is required' } }],
    });
    const { container } = await render(<Harness data={{}} onEdit={() => {}} />);
    await flush();
    expect(container.querySelector('output')?.textContent).toBe('Title is required');
  });
});

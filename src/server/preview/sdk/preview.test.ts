import fs from 'node:fs';
import { JSDOM } from 'jsdom';

/**
 * The preview script in a page framed by the editor: an editor window on the app's origin holding the
 * site's page in an iframe, both in jsdom.
 */
const SOURCE = fs.readFileSync(new URL('./preview.js', import.meta.url), 'utf8');
const APP = 'http://app.test';

interface PreviewApi {
  subscribe(listener: (item: unknown) => void): () => void;
  edit(item: unknown, path: string): Record<string, string>;
  attrs(item: unknown, path: string): string;
  reloadOnSave(): void;
  token(): string | null;
}

type PageWindow = Window & typeof globalThis & { marqueePreview: PreviewApi };
/** jsdom's constructor, with the options these tests use. */
const Dom = JSDOM as unknown as new (
  html: string,
  options: { url: string; runScripts: 'dangerously' },
) => {
  window: PageWindow;
};

interface Frame {
  page: PageWindow;
  /** The editor's window as the page sees it: its parent. */
  editor: object;
  /** What the page posted to the editor, with the target origins it named. */
  posted: { message: unknown; origin: string }[];
}

/** The site's page as the pane frames it: its parent stands for the editor's window. */
function framedPage(body: string, scriptAttributes = `data-marquee-origin="${APP}"`, query = ''): Frame {
  const dom = new Dom(`<!doctype html><body>${body}</body>`, {
    url: `http://site.test/spring${query ? `?${query}` : ''}`,
    runScripts: 'dangerously',
  });
  const page = dom.window;
  const posted: Frame['posted'] = [];
  const editor = { postMessage: (message: unknown, origin: string) => posted.push({ message, origin }) };
  Object.defineProperty(page, 'parent', { value: editor });
  const script = page.document.createElement('script');
  for (const [, name, value] of scriptAttributes.matchAll(/([\w-]+)="([^"]*)"/g))
    script.setAttribute(name, value);
  script.textContent = SOURCE;
  page.document.body.append(script);
  return { page, editor, posted };
}

/** A message event from `origin` as the page receives it, from the editor's window. */
function send(frame: Frame, data: unknown, origin = APP, source: unknown = frame.editor) {
  const event = new frame.page.MessageEvent('message', { data, origin });
  Object.defineProperty(event, 'source', { value: source });
  frame.page.dispatchEvent(event);
}

const ITEM = {
  id: 'p1',
  schema: 'landing-page',
  data: { title: 'Spring' },
  _editInfo: { title: 'acme:landing-page:p1:title', blocks: 'acme:landing-page:p1:blocks' },
};

describe('the preview script', () => {
  it('tells the editor it is ready, at the app origin only', () => {
    const frame = framedPage('');
    expect(frame.posted).toEqual([{ message: { type: 'marquee:ready', version: 1 }, origin: APP }]);
  });

  it('hands each item from the editor to subscribers, the last one at once to a late subscriber', () => {
    const frame = framedPage('');
    const seen: unknown[] = [];
    const stop = frame.page.marqueePreview.subscribe((item) => seen.push(item));
    send(frame, { type: 'marquee:item', item: ITEM });
    expect(seen).toEqual([ITEM]);
    const late: unknown[] = [];
    frame.page.marqueePreview.subscribe((item) => late.push(item));
    expect(late).toEqual([ITEM]);
    stop();
    send(frame, { type: 'marquee:item', item: { ...ITEM, data: { title: 'Summer' } } });
    expect(seen).toHaveLength(1);
    expect(late).toHaveLength(2);
  });

  it('ignores messages from any other origin or window', () => {
    const frame = framedPage('');
    const seen: unknown[] = [];
    frame.page.marqueePreview.subscribe((item) => seen.push(item));
    send(frame, { type: 'marquee:item', item: ITEM }, 'http://evil.test');
    send(frame, { type: 'marquee:item', item: ITEM }, APP, frame.page);
    send(frame, 'marquee:item');
    expect(seen).toEqual([]);
  });

  it('builds edit attributes from the editor’s edit info, for paths it names and paths below them', () => {
    const { marqueePreview } = framedPage('').page;
    expect(marqueePreview.edit(ITEM, 'title')).toEqual({ 'data-marquee-edit': 'acme:landing-page:p1:title' });
    expect(marqueePreview.edit(ITEM, 'blocks.3.title')).toEqual({
      'data-marquee-edit': 'acme:landing-page:p1:blocks.3.title',
    });
    expect(marqueePreview.attrs({ ...ITEM, _editInfo: { a: 'w:s:"x":a' } }, 'a')).toBe(
      'data-marquee-edit="w:s:&quot;x&quot;:a"',
    );
  });

  it('builds them from the script tag’s workspace without edit info', () => {
    const { marqueePreview } = framedPage(
      '',
      `data-marquee-origin="${APP}" data-marquee-workspace="acme"`,
    ).page;
    expect(marqueePreview.attrs({ id: 'p1', schema: 'page' }, 'body')).toBe(
      'data-marquee-edit="acme:page:p1:body"',
    );
  });

  it('asks the editor to edit a marked element clicked in the pane, and outlines it on hover', () => {
    const frame = framedPage(
      '<main><p id="plain">Plain</p><a href="/elsewhere" data-marquee-edit="acme:landing-page:p1:blocks.1.text"><span id="inner">Go</span></a></main>',
    );
    const inner = frame.page.document.getElementById('inner')!;
    // Before the editor speaks, the page is an ordinary page.
    inner.dispatchEvent(new frame.page.MouseEvent('mouseover', { bubbles: true }));
    expect(frame.page.document.querySelector('[data-marquee-outline]')).toBeNull();

    send(frame, { type: 'marquee:item', item: ITEM });
    inner.dispatchEvent(new frame.page.MouseEvent('mouseover', { bubbles: true }));
    const outline = frame.page.document.querySelector<HTMLElement>('[data-marquee-outline]')!;
    expect(outline.style.display).toBe('block');
    expect(outline.getAttribute('aria-hidden')).toBe('true');

    const click = new frame.page.MouseEvent('click', { bubbles: true, cancelable: true });
    inner.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    expect(frame.posted.at(-1)).toEqual({
      message: { type: 'marquee:edit', path: 'blocks.1.text', schema: 'landing-page', id: 'p1' },
      origin: APP,
    });

    frame.page.document
      .getElementById('plain')!
      .dispatchEvent(new frame.page.MouseEvent('mouseover', { bubbles: true }));
    expect(outline.style.display).toBe('none');
    const plainClick = new frame.page.MouseEvent('click', { bubbles: true, cancelable: true });
    frame.page.document.getElementById('plain')!.dispatchEvent(plainClick);
    expect(plainClick.defaultPrevented).toBe(false);
    expect(frame.posted).toHaveLength(2);
  });

  it('reads the token from the page URL', () => {
    expect(framedPage('', undefined, 'previewToken=mqp_abc&x=1').page.marqueePreview.token()).toBe('mqp_abc');
    expect(framedPage('').page.marqueePreview.token()).toBeNull();
  });

  it('holds no eval, no Function and no string timers', () => {
    expect(SOURCE).not.toMatch(/\beval\(|new Function|setTimeout\(['"`]|innerHTML/);
  });
});

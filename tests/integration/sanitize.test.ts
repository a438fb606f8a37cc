import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { createWorkspace } from '../factories/workspaces';
import { XSS_PAYLOADS } from '../fixtures/xss-payloads';

let t: TestApp;
let owner: TestUser;
let outsider: TestUser;
const ws = 'media-sanitize';
beforeAll(async () => {
  t = await createTestApp();
  owner = await verifiedUser(t, { name: 'Sara Sanitize' });
  outsider = await verifiedUser(t, { name: 'Omar Outsider' });
  expect((await createWorkspace(t.app, owner, 'Media Sanitize')).id).toBe(ws);
});
afterAll(() => t.close());

const sanitize = (payload: object, user: TestUser | null = owner, workspace = ws) =>
  t.app.inject({
    method: 'POST',
    url: `/fun/sanitizeHtml/?__marquee_workspace=${workspace}`,
    headers: user?.auth ?? {},
    payload,
  });
const clean = async (html: string) => {
  const res = await sanitize({ schemaType: 'blog-post', field: 'body', html });
  expect(res.statusCode).toBe(200);
  return res.json().sanitized as string;
};

const ALLOWED: Record<string, string[]> = {
  a: ['href', 'title', 'target', 'rel', 'data-ref-id', 'data-ref-schema-type'],
  img: ['src', 'alt', 'title', 'width', 'height', 'data-ref-id', 'data-ref-schema-type'],
  ol: ['start'],
  th: ['colspan', 'rowspan', 'colwidth'],
  td: ['colspan', 'rowspan', 'colwidth'],
  col: ['span'],
  code: ['class'],
  pre: ['class'],
};
const TAGS = new Set(
  'h1 h2 h3 h4 h5 h6 p br hr strong b em i u s strike del ins sub sup mark small span blockquote code pre ul ol li figure figcaption table thead tbody tfoot tr th td caption colgroup col a img'.split(
    ' ',
  ),
);

function decodeEntities(value: string) {
  return value
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);?/g, (_, dec) => String.fromCodePoint(Number(dec)))
    .replace(/&colon;/gi, ':')
    .replace(/&tab;/gi, '\t')
    .replace(/&newline;/gi, '\n')
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Every tag and attribute of the output is on the allow-list, and every URL is harmless. */
function expectHarmless(output: string) {
  for (const [, name, attrs] of output.matchAll(/<\/?([a-zA-Z0-9]+)([^>]*?)\s*\/?>/g)) {
    expect(TAGS.has(name.toLowerCase()), `tag <${name}> in ${output}`).toBe(true);
    for (const [, attr, raw] of attrs.matchAll(/\s([^\s=]+)(?:="([^"]*)")?/g)) {
      expect(ALLOWED[name]?.includes(attr), `attribute ${attr} on <${name}> in ${output}`).toBe(true);
      const value = decodeEntities(raw ?? '')
        // eslint-disable-next-line no-control-regex
        .replace(/[\u0000-\u0020]+/g, '')
        .toLowerCase();
      if (attr === 'href') expect(value, `href in ${output}`).toMatch(/^(https?:|mailto:|\/(?!\/)|#|[^:]*$)/);
      if (attr === 'src')
        expect(value, `src in ${output}`).toMatch(
          /^\/(api\/v1\/workspaces\/media-sanitize\/files\/|fun\/imageresize\/\?)/,
        );
    }
  }
  const lowered = decodeEntities(output).toLowerCase();
  expect(lowered).not.toMatch(
    /<script|<iframe|<object|<embed|<svg|<math|<style|<link|<meta|<base|<form|\sstyle=|\son[a-z]+=/,
  );
}

const OWN_IMAGE = `/api/v1/workspaces/${ws}/files/AAAAAAAAAAAAAAAAAAAAAAAA.png`;
const OWN_THUMB = `/fun/imageResize/?id=AAAAAAAAAAAAAAAAAAAAAAAA.png&amp;w=600&amp;__marquee_workspace=${ws}`;

describe('POST /fun/sanitizeHtml/ against XSS', () => {
  it(`has a cheat-sheet list of at least 50 payloads (${XSS_PAYLOADS.length})`, () => {
    expect(XSS_PAYLOADS.length).toBeGreaterThanOrEqual(50);
  });

  it.each(XSS_PAYLOADS.map((payload, index) => [index + 1, payload]))(
    'payload %i leaves nothing that runs',
    async (_n, payload) => {
      if ((payload as string).includes('\u0000')) {
        // Text holding NUL never reaches the sanitiser: the edge refuses it.
        const res = await sanitize({ schemaType: 'blog-post', field: 'body', html: payload as string });
        expect(res.statusCode).toBe(400);
        return;
      }
      const output = await clean(payload as string);
      expectHarmless(output);
      // Sanitising is stable: the output is its own sanitised form.
      expect(await clean(output)).toBe(output);
    },
  );

  it('keeps the harmless text around a removed payload', async () => {
    expect(await clean('<p>Hello <script>alert(1)</script>world</p>')).toBe('<p>Hello world</p>');
    expect(await clean('<a href="javascript:alert(1)" onclick="x()">click</a>')).toBe('<a>click</a>');
  });
});

describe('POST /fun/sanitizeHtml/ keeps rich text', () => {
  it('keeps headings, lists, quotes, code, tables and safe links', async () => {
    const html =
      '<h2>Title</h2><p><strong>Bold</strong> <em>it</em> <u>u</u> <s>s</s> <code>x</code></p>' +
      '<ul><li><p>one</p></li></ul><ol start="3"><li>three</li></ol><blockquote><p>quote</p></blockquote>' +
      '<pre><code class="language-typescript">const a = 1;</code></pre>' +
      '<table><tbody><tr><th colspan="2">h</th></tr><tr><td>a</td><td rowspan="1">b</td></tr></tbody></table>' +
      '<p><a href="https://example.com/x?a=1&amp;b=2">web</a> <a href="mailto:hi@example.com">mail</a> <a href="/relative">rel</a></p><hr>';
    expect(await clean(html)).toBe(html.replace('<hr>', '<hr />'));
  });

  it('adds rel to links opening a new tab and drops unknown targets', async () => {
    expect(await clean('<a href="https://example.com" target="_blank" rel="opener">x</a>')).toBe(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer">x</a>',
    );
    expect(await clean('<a href="https://example.com" target="_top">x</a>')).toBe(
      '<a href="https://example.com">x</a>',
    );
  });

  it("keeps inline images of this workspace's files with their data-ref attributes, drops all others", async () => {
    const own = `<img src="${OWN_IMAGE}" alt="Hero" width="600" data-ref-id="img-1" data-ref-schema-type="marquee-assets-image-set" />`;
    expect(await clean(own)).toBe(own);
    const thumb = `<img src="${OWN_THUMB}" alt="Thumb" />`;
    expect(await clean(thumb)).toBe(thumb);
    const absolute = `<img src="http://marquee.test${OWN_IMAGE}" alt="abs" />`;
    expect(await clean(absolute)).toBe(absolute);
    expect(await clean('<p>a<img src="https://cdn.example.com/x.png" />b</p>')).toBe('<p>ab</p>');
    expect(await clean(`<img src="${OWN_IMAGE.replace(ws, 'another-ws')}" />`)).toBe('');
    expect(await clean(`<img src="${OWN_IMAGE}?x=1" />`)).toBe('');
  });
});

describe('POST /fun/sanitizeHtml/ requests', () => {
  it('answers 400 for unknown schemas and fields and for fields that hold no HTML', async () => {
    const cases = [
      [{ schemaType: 'nope', field: 'body', html: '' }, 'Unknown schema "nope"'],
      [{ schemaType: 'blog-post', field: 'nope', html: '' }, 'Schema "blog-post" has no field "nope"'],
      [
        { schemaType: 'blog-post', field: 'name', html: '' },
        'Field "name" of "blog-post" is not a rich-text field',
      ],
      [{ schemaType: 'blog-post', field: 'body' }, 'html: html must be a string'],
      [{ field: 'body', html: '' }, 'schemaType: schemaType is required'],
    ] as const;
    for (const [payload, message] of cases) {
      const res = await sanitize(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe(message);
    }
    const noWorkspace = await t.app.inject({
      method: 'POST',
      url: '/fun/sanitizeHtml/',
      headers: owner.auth,
      payload: { schemaType: 'blog-post', field: 'body', html: '' },
    });
    expect(noWorkspace.statusCode).toBe(400);
    expect(noWorkspace.json().error.message).toBe('__marquee_workspace: __marquee_workspace is required');
  });

  it('answers 401 to anonymous callers and 404 to non-members', async () => {
    const payload = { schemaType: 'blog-post', field: 'body', html: '<p>x</p>' };
    expect((await sanitize(payload, null)).statusCode).toBe(401);
    const other = await sanitize(payload, outsider);
    expect(other.statusCode).toBe(404);
    expect(other.json().error.message).toBe('Workspace not found');
  });
});

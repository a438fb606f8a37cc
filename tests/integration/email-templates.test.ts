import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { call, createItem, itemUrl, itemsUrl, saveItem } from '../factories/items';
import { createWorkspace, patchWorkspace } from '../factories/workspaces';
import { XSS_PAYLOADS } from '../fixtures/xss-payloads';

let t: TestApp;
let owner: TestUser;
let ws: string;
beforeAll(async () => {
  t = await createTestApp();
  owner = await verifiedUser(t, { name: 'Erin Email' });
  ws = (await createWorkspace(t.app, owner, 'Email Templates')).id;
  const res = await patchWorkspace(t.app, owner, ws, { basics: { domains: ['marketing', 'assets'] } });
  expect(res.statusCode).toBe(200);
});
afterAll(() => t.close());

type Template = Record<string, unknown> & {
  'gjs-nl-html': string;
  'gjs-nl-css': string;
  combinedMarkup: string;
};

const emailData = (template: Record<string, unknown>) => ({
  name: 'Spring newsletter',
  subject: 'Hello {{first-name|friend}}',
  template,
});

async function saveTemplate(template: Record<string, unknown>): Promise<Template> {
  const item = await createItem(t, owner, ws, 'email', emailData(template));
  return item.data.template as Template;
}

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

const FORBIDDEN_TAGS =
  /^(script|iframe|object|embed|svg|math|link|meta|base|form|input|button|frame|frameset|applet|body|bgsound|style|textarea|select|video|audio)$/;

/** Nothing in the markup can run: no script-bearing tag, handler, script URL or script-loading CSS. */
function expectHarmless(markup: string) {
  // A <style> survives only as the start of combinedMarkup, holding @media rules.
  const media = /^<style>(@media[^<]*)<\/style>/.exec(markup);
  if (media) expect(media[1]).not.toMatch(/url\(|expression|javascript|behavior|binding|@import/i);
  const body = media ? markup.slice(media[0].length) : markup;
  for (const [, name, attrs] of body.matchAll(/<\/?([a-zA-Z0-9]+)([^>]*?)\s*\/?>/g)) {
    expect(FORBIDDEN_TAGS.test(name.toLowerCase()), `tag <${name}> in ${markup}`).toBe(false);
    for (const [, attr, raw] of attrs.matchAll(/\s([^\s=]+)(?:="([^"]*)")?/g)) {
      expect(attr.toLowerCase(), `attribute ${attr} in ${markup}`).not.toMatch(/^on/);
      const value = decodeEntities(raw ?? '')
        // eslint-disable-next-line no-control-regex
        .replace(/[\u0000-\u0020]+/g, '')
        .toLowerCase();
      if (['href', 'src', 'background'].includes(attr))
        expect(value, `${attr} in ${markup}`).toMatch(
          /^(https?:|mailto:|tel:|#|\/(?!\/)|\{\{|data:image\/(png|jpe?g|gif|webp);base64,)/,
        );
      if (attr === 'style')
        expect(value, `style in ${markup}`).not.toMatch(
          /url\((?!https?:|\/)|expression|javascript|behavior|binding/,
        );
    }
  }
  expect(body).not.toMatch(/<(?![a-zA-Z/])/);
}

describe('email template sanitising on save', () => {
  it(`removes everything that runs from ${XSS_PAYLOADS.length} payloads, in the HTML and the combined markup`, async () => {
    for (const payload of XSS_PAYLOADS) {
      // Text holding NUL never reaches the sanitiser: the edge refuses it.
      if (payload.includes('\u0000')) continue;
      const template = await saveTemplate({
        'gjs-nl-html': `<table><tr><td>${payload}</td></tr></table>`,
        'gjs-nl-css': '',
        combinedMarkup: payload,
      });
      expectHarmless(template['gjs-nl-html']);
      expectHarmless(template.combinedMarkup);
    }
  });

  it('removes script from the style sheet and from inline styles', async () => {
    const template = await saveTemplate({
      'gjs-nl-html':
        '<div id="a" style="color:red;background:url(javascript:alert(1));width:expression(alert(1))">x</div><style>*{x:y}</style>',
      'gjs-nl-css':
        '@import url(https://evil.example/x.css);#a{color:blue;behavior:url(x.htc);-moz-binding:url(x.xml)}' +
        '.b{background-image:url("javascript:alert(1)")}.c{background-image:url(https://cdn.example/bg.png)}' +
        '</style><script>alert(1)</script>{}',
    });
    expect(template['gjs-nl-html']).toBe('<div id="a" style="color:red">x</div>');
    expect(template['gjs-nl-css']).not.toMatch(/import|behavior|binding|javascript|script/i);
    expect(template['gjs-nl-css']).toContain('background-image:url(https://cdn.example/bg.png)');
    expectHarmless(template.combinedMarkup);
  });

  it('cleans the GrapesJS project data: component scripts, handlers, forbidden tags and unsafe assets', async () => {
    const template = await saveTemplate({
      'gjs-nl-html': '<p>Hi</p>',
      'gjs-nl-css': '',
      'gjs-nl-components': [
        {
          tagName: 'table',
          attributes: { id: 't1', onclick: 'alert(1)', background: 'javascript:alert(1)' },
          script: 'alert(1)',
          components: [
            { type: 'text', content: '<b onmouseover="alert(1)">Hello</b><script>alert(2)</script>' },
            { tagName: 'script', content: 'alert(3)' },
            { type: 'iframe', src: 'https://evil.example' },
            { type: 'image', src: 'javascript:alert(4)', attributes: { src: 'data:text/html,<script>' } },
            {
              type: 'link',
              attributes: { href: 'https://example.com/ok', style: 'color:red;x:expression(1)' },
            },
          ],
        },
      ],
      'gjs-nl-styles': [
        { selectors: ['#t1'], style: { color: 'red', background: 'url(javascript:alert(1))' } },
        { atRuleType: 'import', style: {} },
        { selectors: ['</style><script>'], style: { color: 'red' } },
      ],
      'gjs-nl-assets': [
        'https://cdn.example/a.png',
        { src: 'javascript:alert(1)' },
        { src: 'data:image/svg+xml;base64,PHN2Zz4=' },
      ],
    });
    const components = JSON.stringify(template['gjs-nl-components']);
    expect(components).not.toMatch(/onclick|onmouseover|script|iframe|javascript|expression|data:text/i);
    expect(template['gjs-nl-components']).toEqual([
      {
        tagName: 'table',
        attributes: { id: 't1' },
        components: [
          { type: 'text', content: '<b>Hello</b>' },
          { type: 'image', attributes: {} },
          { type: 'link', attributes: { href: 'https://example.com/ok', style: 'color:red' } },
        ],
      },
    ]);
    expect(template['gjs-nl-styles']).toEqual([{ selectors: ['#t1'], style: { color: 'red' } }]);
    expect(template['gjs-nl-assets']).toEqual([{ src: 'https://cdn.example/a.png' }]);
  });

  it('keeps a newsletter layout: tables, presentational attributes, inline styles, images and links', async () => {
    const html =
      '<table class="main-body" width="100%" cellpadding="0" cellspacing="0" bgcolor="#eeeeee">' +
      '<tbody><tr class="row"><td class="cell" align="center" valign="top" style="padding:10px 20px;font-family:Helvetica, Arial, sans-serif">' +
      '<h1 class="title">Spring {{first-name|friend}}</h1>' +
      '<img src="https://cdn.example/hero.png" alt="Hero" width="600" class="hero" />' +
      '<a href="https://example.com/offer?a=1&amp;b=2" class="button" target="_blank" rel="noopener noreferrer">Shop</a>' +
      '<img src="data:image/png;base64,iVBORw0KGgo=" alt="dot" />' +
      '</td></tr></tbody></table>';
    const template = await saveTemplate({ 'gjs-nl-html': html, 'gjs-nl-css': '' });
    expect(template['gjs-nl-html']).toBe(html);
  });

  it("keeps the Button block's bare link to # in the HTML, the project data, the markup and the preview", async () => {
    // The editor's Button block is a link to '#' until the user gives it a URL; it must stay a button.
    const button = '<a href="#" id="ib7x">Button</a>';
    const components = [{ type: 'link', content: 'Button', attributes: { id: 'ib7x', href: '#' } }];
    const item = await createItem(
      t,
      owner,
      ws,
      'email',
      emailData({
        'gjs-nl-html': `<table><tbody><tr><td>${button}<a href="#">Bare</a></td></tr></tbody></table>`,
        'gjs-nl-css': '#ib7x{display:inline-block;padding:12px 24px;background-color:#228be6;color:#ffffff}',
        'gjs-nl-components': components,
      }),
    );
    const template = item.data.template as Template;
    expect(template['gjs-nl-html']).toContain(button);
    expect(template['gjs-nl-html']).toContain('<a href="#">Bare</a>');
    expect(template['gjs-nl-components']).toEqual(components);
    expect(template.combinedMarkup).toMatch(
      /<a href="#" id="ib7x" style="display:inline-block;[^"]*">Button<\/a>/,
    );
    const preview = await call(t, 'GET', `/api/v1/workspaces/${ws}/emails/${item.id}/preview`, owner);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().html).toMatch(/<a href="#" id="ib7x"[^>]*>Button<\/a>/);
    expect(preview.json().html).toContain('<a href="#">Bare</a>');
  });

  it('builds combinedMarkup on the server with the CSS inlined and own images made absolute', async () => {
    const own = `/api/v1/workspaces/${ws}/files/AAAAAAAAAAAAAAAAAAAAAAAA.png`;
    const template = await saveTemplate({
      'gjs-nl-html': `<table class="container"><tr><td class="cell"><p id="intro">Hi</p><img src="${own}" alt="logo"/></td></tr></table>`,
      'gjs-nl-css':
        '.container{width:600px;background-color:#ffffff}.cell{padding:20px}#intro{color:#333333;font-size:16px}' +
        '@media (max-width: 768px){.container{width:100% !important}}',
      combinedMarkup: '<p>what the client claims</p>',
    });
    const markup = template.combinedMarkup;
    expect(markup).not.toContain('what the client claims');
    expect(markup).toMatch(/<table class="container"[^>]*style="width:600px;background-color:#ffffff"/);
    expect(markup).toMatch(/<td class="cell"[^>]*style="padding:20px"/);
    expect(markup).toContain('<p id="intro" style="color:#333333;font-size:16px">Hi</p>');
    expect(markup).toContain(`src="http://marquee.test${own}"`);
    expect(markup.startsWith('<style>@media (max-width: 768px)')).toBe(true);
    expect(markup).toContain('width:100% !important');
  });

  it('sanitises on update too, and keeps plain-text subject and body as typed', async () => {
    const item = await createItem(
      t,
      owner,
      ws,
      'email',
      emailData({ 'gjs-nl-html': '<p>ok</p>', 'gjs-nl-css': '' }),
    );
    const saved = await saveItem(
      t,
      owner,
      ws,
      'email',
      item.id,
      {
        ...emailData({ 'gjs-nl-html': '<p onclick="x()">ok</p><script>1</script>', 'gjs-nl-css': '' }),
        textBody: 'Hi <there> & welcome',
      },
      item.version,
    );
    const template = saved.data.template as Template;
    expect(template['gjs-nl-html']).toBe('<p>ok</p>');
    expect(template.combinedMarkup).toBe('<p>ok</p>');
    expect(saved.data.textBody).toBe('Hi <there> & welcome');
    const stored = await call(t, 'GET', itemUrl(ws, 'email', item.id), owner);
    expect(stored.json().data.template['gjs-nl-html']).toBe('<p>ok</p>');
  });

  it('refuses a template that is not the spec shape, naming the field', async () => {
    const res = await call(t, 'POST', itemsUrl(ws, 'email'), owner, {
      data: emailData({ 'gjs-nl-html': 5 }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/^data\.template\.gjs-nl-html/);
  });
});

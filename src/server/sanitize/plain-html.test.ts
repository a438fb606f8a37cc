import fc from 'fast-check';
import sanitizeHtml from 'sanitize-html';
import { isPlainRichText } from './plain-html';
import { richTextPolicy } from './rich-text';
import { TEXT } from './tags';

const sanitised = (html: string) => sanitizeHtml(html, richTextPolicy({ workspaceId: 'acme' }));

const text = fc.string({
  unit: fc.constantFrom(
    'a',
    ' ',
    '\n',
    '\r',
    '\t',
    "'",
    '"',
    '=',
    '/',
    '\u00a0',
    '\u0000',
    'é',
    '😀',
    '<',
    '>',
    '&',
    ';',
  ),
});
const inlineTag = fc.constantFrom(...TEXT, 'code', 'a', 'img', 'P', 'script');
const blockTag = fc.constantFrom('p', 'h2', 'h6', 'blockquote', 'ul', 'ol', 'li', 'pre', 'table', 'div');

/** Markup close to what the fast path takes: its tags and their neighbours, nested well or badly. */
const markup: fc.Arbitrary<string> = fc.letrec<{ node: string; nodes: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    fc.constant('<br />'),
    fc.constant('<br>'),
    fc.constant('&amp;'),
    fc
      .tuple(fc.oneof(inlineTag, blockTag), tie('nodes'), fc.boolean())
      .map(([tag, inner, closed]) => `<${tag}>${inner}${closed ? `</${tag}>` : ''}`),
    fc
      .tuple(fc.oneof(inlineTag, blockTag), fc.constantFrom(' class="x"', ' onclick="y()"', ' href="#"'))
      .map(([tag, attribute]) => `<${tag}${attribute}>x</${tag}>`),
    fc.oneof(inlineTag, blockTag).map((tag) => `</${tag}>`),
  ),
  nodes: fc.array(tie('node'), { maxLength: 4 }).map((parts) => parts.join('')),
})).nodes;

describe('isPlainRichText', () => {
  it('takes only rich text the sanitiser answers as it is', () => {
    let plain = 0;
    fc.assert(
      fc.property(markup, (html) => {
        if (!isPlainRichText(html)) return;
        plain++;
        expect(sanitised(html)).toBe(html);
      }),
      { numRuns: 5000 },
    );
    // The generator must reach the fast path often, or the property says little.
    expect(plain).toBeGreaterThan(1000);
  });

  it('takes what the editor writes', () => {
    for (const html of [
      '',
      '<p>Written by the benchmark.</p>',
      '<h2>Title</h2>\n<p>One <strong>bold</strong> and <em>it\'s "quoted"</em>.<br />Next</p>',
      '<ul><li>one</li>\n<li><p>two</p><ol><li>three</li></ol></li></ul><blockquote><p>q</p></blockquote>',
    ]) {
      expect(isPlainRichText(html)).toBe(true);
      expect(sanitised(html)).toBe(html);
    }
  });

  it('leaves anything with attributes, entities, stray brackets or odd nesting to the sanitiser', () => {
    for (const html of [
      '<p onclick="x()">Hi</p>',
      '<p>a &amp; b</p>',
      '<p>a > b</p>',
      '<p>x<br>y</p>',
      '<p><p>x</p></p>',
      '<p>a</P>',
      '<p>open',
      '<strong><p>x</p></strong>',
      '<ul>text<li>x</li></ul>',
      '<li>x</li>',
      '<script>alert(1)</script>',
      '<a href="https://x.test">x</a>',
    ])
      expect(isPlainRichText(html)).toBe(false);
  });
});

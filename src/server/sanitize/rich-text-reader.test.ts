import fc from 'fast-check';
import { isPlainRichText } from './plain-html';
import { parsedWords, referencesInRichText, richTextWords } from './rich-text-reader';

const IMG = '/api/v1/workspaces/acme/files/AbCdEfGhIjKlMnOpQrStUvWx.png';

describe('referencesInRichText', () => {
  it('lists the data-ref references of inline images and links', () => {
    const html =
      `<p><img src="${IMG}" alt=" Beach at dawn " data-ref-id="set-1" data-ref-schema-type="marquee-assets-image-set" />` +
      '<a href="/acme/blogging/blog-post/p-2" data-ref-id="p-2" data-ref-schema-type="blog-post">see</a>' +
      `<img src="${IMG}" /></p>`;
    expect(referencesInRichText(html)).toEqual([
      {
        id: 'set-1',
        schemaType: 'marquee-assets-image-set',
        label: 'Beach at dawn',
        thumbId: 'AbCdEfGhIjKlMnOpQrStUvWx.png',
      },
      { id: 'p-2', schemaType: 'blog-post', label: 'see' },
    ]);
  });

  it('finds references whatever the case of their attribute names, and none in text without them', () => {
    const html = '<p><A HREF="/x" DATA-REF-ID="p-3" Data-Ref-Schema-Type="blog-post">more</A></p>';
    expect(referencesInRichText(html)).toEqual([{ id: 'p-3', schemaType: 'blog-post', label: 'more' }]);
    expect(referencesInRichText('<p>data-ref is only text here, <a href="/y">a link</a></p>')).toEqual([]);
  });
});

describe('richTextWords', () => {
  it('reads the text, never the tags or attributes', () => {
    const html =
      '<p class="lead">Our <span>autumn</span> <a href="https://shop.example/span">collection</a></p>' +
      `<p><img src="${IMG}" alt="span"></p>`;
    expect(richTextWords(html)).toBe('Our autumn collection');
  });

  it('keeps blocks apart and inline markup together', () => {
    expect(
      richTextWords('<h2>Sale</h2><p>Sum<strong>mer</strong> prices</p><ul><li>one</li><li>two</li></ul>'),
    ).toBe('Sale Summer prices one two');
    expect(richTextWords('<p>first line<br>second line</p>')).toBe('first line second line');
  });

  it('decodes character references, and leaves text that reads like markup as text', () => {
    expect(richTextWords('<p>Fish &amp; chips &lt;b&gt; &eacute;t&#233; &nbsp;x</p>')).toBe(
      'Fish & chips <b> été x',
    );
    expect(richTextWords('<p>&amp;lt;</p>')).toBe('&lt;');
    expect(richTextWords('plain  words')).toBe('plain words');
  });

  it('drops what a browser never shows as text', () => {
    expect(richTextWords('<p>Hi</p><script>alert("span")</script><style>p{}</style>')).toBe('Hi');
  });
});

describe('richTextWords of plain rich text', () => {
  const words = fc.string({ unit: fc.constantFrom('a', 'B', ' ', '\n', '\t', "'", '"', 'é', '=') });
  const inline = fc.letrec<{ run: string }>((tie) => ({
    run: fc
      .array(
        fc.oneof(
          { depthSize: 'small' },
          words,
          fc.constant('<br />'),
          fc
            .tuple(fc.constantFrom('strong', 'em', 'code', 'span', 'sub'), tie('run'))
            .map(([tag, inner]) => `<${tag}>${inner}</${tag}>`),
        ),
        { maxLength: 4 },
      )
      .map((parts) => parts.join('')),
  })).run;
  const block = fc.oneof(
    fc
      .tuple(fc.constantFrom('p', 'h2', 'blockquote'), inline)
      .map(([tag, inner]) => `<${tag}>${inner}</${tag}>`),
    fc
      .array(inline, { minLength: 1, maxLength: 3 })
      .map((items) => `<ul>${items.map((item) => `<li>${item}</li>`).join('\n')}</ul>`),
  );
  const plain = fc.array(block, { maxLength: 4 }).map((blocks) => blocks.join(''));

  it('reads the same words as the parser', () => {
    fc.assert(
      fc.property(plain, (html) => {
        expect(isPlainRichText(html)).toBe(true);
        expect(richTextWords(html)).toBe(parsedWords(html));
      }),
      { numRuns: 2000 },
    );
  });
});

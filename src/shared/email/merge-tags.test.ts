import fc from 'fast-check';
import { fillMergeTags, mergeTagText, mergeTagsIn } from './merge-tags';

describe('merge tags', () => {
  it('fills tags from the attributes, else their defaults, else nothing', () => {
    const text = 'Hi {{first-name|friend}}, your tier is {{ tier }}.{{missing}} See {{city | your city}}';
    expect(fillMergeTags(text, { 'first-name': 'Ada', tier: 'gold' })).toBe(
      'Hi Ada, your tier is gold. See your city',
    );
    expect(fillMergeTags(text, {})).toBe('Hi friend, your tier is . See your city');
  });

  it('escapes values for HTML and never reads inherited properties', () => {
    expect(fillMergeTags('<b>{{name}}</b>', { name: '<script>"x"&' }, { html: true })).toBe(
      '<b>&lt;script&gt;&quot;x&quot;&amp;</b>',
    );
    expect(fillMergeTags('{{constructor|none}} {{__proto__|p}}', {})).toBe('none p');
  });

  it('fills a URL attribute only with a URL of an allowed scheme, else drops the attribute', () => {
    // Broke: a value of javascript:… or data:… became the link's target as it was.
    const html = (value: string) =>
      fillMergeTags('<a href="{{u}}" title="{{u}}">x</a><img src="{{u}}">', { u: value }, { html: true });
    for (const value of [
      'javascript:alert(1)',
      ' JaVaScRiPt:alert(1)',
      'java\tscript:alert(1)',
      '\u0001javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:x',
    ]) {
      expect(html(value), value).not.toMatch(/href=|src=/);
    }
    expect(html('https://a.test/?q=1&r="2"')).toBe(
      '<a href="https://a.test/?q=1&amp;r=&quot;2&quot;" title="https://a.test/?q=1&amp;r=&quot;2&quot;">x</a>' +
        '<img src="https://a.test/?q=1&amp;r=&quot;2&quot;">',
    );
    expect(html('mailto:a@b.test')).toBe('<a href="mailto:a@b.test" title="mailto:a@b.test">x</a><img>');
    // A value cannot spell another merge tag, nor anything where an attribute's name goes.
    expect(
      fillMergeTags('<a href="https://a.test/{{u}}">', { u: '{{email}}', email: 'e' }, { html: true }),
    ).toBe('<a href="https://a.test/&#123;&#123;email&#125;&#125;">');
    expect(fillMergeTags('<a {{u}}>x</a>', { u: 'onclick=alert(1)' }, { html: true })).toBe('<a >x</a>');
  });

  it('lists the tags a text uses, once each', () => {
    expect(mergeTagsIn('{{a}} {{b|x}} {{a|y}}')).toEqual([{ key: 'a' }, { key: 'b', defaultValue: 'x' }]);
    expect(mergeTagText('first-name', 'friend')).toBe('{{first-name|friend}}');
  });

  it('writes a tag with a default that the filling reads back', () => {
    expect(mergeTagText('first-name', '  ')).toBe('{{first-name}}');
    expect(mergeTagText('first-name', ' {dear}  reader ')).toBe('{{first-name|dear reader}}');
    const tag = mergeTagText('first-name', 'there');
    expect(fillMergeTags(`Hi ${tag},`, {})).toBe('Hi there,');
    expect(fillMergeTags(`<p>Hi ${tag},</p>`, {}, { html: true })).toBe('<p>Hi there,</p>');
    expect(fillMergeTags(`Hi ${tag},`, { 'first-name': 'Ada' })).toBe('Hi Ada,');
  });

  it('leaves text without tags as it is, and a filled text has no tags left', () => {
    fc.assert(
      fc.property(fc.string(), fc.dictionary(fc.string(), fc.string()), (text, attrs) => {
        const filled = fillMergeTags(text, attrs);
        if (mergeTagsIn(text).length === 0) expect(filled).toBe(text);
      }),
    );
    fc.assert(
      fc.property(fc.constantFrom('a', 'b-c', 'd_e'), fc.string({ maxLength: 5 }), (key, value) => {
        const clean = value.replace(/[{}]/g, '');
        expect(mergeTagsIn(fillMergeTags(`x {{${key}}} y`, { [key]: clean }))).toEqual([]);
      }),
    );
  });
});

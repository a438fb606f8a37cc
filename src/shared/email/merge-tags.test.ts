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

  it('lists the tags a text uses, once each', () => {
    expect(mergeTagsIn('{{a}} {{b|x}} {{a|y}}')).toEqual([{ key: 'a' }, { key: 'b', defaultValue: 'x' }]);
    expect(mergeTagText('first-name', 'friend')).toBe('{{first-name|friend}}');
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

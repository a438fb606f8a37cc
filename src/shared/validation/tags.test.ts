import fc from 'fast-check';
import { dedupeTags } from './tags';

describe('dedupeTags', () => {
  it('removes duplicates and blanks, keeping first order', () => {
    expect(dedupeTags(['news', ' news ', '', 'sport', 'News', 'sport'])).toEqual(['news', 'sport', 'News']);
  });

  it('is idempotent, duplicate-free and keeps every non-blank entry', () => {
    fc.assert(
      fc.property(fc.array(fc.string()), (tags) => {
        const result = dedupeTags(tags);
        expect(dedupeTags(result)).toEqual(result);
        expect(new Set(result).size).toBe(result.length);
        for (const tag of tags) if (tag.trim()) expect(result).toContain(tag.trim());
      }),
    );
  });
});

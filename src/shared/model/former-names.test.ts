import { describe, expect, it } from 'vitest';
import { formerNamesIn } from './former-names';
import type { ModelOp } from './types';

const rename = (from: string, to: string, schema = 'blog-post'): ModelOp => ({
  op: 'renameField',
  schema,
  from,
  to,
});

describe('formerNamesIn', () => {
  it('names what a renamed field was called before each rename, oldest first', () => {
    const names = formerNamesIn(
      [
        { version: 5, ops: [rename('writer', 'byline')] },
        { version: 2, ops: [rename('author', 'writer')] },
      ],
      'blog-post',
      ['byline', 'name'],
    );
    expect(names.get('byline')).toEqual([
      { until: 2, name: 'author' },
      { until: 5, name: 'writer' },
    ]);
    expect(names.has('author')).toBe(false);
  });

  it('reads the renames of one change in order, and leaves other schemas, block types and table columns alone', () => {
    const names = formerNamesIn(
      [
        {
          version: 3,
          ops: [
            rename('author', 'writer'),
            rename('writer', 'byline'),
            rename('title', 'heading', 'page'),
            { op: 'renameField', blockType: 'hero', from: 'title', to: 'heading' },
            { op: 'renameField', schema: 'blog-post', table: 'prices', from: 'label', to: 'name' },
          ],
        },
      ],
      'blog-post',
      ['byline', 'name'],
    );
    expect([...names]).toEqual([['byline', [{ until: 3, name: 'author' }]]]);
  });

  it('gives a field that took over a former name no value before it did', () => {
    // author → writer, then a new field takes the name author.
    const names = formerNamesIn([{ version: 4, ops: [rename('author', 'writer')] }], 'blog-post', [
      'writer',
      'author',
    ]);
    expect(names.get('writer')).toEqual([{ until: 4, name: 'author' }]);
    expect(names.get('author')).toEqual([{ until: 4, name: null }]);
  });

  it('follows a swap of two names and a rename undone by a revert', () => {
    const swapped = formerNamesIn(
      [{ version: 2, ops: [rename('a', 'tmp'), rename('b', 'a'), rename('tmp', 'b')] }],
      'blog-post',
      ['a', 'b'],
    );
    expect(swapped.get('a')).toEqual([{ until: 2, name: 'b' }]);
    expect(swapped.get('b')).toEqual([{ until: 2, name: 'a' }]);
    const reverted = formerNamesIn(
      [
        { version: 2, ops: [rename('author', 'writer')] },
        { version: 3, ops: [rename('writer', 'author')] },
      ],
      'blog-post',
      ['author'],
    );
    expect(reverted.get('author')).toEqual([
      { until: 2, name: 'author' },
      { until: 3, name: 'writer' },
    ]);
  });
});

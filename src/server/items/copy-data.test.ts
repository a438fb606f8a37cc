import type { SchemaType } from '@shared/schemas/types';
import { copyData } from './copy-data';

const schema: Pick<SchemaType, 'fields'> = {
  fields: [
    { key: 'title', label: 'Title', type: 'text' },
    { key: 'slug', label: 'Slug', type: 'name-slug', from: 'title' },
    { key: 'code', label: 'Code', type: 'name-slug', from: 'other' },
    { key: 'other', label: 'Other', type: 'text' },
    { key: 'token', label: 'Token', type: 'generatable', generateLength: 24 },
    { key: 'short', label: 'Short', type: 'generatable', generateLength: 6 },
    { key: 'connection', label: 'Connection', type: 'service-connection' },
  ],
};

describe('copyData', () => {
  it('marks the title, derives a following slug from it, and marks slugs that follow something else', () => {
    const data = { title: 'Launch', slug: 'launch', code: 'promo', other: 'Promo' };
    expect(copyData(schema, data, 1)).toMatchObject({
      title: 'Launch (copy)',
      slug: 'launch-copy',
      code: 'promo-copy',
    });
    expect(copyData(schema, data, 3)).toMatchObject({
      title: 'Launch (copy 3)',
      slug: 'launch-copy-3',
      code: 'promo-copy-3',
    });
  });

  it('generates generated values anew, keeps typed ones and leaves service connections out', () => {
    const data = {
      title: 'T',
      token: 'a'.repeat(24),
      short: 'abc',
      connection: { provider: 'facebook', encTokens: 'x' },
    };
    const copy = copyData(schema, data, 1);
    expect(copy.token).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(copy.token).not.toBe(data.token);
    expect(copy.short).toBe('abc');
    expect(copy).not.toHaveProperty('connection');
  });

  it('leaves an item without a title untitled', () => {
    expect(copyData(schema, { other: 'x' }, 1)).toEqual({ other: 'x' });
  });
});

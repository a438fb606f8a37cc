import type { FieldDef } from '../schemas/types';
import { isPreviewOrigin } from '../api/preview';
import { fillPreviewUrl, placeholdersOf, previewUrlProblems, renamePlaceholder } from './preview-urls';

const fields = [
  { key: 'slug', label: 'Slug', type: 'text' },
  { key: 'rank', label: 'Rank', type: 'number' },
] as FieldDef[];
const problems = (previewUrls: unknown) => [
  ...previewUrlProblems({ name: 'post', fields, previewUrls: previewUrls as string[] }),
];

describe('preview URL templates', () => {
  it('name fields of the schema, the locale or the id', () => {
    expect(placeholdersOf('https://e.com/{slug}?l={locale}&id={id}')).toEqual(['slug', 'locale', 'id']);
    expect(problems(undefined)).toEqual([]);
    expect(problems(['https://e.com/{slug}?l={locale}&id={id}', 'http://127.0.0.1:3000/p/{rank}'])).toEqual(
      [],
    );
    expect(problems(['https://e.com/{title}'])).toEqual([
      'Schema "post": preview URL placeholder "{title}" names no field of the schema (nor locale or id)',
    ]);
  });

  it('are absolute http(s) URLs, at most five of at most 2,000 characters', () => {
    expect(problems(['mailto:{slug}'])[0]).toContain('is not an absolute http or https URL');
    expect(problems(['/blog/{slug}'])[0]).toContain('is not an absolute http or https URL');
    expect(problems(['https://{slug}'])).toEqual([]);
    expect(problems(Array.from({ length: 6 }, () => 'https://e.com'))).toEqual([
      'Schema "post" has more than 5 preview URLs',
    ]);
    expect(problems([`https://e.com/${'a'.repeat(2000)}`])[0]).toContain('at most 2000 characters');
    expect(problems([42])[0]).toContain('must be text');
    expect(problems('https://e.com')).toEqual(['Schema "post": preview URLs must be a list']);
  });

  it('follow a renamed field and are filled for an item', () => {
    expect(renamePlaceholder('https://e.com/{slug}/{slugs}', 'slug', 'path')).toBe(
      'https://e.com/{path}/{slugs}',
    );
    const item = { id: 'a1', data: { slug: 'hello world', rank: 3, tags: ['x'] } };
    expect(fillPreviewUrl('https://e.com/{slug}/{rank}?l={locale}&id={id}&t={tags}', item, 'fr-FR')).toBe(
      'https://e.com/hello%20world/3?l=fr-FR&id=a1&t=',
    );
  });
});

describe('preview origins', () => {
  it('are a scheme, a host and a port, nothing more', () => {
    for (const origin of [
      'https://www.example.com',
      'http://127.0.0.1:4173',
      'http://localhost',
      'http://[::1]:80',
    ])
      expect(isPreviewOrigin(origin), origin).toBe(true);
    for (const origin of [
      'https://e.com/',
      'https://e.com/blog',
      'ftp://e.com',
      'e.com',
      'https://e.com?x',
      'https://',
    ])
      expect(isPreviewOrigin(origin), origin).toBe(false);
  });
});

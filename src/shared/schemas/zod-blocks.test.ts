import { MAX_BLOCK_DEPTH } from '../model/types';
import { landingPage, landingPageData, nestedBlocks, nestingBlock, sectionsField } from './blocks-test-data';
import type { SchemaType } from './types';
import { itemDataSchema } from './zod';

const issuesOf = (schema: SchemaType, data: unknown) =>
  itemDataSchema(schema)
    .safeParse(data)
    .error?.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })) ?? [];

const withSections = (sections: unknown) => ({ name: 'Spring', sections });

const tree: SchemaType = {
  name: 'tree',
  title: 'Tree',
  pluralTitle: 'Trees',
  icon: 'tree',
  topFields: [],
  fields: [{ key: 'tree', label: 'Tree', type: 'blocks', blockTypes: ['nest'] }],
  blockTypes: { nest: nestingBlock },
};

describe('itemDataSchema: blocks fields', () => {
  it('accepts blocks of the allowed types with their fields, nested blocks too', () => {
    const data = landingPageData();
    const parsed = itemDataSchema(landingPage).safeParse(data);
    expect(parsed.error?.issues ?? []).toEqual([]);
    expect(parsed.data).toEqual(data);
    expect(issuesOf(landingPage, withSections([]))).toEqual([]);
    expect(issuesOf(landingPage, withSections(null))).toEqual([]);
  });

  it('checks each field of a block by its type, at its path', () => {
    const data = landingPageData();
    data.sections[0].title = 42 as unknown as string;
    (data.sections[1].features as Record<string, unknown>[])[1].rank = 'first';
    expect(issuesOf(landingPage, data)).toEqual([
      { path: 'sections.0.title', message: 'Invalid input: expected string, received number' },
      { path: 'sections.1.features.1.rank', message: 'Invalid input: expected number, received string' },
    ]);
  });

  it('refuses unknown keys in a block, naming its type', () => {
    expect(issuesOf(landingPage, withSections([{ _type: 'hero', _key: 'a', colour: 'red' }]))).toEqual([
      { path: 'sections.0', message: 'Unknown field "colour" in Hero block' },
    ]);
  });

  it('refuses a block of a type the field does not allow, or the model does not have', () => {
    const onlyHero: SchemaType = {
      ...landingPage,
      fields: [
        landingPage.fields[0],
        { key: 'sections', label: 'Sections', type: 'blocks', blockTypes: ['hero', 'gone'] },
      ],
    };
    expect(issuesOf(onlyHero, withSections([{ _type: 'feature', _key: 'a' }]))).toEqual([
      { path: 'sections.0._type', message: 'Sections cannot hold "feature" blocks: choose hero' },
    ]);
    expect(issuesOf(onlyHero, withSections([{ _type: 'gone', _key: 'a' }]))).toEqual([
      {
        path: 'sections.0._type',
        message: 'Unknown block type "gone": the content model has none of that name',
      },
    ]);
    // Names a plain object answers to are no block types.
    expect(issuesOf(onlyHero, withSections([{ _type: 'constructor', _key: 'a' }]))[0].path).toBe(
      'sections.0._type',
    );
    const noTypes: SchemaType = { ...onlyHero, blockTypes: undefined };
    expect(issuesOf(noTypes, withSections([{ _type: 'hero', _key: 'a' }]))).toEqual([
      {
        path: 'sections.0._type',
        message: 'Unknown block type "hero": the content model has none of that name',
      },
    ]);
  });

  it('needs a _type and a _key of 1 to 64 characters on every block, keys unique in the list', () => {
    const keyMessage = "A block's _key is 1 to 64 characters";
    expect(issuesOf(landingPage, withSections([{ _type: 'hero' }]))).toEqual([
      { path: 'sections.0._key', message: keyMessage },
    ]);
    expect(issuesOf(landingPage, withSections([{ _type: 'hero', _key: '' }]))).toEqual([
      { path: 'sections.0._key', message: keyMessage },
    ]);
    expect(issuesOf(landingPage, withSections([{ _type: 'hero', _key: 'k'.repeat(65) }]))).toEqual([
      { path: 'sections.0._key', message: keyMessage },
    ]);
    expect(issuesOf(landingPage, withSections([{ _type: 'hero', _key: 'k'.repeat(64) }]))).toEqual([]);
    expect(issuesOf(landingPage, withSections([{ _key: 'a' }]))[0].path).toBe('sections.0._type');
    expect(issuesOf(landingPage, withSections(['hero']))[0].path).toBe('sections.0');
    expect(
      issuesOf(
        landingPage,
        withSections([
          { _type: 'hero', _key: 'a' },
          { _type: 'call-to-action', _key: 'a' },
        ]),
      ),
    ).toEqual([{ path: 'sections.1._key', message: 'Block key "a" is used twice in Sections' }]);
  });

  it('allows at most maxBlocks blocks, and never more than 500', () => {
    const features = (count: number) =>
      Array.from({ length: count }, (_, i) => ({ _type: 'feature', _key: `f${i}` }));
    const grid = (count: number) =>
      withSections([{ _type: 'feature-grid', _key: 'g', features: features(count) }]);
    expect(issuesOf(landingPage, grid(6))).toEqual([]);
    expect(issuesOf(landingPage, grid(7))).toEqual([
      { path: 'sections.0.features', message: 'Features allows at most 6 blocks' },
    ]);
    const many = (count: number) =>
      Array.from({ length: count }, (_, i) => ({ _type: 'hero', _key: `h${i}` }));
    expect(issuesOf(landingPage, withSections(many(500)))).toEqual([]);
    expect(issuesOf(landingPage, withSections(many(501)))).toEqual([
      { path: 'sections', message: 'Sections allows at most 500 blocks' },
    ]);
    const generous: SchemaType = {
      ...landingPage,
      fields: [{ ...sectionsField, maxBlocks: 10_000 }],
    };
    expect(issuesOf(generous, { sections: many(501) })[0].message).toBe('Sections allows at most 500 blocks');
  });

  it(`nests blocks ${MAX_BLOCK_DEPTH} levels deep, not deeper`, () => {
    expect(issuesOf(tree, { tree: nestedBlocks(MAX_BLOCK_DEPTH) })).toEqual([]);
    const tooDeep = issuesOf(tree, { tree: nestedBlocks(MAX_BLOCK_DEPTH + 1) });
    expect(tooDeep).toEqual([
      {
        path: 'tree.0.children.0.children.0.children.0.children.0.children',
        message: 'Children: blocks nest at most 5 levels deep',
      },
    ]);
  });
});

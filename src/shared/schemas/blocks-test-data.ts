/** A schema with blocks fields and its block types, for the tests of everything that reads blocks. */
import type { BlocksField, BlockType, SchemaType } from './types';

const heroBlock: BlockType = {
  name: 'hero',
  title: 'Hero',
  icon: 'photo',
  fields: [
    { key: 'title', label: 'Title', type: 'text', required: true },
    { key: 'body', label: 'Body', type: 'rich-text' },
    { key: 'image', label: 'Image', type: 'file' },
    { key: 'hasButton', label: 'Has button', type: 'boolean' },
    {
      key: 'buttonText',
      label: 'Button text',
      type: 'text',
      required: true,
      displayIf: { field: 'hasButton', equals: true },
      validators: [{ expression: '^.{0,20}$', message: '%l is too long: %v' }],
    },
  ],
};

const featureBlock: BlockType = {
  name: 'feature',
  title: 'Feature',
  fields: [
    { key: 'name', label: 'Name', type: 'text', required: true },
    { key: 'icon', label: 'Icon', type: 'file' },
    { key: 'rank', label: 'Rank', type: 'number', min: 1, max: 9 },
  ],
};

const featureGridBlock: BlockType = {
  name: 'feature-grid',
  title: 'Feature grid',
  fields: [
    { key: 'heading', label: 'Heading', type: 'text' },
    { key: 'features', label: 'Features', type: 'blocks', blockTypes: ['feature'], maxBlocks: 6 },
  ],
};

const callToActionBlock: BlockType = {
  name: 'call-to-action',
  title: 'Call to action',
  fields: [
    { key: 'label', label: 'Label', type: 'text' },
    { key: 'target', label: 'Target', type: 'reference', schemaTypes: ['blog-post'] },
    { key: 'also', label: 'Also', type: 'reference-list', schemaTypes: ['blog-post'] },
  ],
};

export const sectionsField: BlocksField = {
  key: 'sections',
  label: 'Sections',
  type: 'blocks',
  blockTypes: ['hero', 'feature-grid', 'call-to-action'],
};

export const landingPage: SchemaType = {
  name: 'landing-page',
  title: 'Landing page',
  pluralTitle: 'Landing pages',
  icon: 'layout',
  topFields: ['name'],
  fields: [{ key: 'name', label: 'Name', type: 'text', required: true }, sectionsField],
  blockTypes: {
    hero: heroBlock,
    feature: featureBlock,
    'feature-grid': featureGridBlock,
    'call-to-action': callToActionBlock,
  },
};

const image = {
  name: 'cat.png',
  size: 1536,
  contentType: 'image/png',
  storageName: 'abc123.png',
  publicUrl: 'https://example.com/cat.png',
};

/** A landing page with one block of each type, a feature grid holding two features. */
export const landingPageData = (): { name: string; sections: Record<string, unknown>[] } => ({
  name: 'Spring',
  sections: [
    { _type: 'hero', _key: 'h1', title: 'Hello', body: '<p>Hi</p>', image: { ...image } },
    {
      _type: 'feature-grid',
      _key: 'g1',
      heading: 'Why',
      features: [
        { _type: 'feature', _key: 'f1', name: 'Fast', rank: 1 },
        { _type: 'feature', _key: 'f2', name: 'Kind', icon: { ...image, storageName: 'icon.png' } },
      ],
    },
    {
      _type: 'call-to-action',
      _key: 'c1',
      label: 'Read',
      target: { id: 'post-1', schemaType: 'blog-post', label: 'First post' },
      also: [{ id: 'post-2', schemaType: 'blog-post', label: 'Second post' }],
    },
  ],
});

/** A block type holding itself: blocks that nest as deep as anyone types them. */
export const nestingBlock: BlockType = {
  name: 'nest',
  title: 'Nest',
  fields: [
    { key: 'label', label: 'Label', type: 'text' },
    { key: 'children', label: 'Children', type: 'blocks', blockTypes: ['nest'] },
  ],
};

/** Blocks of `nestingBlock`, `levels` levels deep. */
export function nestedBlocks(levels: number): unknown[] {
  let blocks: unknown[] = [];
  for (let level = levels; level >= 1; level--)
    blocks = [{ _type: 'nest', _key: `n${level}`, label: `Level ${level}`, children: blocks }];
  return blocks;
}

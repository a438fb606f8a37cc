import {
  allowedBlockTypes,
  blocksSummary,
  blockTypeNamed,
  canAddBlock,
  mapNestedEntries,
  nestedEntries,
  newBlock,
} from './blocks';
import { landingPage, sectionsField } from './blocks-test-data';
import type { FieldDef } from './types';

const { blockTypes } = landingPage;

describe('block types', () => {
  it('finds a block type by its own name only', () => {
    expect(blockTypeNamed(blockTypes, 'hero')?.title).toBe('Hero');
    expect(blockTypeNamed(blockTypes, 'constructor')).toBeUndefined();
    expect(blockTypeNamed(blockTypes, '__proto__')).toBeUndefined();
    expect(blockTypeNamed(blockTypes, 42)).toBeUndefined();
    expect(blockTypeNamed(undefined, 'hero')).toBeUndefined();
  });

  it("lists a field's block types that the model has, in the field's order", () => {
    const field = { blockTypes: ['call-to-action', 'gone', 'hero', 'hero'] };
    expect(allowedBlockTypes(field, blockTypes).map((type) => type.name)).toEqual(['call-to-action', 'hero']);
  });

  it('adds blocks up to maxBlocks, and never past 500', () => {
    expect(canAddBlock({ maxBlocks: 2 }, 1)).toBe(true);
    expect(canAddBlock({ maxBlocks: 2 }, 2)).toBe(false);
    expect(canAddBlock({}, 499)).toBe(true);
    expect(canAddBlock({}, 500)).toBe(false);
    expect(canAddBlock({ maxBlocks: 1000 }, 500)).toBe(false);
  });

  it('makes a new block with a fresh key', () => {
    const first = newBlock({ name: 'hero' });
    const second = newBlock({ name: 'hero' });
    expect(first).toEqual({ _type: 'hero', _key: expect.stringMatching(/^[A-Za-z0-9]{12}$/) });
    expect(second._key).not.toBe(first._key);
  });
});

describe('blocksSummary', () => {
  it('counts the blocks and names their types', () => {
    expect(
      blocksSummary(
        [
          { _type: 'hero', _key: 'a' },
          { _type: 'feature-grid', _key: 'b' },
          { _type: 'call-to-action', _key: 'c' },
        ],
        blockTypes,
      ),
    ).toBe('3 blocks: Hero, Feature grid, Call to action');
    expect(blocksSummary([{ _type: 'hero', _key: 'a' }], blockTypes)).toBe('1 block: Hero');
    expect(blocksSummary([], blockTypes)).toBe('');
    expect(blocksSummary(null, blockTypes)).toBe('');
  });

  it('names a type the model no longer has by its stored name, and stops after five', () => {
    const many = Array.from({ length: 7 }, (_, i) => ({ _type: i === 0 ? 'gone' : 'hero', _key: `k${i}` }));
    expect(blocksSummary(many, blockTypes)).toBe('7 blocks: gone, Hero, Hero, Hero, Hero and 2 more');
    expect(blocksSummary([{}], blockTypes)).toBe('1 block: Block');
  });
});

describe('nested entries', () => {
  const table: FieldDef = {
    key: 'rows',
    label: 'Rows',
    type: 'table',
    columns: [{ key: 'name', label: 'Name', type: 'text' }],
  };

  it("walks a table's rows with its columns and blocks with their type's fields", () => {
    expect(nestedEntries(table, [{ name: 'a' }, null, { name: 'b' }])).toEqual([
      { index: 0, fields: table.columns, data: { name: 'a' } },
      { index: 2, fields: table.columns, data: { name: 'b' } },
    ]);
    const blocks = [
      { _type: 'hero', _key: 'a' },
      'junk',
      { _type: 'gone', _key: 'b' },
      { _type: 'call-to-action' },
    ];
    expect(nestedEntries(sectionsField, blocks, blockTypes)).toEqual([
      { index: 0, fields: blockTypes!.hero.fields, data: blocks[0] },
      { index: 3, fields: blockTypes!['call-to-action'].fields, data: blocks[3] },
    ]);
    expect(nestedEntries(sectionsField, blocks, undefined)).toEqual([]);
    expect(nestedEntries({ key: 't', label: 'T', type: 'tags' }, [{}])).toEqual([]);
  });

  it('maps the entries, keeping the same list when nothing changed', () => {
    const hero = { _type: 'hero', _key: 'a', title: 'x' };
    const blocks = [hero, 'junk'];
    expect(mapNestedEntries(sectionsField, blocks, blockTypes, (entry) => entry.data)).toBe(blocks);
    expect(
      mapNestedEntries(sectionsField, blocks, blockTypes, (entry) => ({ ...entry.data, title: 'y' })),
    ).toEqual([{ _type: 'hero', _key: 'a', title: 'y' }, 'junk']);
    expect(hero.title).toBe('x');
  });
});

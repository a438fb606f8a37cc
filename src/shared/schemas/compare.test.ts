import fc from 'fast-check';
import type { FieldDef } from './types';
import { landingPage } from './blocks-test-data';
import { blockChanges, changedFields, sameValue } from './compare';

const fields: FieldDef[] = [
  { key: 'name', label: 'Name', type: 'text' },
  { key: 'tags', label: 'Tags', type: 'tags' },
  { key: 'start', label: 'Start', type: 'datetime' },
];

describe('changedFields', () => {
  it('lists the fields whose values differ', () => {
    expect(changedFields({ fields }, { name: 'a', tags: ['x'] }, { name: 'b', tags: ['x'] })).toEqual([
      'name',
    ]);
    expect(changedFields({ fields }, { tags: ['x', 'y'] }, { tags: ['y', 'x'] })).toEqual(['tags']);
  });

  it('counts a date-time as changed when only its zone changed', () => {
    const at = '2024-03-01T17:00:00Z';
    expect(
      changedFields({ fields }, { start: at, start_tz: 'UTC' }, { start: at, start_tz: 'Europe/Paris' }),
    ).toEqual(['start']);
  });

  it('treats null and missing as the same, and ignores key order', () => {
    expect(changedFields({ fields }, { name: null }, {})).toEqual([]);
    expect(sameValue({ a: 1, b: { c: [1] } }, { b: { c: [1] }, a: 1 })).toBe(true);
    expect(sameValue({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameValue([1], { 0: 1 })).toBe(false);
  });

  it('finds no change between a version and its copy, and a change after any edit', () => {
    fc.assert(
      fc.property(fc.string(), fc.array(fc.string()), fc.string(), (name, tags, other) => {
        const data = { name, tags };
        expect(changedFields({ fields }, data, structuredClone(data))).toEqual([]);
        fc.pre(other !== name);
        expect(changedFields({ fields }, data, { ...data, name: other })).toEqual(['name']);
      }),
    );
  });
});

describe('blockChanges', () => {
  const { blockTypes } = landingPage;
  const hero = { _type: 'hero', _key: 'h', title: 'Hi' };
  const grid = { _type: 'feature-grid', _key: 'g', features: [] };
  const cta = { _type: 'call-to-action', _key: 'c' };

  it('names the blocks added, changed and removed, matched by key', () => {
    expect(blockChanges([hero, grid], [{ ...hero, title: 'Hello' }, cta], blockTypes)).toEqual([
      'Hero 1 changed',
      'Call to action 2 added',
      'Feature grid 2 removed',
    ]);
    expect(blockChanges(null, [hero], blockTypes)).toEqual(['Hero 1 added']);
    expect(blockChanges([hero, grid], [hero, grid], blockTypes)).toEqual([]);
  });

  it('says when the blocks kept were reordered, and a change inside a nested block', () => {
    expect(blockChanges([hero, grid, cta], [grid, hero, cta], blockTypes)).toEqual(['Blocks reordered']);
    const feature = { _type: 'feature', _key: 'f', name: 'Fast' };
    expect(
      blockChanges(
        [{ ...grid, features: [feature] }],
        [{ ...grid, features: [{ ...feature, name: 'Faster' }] }],
        blockTypes,
      ),
    ).toEqual(['Feature grid 1 changed']);
    // Removing one block moves the others up without reordering them.
    expect(blockChanges([hero, grid, cta], [hero, cta], blockTypes)).toEqual(['Feature grid 2 removed']);
  });
});

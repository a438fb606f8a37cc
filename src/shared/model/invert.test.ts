import fc from 'fast-check';
import { applyOps, ModelChangeError } from './apply';
import { invertOps } from './invert';
import { opsFromSeeds, type OpSeed } from './random-ops';
import type { ContentModelDoc, ModelOp } from './types';
import { sampleModel } from './test-models';

const sample = sampleModel;

const roundTrip = (doc: ContentModelDoc, ops: ModelOp[]) => applyOps(applyOps(doc, ops), invertOps(doc, ops));

describe('invertOps', () => {
  it('undoes each kind of operation, in reverse order', () => {
    const doc = sample();
    const ops: ModelOp[] = [
      {
        op: 'updateField',
        schema: 'page',
        key: 'teaser',
        patch: { label: 'Intro', displayIf: null, rows: 4 },
      },
      { op: 'renameField', schema: 'page', from: 'title', to: 'heading' },
      {
        op: 'retypeField',
        schema: 'page',
        key: 'teaser',
        field: { key: 'teaser', label: 'Teaser', type: 'rich-text' },
      },
      { op: 'moveField', schema: 'page', key: 'teaser', index: 0 },
      { op: 'updateSchema', schema: 'page', patch: { topFields: ['heading'], thumbnail: null } },
      { op: 'removeField', schema: 'page', key: 'slug' },
      { op: 'addDomain', domain: { name: 'news', title: 'News' }, index: 1 },
      { op: 'moveSchema', schema: 'page', domain: 'news' },
      { op: 'updateDomain', domain: 'news', patch: { landingSchema: 'page' } },
      { op: 'removeSchema', schema: 'note' },
      { op: 'removeDomain', domain: 'site' },
      { op: 'updateSchema', schema: 'page', patch: { title: 'Web page', allowSaveWithErrors: true } },
      { op: 'addBlockType', blockType: { name: 'quote', title: 'Quote', fields: [] }, index: 0 },
      { op: 'updateBlockType', blockType: 'hero', patch: { icon: 'star' } },
      { op: 'removeBlockType', blockType: 'hero' },
      { op: 'addField', blockType: 'quote', field: { key: 'text', label: 'Text', type: 'multiline' } },
    ];
    expect(roundTrip(doc, ops)).toEqual(doc);
    const inverse = invertOps(doc, ops);
    expect(inverse[0]).toEqual({ op: 'removeField', blockType: 'quote', key: 'text' });
    expect(inverse.at(-1)).toEqual({
      op: 'updateField',
      schema: 'page',
      key: 'teaser',
      patch: { label: 'Teaser', displayIf: { field: 'title', notEmpty: true }, rows: null },
    });
    expect(inverse).toContainEqual({
      op: 'addField',
      schema: 'page',
      field: { key: 'slug', label: 'Slug', type: 'name-slug', from: 'heading' },
      index: 2,
    });
    expect(inverse).toContainEqual({ op: 'addDomain', domain: { name: 'site', title: 'Site' }, index: 5 });
  });

  it('renames back, restoring what named the field', () => {
    const doc = sample();
    const ops: ModelOp[] = [{ op: 'renameField', schema: 'page', from: 'title', to: 'name' }];
    expect(invertOps(doc, ops)).toEqual([{ op: 'renameField', schema: 'page', from: 'name', to: 'title' }]);
    expect(roundTrip(doc, ops)).toEqual(doc);
  });

  it('refuses operations that do not apply, naming them', () => {
    expect(() => invertOps(sample(), [{ op: 'removeField', schema: 'page', key: 'nope' }])).toThrow(
      new ModelChangeError('ops.0 (removeField): Schema "page" has no field "nope"'),
    );
  });

  it('undoes random change sets on the built-in model', () => {
    const seed = fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.nat()) as fc.Arbitrary<OpSeed>;
    fc.assert(
      fc.property(fc.array(seed, { maxLength: 30 }), (seeds) => {
        const doc = sample();
        const ops = opsFromSeeds(doc, seeds);
        expect(roundTrip(doc, ops)).toEqual(doc);
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  it('undoes operations on the columns of a table field', () => {
    const doc = applyOps(sample(), [
      {
        op: 'addField',
        schema: 'page',
        field: {
          key: 'rows',
          label: 'Rows',
          type: 'table',
          columns: [{ key: 'a', label: 'A', type: 'text' }],
        },
      },
    ]);
    const owner = { schema: 'page', table: 'rows' } as const;
    const ops: ModelOp[] = [
      { op: 'addField', ...owner, field: { key: 'b', label: 'B', type: 'text' } },
      { op: 'renameField', ...owner, from: 'a', to: 'c' },
      { op: 'retypeField', ...owner, key: 'c', field: { key: 'c', label: 'C', type: 'number' } },
      { op: 'removeField', ...owner, key: 'b' },
    ];
    expect(roundTrip(doc, ops)).toEqual(doc);
    expect(invertOps(doc, ops).every((op) => 'table' in op && op.table === 'rows')).toBe(true);
  });
});

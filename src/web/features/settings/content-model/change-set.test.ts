import type { ContentModelDoc, ModelOp } from '@shared/model/types';
import {
  columnsWithOps,
  pendingModel,
  rebasedOps,
  removeFieldOps,
  withOps,
  withoutOp,
  type PendingChanges,
} from './change-set';
import { draftOf, fieldEditOps, fieldOf, keyFromLabel } from './field-draft';

const base: ContentModelDoc = {
  domains: [
    {
      name: 'blogging',
      title: 'Blogging',
      schemas: [
        {
          name: 'blog-post',
          title: 'Blog Post',
          pluralTitle: 'Blog Posts',
          icon: 'article',
          fields: [
            { key: 'name', label: 'Title', type: 'text', required: true },
            { key: 'excerpt', label: 'Excerpt', type: 'multiline' },
          ],
          topFields: ['name'],
        },
      ],
    },
  ],
  blockTypes: [],
};
const owner = { schema: 'blog-post' };
const pending = (ops: ModelOp[] = []): PendingChanges => ({ baseVersion: 3, base, ops });
const opsOf = (outcome: ReturnType<typeof withOps>) => {
  if ('error' in outcome) throw new Error(outcome.error);
  return outcome.ops;
};

describe('pending change set', () => {
  it('folds edits of a field it adds into that addField, and its removal drops it', () => {
    const add: ModelOp = { op: 'addField', ...owner, field: { key: 'seo', label: 'SEO', type: 'text' } };
    const renamed = opsOf(
      withOps(pending([add]), [
        { op: 'renameField', ...owner, from: 'seo', to: 'seoText' },
        { op: 'updateField', ...owner, key: 'seoText', patch: { required: true } },
      ]),
    );
    expect(renamed).toEqual([
      { op: 'addField', ...owner, field: { key: 'seoText', label: 'SEO', type: 'text', required: true } },
    ]);
    expect(opsOf(withOps(pending(renamed), [{ op: 'removeField', ...owner, key: 'seoText' }]))).toEqual([]);
  });

  it('folds a column operation into the addField of its table, and only of its table', () => {
    const size = { key: 'size', label: 'Size', type: 'text' } as const;
    const specs = { key: 'specs', label: 'Specs', type: 'table', columns: [size] } as const;
    const column = { ...owner, table: 'specs' };
    const added = opsOf(
      withOps(pending([{ op: 'addField', ...owner, field: specs }]), [
        { op: 'renameField', ...column, from: 'size', to: 'format' },
        { op: 'addField', ...column, field: { key: 'seo', label: 'SEO', type: 'number' } },
      ]),
    );
    expect(added).toEqual([
      {
        op: 'addField',
        ...owner,
        field: {
          ...specs,
          columns: [
            { ...size, key: 'format' },
            { key: 'seo', label: 'SEO', type: 'number' },
          ],
        },
      },
    ]);
    // A column named as a field the change set adds is no edit of that field.
    const seo: ModelOp = { op: 'addField', ...owner, field: { key: 'seo', label: 'SEO', type: 'text' } };
    expect(withOps(pending([seo]), [{ op: 'removeField', ...owner, table: 'links', key: 'seo' }])).toEqual({
      error: 'Schema "blog-post" has no table field "links"',
    });
  });

  it('applies column operations to a table alone, refusing as the engine does', () => {
    const table = { key: 'specs', label: 'Specs', type: 'table', columns: [] } as const;
    const add: ModelOp = {
      op: 'addField',
      blockType: 'hero',
      table: 'specs',
      field: { key: 'size', label: 'Size', type: 'text' },
    };
    expect(columnsWithOps(table, [add])).toEqual([{ key: 'size', label: 'Size', type: 'text' }]);
    expect(() => columnsWithOps(table, [{ ...add, op: 'removeField', key: 'size' } as ModelOp])).toThrow(
      'Block type "hero", table "specs" has no field "size"',
    );
  });

  it('refuses what the engine refuses, with its message', () => {
    expect(withOps(pending(), [{ op: 'removeField', ...owner, key: 'nope' }])).toEqual({
      error: expect.stringContaining('"nope"'),
    });
  });

  it('drops the operations that depended on a dropped one', () => {
    const ops: ModelOp[] = [
      { op: 'renameField', ...owner, from: 'excerpt', to: 'summary' },
      { op: 'updateField', ...owner, key: 'summary', patch: { required: true } },
      { op: 'moveField', ...owner, key: 'name', index: 1 },
    ];
    expect(withoutOp(pending(ops), 0)).toEqual({ ops: [ops[2]], dropped: 1 });
  });

  it('makes the pending operations again on a newer model, leaving out those that no longer apply', () => {
    const newer = structuredClone(base);
    newer.domains[0].schemas[0] = {
      ...newer.domains[0].schemas[0],
      fields: [newer.domains[0].schemas[0].fields[0]],
    };
    const ops: ModelOp[] = [
      { op: 'removeField', ...owner, key: 'excerpt' },
      { op: 'updateField', ...owner, key: 'name', patch: { label: 'Headline' } },
    ];
    expect(rebasedOps(newer, ops)).toEqual({ ops: [ops[1]], dropped: 1 });
    expect(pendingModel(pending(ops)).domains[0].schemas[0].fields).toEqual([
      { key: 'name', label: 'Headline', type: 'text', required: true },
    ]);
  });
});

describe('removing a field', () => {
  it('takes it out of the top fields first, so the model never names a field it lost', () => {
    const ops = removeFieldOps(base, owner, 'name');
    expect(ops).toEqual([
      { op: 'updateSchema', schema: 'blog-post', patch: { topFields: [] } },
      { op: 'removeField', ...owner, key: 'name' },
    ]);
    expect(opsOf(withOps(pending(), ops))).toEqual(ops);
    expect(removeFieldOps(base, owner, 'excerpt')).toEqual([{ op: 'removeField', ...owner, key: 'excerpt' }]);
  });
});

describe('field drafts', () => {
  it('derives a key from a label', () => {
    expect(keyFromLabel('SEO description')).toBe('seoDescription');
    expect(keyFromLabel('Publish Date!')).toBe('publishDate');
  });

  it('keeps only the options of the chosen type and what the editor does not show', () => {
    const field = { key: 'n', label: 'N', type: 'number', min: 1, max: 9, readOnly: true } as const;
    const draft = { ...draftOf(field), type: 'text' as const, placeholder: 'Type' };
    expect(fieldOf(draft, [])).toEqual({ key: 'n', label: 'N', type: 'text', placeholder: 'Type' });
    expect(fieldOf({ ...draftOf(field), max: '' }, [], field)).toEqual({
      key: 'n',
      label: 'N',
      type: 'number',
      min: 1,
      readOnly: true,
    });
  });

  it('turns a display condition on a yes/no field into a boolean one', () => {
    const siblings = [{ key: 'featured', label: 'Featured', type: 'boolean' } as const];
    const draft = draftOf({ key: 'badge', label: 'Badge', type: 'text' });
    draft.condition = { kind: 'equals', field: 'featured', value: 'true', values: [] };
    expect(fieldOf(draft, siblings).displayIf).toEqual({ field: 'featured', equals: true });
  });

  it('patches what changed, removing cleared properties with null', () => {
    const before = { key: 'excerpt', label: 'Excerpt', type: 'multiline', description: 'Short' } as const;
    const after = { key: 'excerpt', label: 'Summary', type: 'multiline' } as const;
    expect(fieldEditOps(owner, before, after)).toEqual([
      { op: 'updateField', ...owner, key: 'excerpt', patch: { label: 'Summary', description: null } },
    ]);
    expect(fieldEditOps(owner, before, before)).toEqual([]);
  });
});

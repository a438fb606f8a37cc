import type { BlockType, FieldDef, SchemaType } from '../schemas/types';
import { restoreKept, transformItemData } from './data';
import type { ModelOp } from './types';

const page: SchemaType = {
  name: 'page',
  title: 'Page',
  pluralTitle: 'Pages',
  icon: 'file',
  fields: [
    { key: 'title', label: 'Title', type: 'text', localized: true },
    { key: 'at', label: 'At', type: 'datetime' },
    { key: 'count', label: 'Count', type: 'number' },
    { key: 'body', label: 'Body', type: 'blocks', blockTypes: ['hero', 'columns'] },
    { key: 'combinations', label: 'Combinations', type: 'combinations' },
  ],
  variations: [{ name: 'locale', label: 'Locale', options: [{ value: 'en', label: 'English' }] }],
  allowCombinations: true,
  topFields: ['title'],
};

const blockTypes: Record<string, BlockType> = {
  hero: {
    name: 'hero',
    title: 'Hero',
    fields: [
      { key: 'heading', label: 'Heading', type: 'text' },
      { key: 'when', label: 'When', type: 'datetime' },
    ],
  },
  columns: {
    name: 'columns',
    title: 'Columns',
    fields: [{ key: 'items', label: 'Items', type: 'blocks', blockTypes: ['hero'] }],
  },
};

function item(): Record<string, unknown> {
  return {
    title: 'Hello',
    at: '2024-01-01T10:00:00.000Z',
    at_tz: 'Europe/Paris',
    count: 3,
    _locales: { 'fr-FR': { title: 'Bonjour' }, 'de-DE': { title: 'Hallo' } },
    body: [
      { _type: 'hero', _key: 'k1', heading: 'One', when: '2024-02-01T00:00:00.000Z', when_tz: 'UTC' },
      { _type: 'columns', _key: 'k2', items: [{ _type: 'hero', _key: 'k3', heading: 'Two' }] },
    ],
    combinations: [
      {
        _slug: 'hello-en',
        variations: { locale: 'en' },
        overrides: { title: 'Hi', count: 4, body: [{ _type: 'hero', _key: 'k4', heading: 'Three' }] },
      },
    ],
  };
}

const transform = (data: Record<string, unknown>, op: ModelOp) =>
  transformItemData(data, op, page, blockTypes);

/**
 * Applying `op` then reverting it gives the data back, whether the revert restores the kept values in
 * place of the inverse operation or after it.
 */
function expectRoundTrip(
  op: ModelOp,
  inverse: ModelOp,
  schemaAfter: SchemaType = page,
  typesAfter = blockTypes,
) {
  const data = item();
  const forward = transform(data, op);
  expect(forward.changed).toBe(true);
  expect(restoreKept(forward.data, op, forward.kept!)).toEqual(data);
  const back = transformItemData(forward.data, inverse, schemaAfter, typesAfter);
  expect(restoreKept(back.data, op, forward.kept!, forward.data)).toEqual(data);
}

describe('transformItemData', () => {
  it('answers the same data, unchanged, for operations without an effect on data', () => {
    const data = item();
    const ops: ModelOp[] = [
      { op: 'addField', schema: 'page', field: { key: 'x', label: 'X', type: 'text' } },
      { op: 'moveField', schema: 'page', key: 'title', index: 2 },
      { op: 'updateField', schema: 'page', key: 'title', patch: { label: 'Heading' } },
      { op: 'removeField', schema: 'post', key: 'title' },
      { op: 'removeField', schema: 'page', key: 'nope' },
      { op: 'updateSchema', schema: 'page', patch: { title: 'Web page' } },
      { op: 'removeField', blockType: 'quote', key: 'heading' },
    ];
    for (const op of ops) expect(transform(data, op)).toEqual({ data, changed: false });
    expect(transform(data, ops[0]).data).toBe(data);
  });

  it('moves a renamed value with its locales and overrides, never changing its input', () => {
    const data = item();
    const {
      data: after,
      kept,
      changed,
    } = transform(data, { op: 'renameField', schema: 'page', from: 'title', to: 'name' });
    expect(changed).toBe(true);
    expect(after).toMatchObject({
      name: 'Hello',
      _locales: { 'fr-FR': { name: 'Bonjour' }, 'de-DE': { name: 'Hallo' } },
    });
    expect(after).not.toHaveProperty('title');
    expect((after.combinations as { overrides: object }[])[0].overrides).toEqual({
      name: 'Hi',
      count: 4,
      body: [{ _type: 'hero', _key: 'k4', heading: 'Three' }],
    });
    expect(kept).toBeUndefined();
    expect(data).toEqual(item());
  });

  it('moves the time zone companion of a renamed date-time, and keeps a value it overwrites', () => {
    const data = { ...item(), start: 'stale' };
    const { data: after, kept } = transform(data, {
      op: 'renameField',
      schema: 'page',
      from: 'at',
      to: 'start',
    });
    expect(after).toMatchObject({ start: '2024-01-01T10:00:00.000Z', start_tz: 'Europe/Paris' });
    expect(after).not.toHaveProperty('at_tz');
    expect(kept).toEqual([{ at: ['start'], value: 'stale' }]);
    expect(restoreKept(after, { op: 'renameField', schema: 'page', from: 'at', to: 'start' }, kept!)).toEqual(
      data,
    );
  });

  it('reverts a rename that replaced a value from what it kept alone, blocks and overrides included', () => {
    const data: Record<string, unknown> = { ...item(), name: 'stale' };
    (data.body as Record<string, unknown>[])[0].title = 'stale too';
    for (const op of [
      { op: 'renameField', schema: 'page', from: 'title', to: 'name' },
      { op: 'renameField', blockType: 'hero', from: 'heading', to: 'title' },
    ] as ModelOp[]) {
      const forward = transform(data, op);
      expect(forward.kept).toHaveLength(1);
      expect(restoreKept(forward.data, op, forward.kept!)).toEqual(data);
    }
  });

  it('strips a removed field everywhere, keeping its values, and restores them', () => {
    const { data: after, kept } = transform(item(), { op: 'removeField', schema: 'page', key: 'title' });
    expect(after).not.toHaveProperty('title');
    expect(after._locales).toEqual({ 'fr-FR': {}, 'de-DE': {} });
    expect(kept).toEqual([
      { at: ['title'], value: 'Hello' },
      { at: ['_locales', 'fr-FR', 'title'], value: 'Bonjour' },
      { at: ['_locales', 'de-DE', 'title'], value: 'Hallo' },
      { at: ['combinations', { _slug: 'hello-en' }, 'overrides', 'title'], value: 'Hi' },
    ]);
    const field = page.fields[0];
    expectRoundTrip(
      { op: 'removeField', schema: 'page', key: 'title' },
      { op: 'addField', schema: 'page', field },
    );
    expectRoundTrip(
      { op: 'removeField', schema: 'page', key: 'at' },
      { op: 'addField', schema: 'page', field: page.fields[1] },
    );
  });

  it('converts a retyped value everywhere, keeping the old values for a revert', () => {
    const text: FieldDef = { key: 'count', label: 'Count', type: 'text' };
    const op: ModelOp = { op: 'retypeField', schema: 'page', key: 'count', field: text };
    const { data: after, kept, failed } = transform(item(), op);
    expect(after.count).toBe('3');
    expect((after.combinations as { overrides: { count: unknown } }[])[0].overrides.count).toBe('4');
    expect(kept).toEqual([
      { at: ['count'], value: 3, converted: { value: '3' } },
      {
        at: ['combinations', { _slug: 'hello-en' }, 'overrides', 'count'],
        value: 4,
        converted: { value: '4' },
      },
    ]);
    expect(failed).toBeUndefined();
    const retyped = { ...page, fields: page.fields.map((f) => (f.key === 'count' ? text : f)) };
    expectRoundTrip(op, { op: 'retypeField', schema: 'page', key: 'count', field: page.fields[2] }, retyped);
  });

  it('keeps values that do not convert in place and reports them', () => {
    const data = item();
    const op: ModelOp = {
      op: 'retypeField',
      schema: 'page',
      key: 'title',
      field: { key: 'title', label: 'Title', type: 'number', localized: true },
    };
    data._locales = { 'fr-FR': { title: '12' }, 'de-DE': { title: 'Hallo' } };
    const { data: after, failed, kept, changed } = transform(data, op);
    expect(changed).toBe(true);
    expect(after).toMatchObject({
      title: 'Hello',
      _locales: { 'fr-FR': { title: 12 }, 'de-DE': { title: 'Hallo' } },
    });
    expect(failed).toEqual([
      { path: 'title', error: '"Hello" is not a number' },
      { path: '_locales.de-DE.title', error: '"Hallo" is not a number' },
      { path: 'combinations.0.overrides.title', error: '"Hi" is not a number' },
    ]);
    expect(kept).toEqual([{ at: ['_locales', 'fr-FR', 'title'], value: '12', converted: { value: 12 } }]);
    const nothingConverts = transform(item(), { ...op, field: { ...op.field, localized: true } });
    expect(nothingConverts).toMatchObject({ changed: false, failed: expect.any(Array) });
  });

  it('drops the time zone of a date-time retyped to a date, and the locales of a field no longer localised', () => {
    const date: FieldDef = { key: 'at', label: 'At', type: 'date' };
    const { data: after, kept } = transform(item(), {
      op: 'retypeField',
      schema: 'page',
      key: 'at',
      field: date,
    });
    expect(after.at).toBe('2024-01-01');
    expect(after).not.toHaveProperty('at_tz');
    expect(kept).toEqual([
      { at: ['at_tz'], value: 'Europe/Paris' },
      { at: ['at'], value: '2024-01-01T10:00:00.000Z', converted: { value: '2024-01-01' } },
    ]);
    const multiline: FieldDef = { key: 'title', label: 'Title', type: 'multiline' };
    const unlocalized = transform(item(), {
      op: 'retypeField',
      schema: 'page',
      key: 'title',
      field: multiline,
    });
    expect(unlocalized.data._locales).toEqual({ 'fr-FR': {}, 'de-DE': {} });
    const off = transform(item(), {
      op: 'updateField',
      schema: 'page',
      key: 'title',
      patch: { localized: null },
    });
    expect(off.data._locales).toEqual({ 'fr-FR': {}, 'de-DE': {} });
    expect(off.data.title).toBe('Hello');
    expectRoundTrip(
      { op: 'updateField', schema: 'page', key: 'title', patch: { localized: null } },
      { op: 'updateField', schema: 'page', key: 'title', patch: { localized: true } },
    );
  });

  it("applies a block type's field operations in every block of that type, at any depth", () => {
    const op: ModelOp = { op: 'renameField', blockType: 'hero', from: 'heading', to: 'title' };
    const { data: after } = transform(item(), op);
    const body = after.body as Record<string, unknown>[];
    expect(body[0]).toEqual({
      _type: 'hero',
      _key: 'k1',
      title: 'One',
      when: '2024-02-01T00:00:00.000Z',
      when_tz: 'UTC',
    });
    expect(body[1]).toEqual({
      _type: 'columns',
      _key: 'k2',
      items: [{ _type: 'hero', _key: 'k3', title: 'Two' }],
    });
    expect((after.combinations as { overrides: { body: unknown } }[])[0].overrides.body).toEqual([
      { _type: 'hero', _key: 'k4', title: 'Three' },
    ]);
    const number: FieldDef = { key: 'heading', label: 'Heading', type: 'number' };
    const { failed } = transform(item(), {
      op: 'retypeField',
      blockType: 'hero',
      key: 'heading',
      field: number,
    });
    expect(failed!.map((failure) => failure.path)).toEqual([
      'body.0.heading',
      'body.1.items.0.heading',
      'combinations.0.overrides.body.0.heading',
    ]);
    const { data: removed } = transform(item(), { op: 'removeField', blockType: 'hero', key: 'when' });
    expect((removed.body as object[])[0]).toEqual({ _type: 'hero', _key: 'k1', heading: 'One' });
    expectRoundTrip(
      { op: 'removeField', blockType: 'hero', key: 'heading' },
      { op: 'addField', blockType: 'hero', field: blockTypes.hero.fields[0] },
    );
  });

  it('finds blocks in table rows and in the other locales of a localised blocks field', () => {
    const schema: SchemaType = {
      ...page,
      fields: [
        {
          key: 'rows',
          label: 'Rows',
          type: 'table',
          columns: [{ key: 'cell', label: 'Cell', type: 'blocks', blockTypes: ['hero'] }],
        },
        { key: 'body', label: 'Body', type: 'blocks', blockTypes: ['hero'], localized: true },
      ],
    };
    const data = {
      rows: [{ cell: [{ _type: 'hero', _key: 'a', heading: 'In a row' }] }],
      body: [{ _type: 'hero', _key: 'b', heading: 'English' }],
      _locales: { 'fr-FR': { body: [{ _type: 'hero', _key: 'b', heading: 'Français' }] } },
    };
    const op: ModelOp = {
      op: 'retypeField',
      blockType: 'hero',
      key: 'heading',
      field: { key: 'heading', label: 'H', type: 'number' },
    };
    const { failed } = transformItemData(data, op, schema, blockTypes);
    expect(failed!.map((failure) => failure.path)).toEqual([
      'rows.0.cell.0.heading',
      'body.0.heading',
      '_locales.fr-FR.body.0.heading',
    ]);
    const removal: ModelOp = { op: 'removeField', blockType: 'hero', key: 'heading' };
    const { data: after, kept } = transformItemData(data, removal, schema, blockTypes);
    expect(kept!.map((entry) => entry.at)).toEqual([
      ['rows', 0, 'cell', { _key: 'a' }, 'heading'],
      ['body', { _key: 'b' }, 'heading'],
      ['_locales', 'fr-FR', 'body', { _key: 'b' }, 'heading'],
    ]);
    expect(restoreKept(after, removal, kept!)).toEqual(data);
  });

  it('restores kept values into their blocks after the blocks were reordered', () => {
    const op: ModelOp = { op: 'removeField', blockType: 'hero', key: 'heading' };
    const { data: after, kept } = transform(item(), op);
    const reordered = { ...after, body: [...(after.body as unknown[])].reverse() };
    const restored = restoreKept(reordered, op, kept!);
    expect(restored.body).toEqual([...(item().body as unknown[])].reverse());
  });

  it('does not restore values whose place is gone, nor over newer values except for a retype', () => {
    const op: ModelOp = { op: 'removeField', schema: 'page', key: 'title' };
    const { data: after, kept } = transform(item(), op);
    const edited = { ...after, title: 'Newer', _locales: { 'fr-FR': {} } };
    expect(restoreKept(edited, op, kept!)).toMatchObject({
      title: 'Newer',
      _locales: { 'fr-FR': { title: 'Bonjour' } },
    });
    expect(restoreKept(edited, op, kept!)._locales).not.toHaveProperty('de-DE');
    const retype: ModelOp = {
      op: 'retypeField',
      schema: 'page',
      key: 'count',
      field: { key: 'count', label: 'C', type: 'text' },
    };
    expect(restoreKept({ count: 'three' }, retype, [{ at: ['count'], value: 3 }])).toEqual({ count: 3 });
  });

  it('puts back what a retype kept only where the value is still the one it wrote', () => {
    const count = (type: 'text' | 'number'): FieldDef => ({ key: 'count', label: 'C', type });
    const retype: ModelOp = { op: 'retypeField', schema: 'page', key: 'count', field: count('number') };
    const inverse: ModelOp = { op: 'retypeField', schema: 'page', key: 'count', field: count('text') };
    const withText = (field: FieldDef) => (field.key === 'count' ? count('text') : field);
    const textPage: SchemaType = { ...page, fields: page.fields.map(withText) };
    const forward = transformItemData({ count: '3.0' }, retype, textPage, blockTypes);
    expect(forward.data).toEqual({ count: 3 });
    const undo = (data: Record<string, unknown>) =>
      restoreKept(transformItemData(data, inverse, page, blockTypes).data, inverse, forward.kept!, data);
    expect(undo(forward.data)).toEqual({ count: '3.0' });
    expect(undo({ count: 8 })).toEqual({ count: '8' });
    expect(undo({})).toEqual({});
  });

  it('moves, converts and takes out the values of a table column in every row, and puts them back', () => {
    const table: FieldDef = {
      key: 'prices',
      label: 'Prices',
      type: 'table',
      columns: [
        { key: 'label', label: 'Label', type: 'text' },
        { key: 'amount', label: 'Amount', type: 'text' },
      ],
    };
    const schema: SchemaType = { ...page, fields: [...page.fields, table] };
    const data = {
      title: 'Menu',
      count: 2,
      prices: [
        { label: 'Tea', amount: '2.50' },
        { label: 'Cake', amount: 'free' },
      ],
    };
    const owner = { schema: 'page', table: 'prices' } as const;
    const renaming: ModelOp = { op: 'renameField', ...owner, from: 'label', to: 'name' };
    const rename = transformItemData(data, renaming, schema, {});
    expect(rename.data.prices).toEqual([
      { name: 'Tea', amount: '2.50' },
      { name: 'Cake', amount: 'free' },
    ]);
    expect(rename.data.title).toBe('Menu');
    expect(restoreKept(rename.data, renaming, rename.kept)).toEqual(data);
    const retype: ModelOp = {
      op: 'retypeField',
      ...owner,
      key: 'amount',
      field: { key: 'amount', label: 'Amount', type: 'number' },
    };
    const converted = transformItemData(data, retype, schema, {});
    expect(converted.data.prices).toEqual([
      { label: 'Tea', amount: 2.5 },
      { label: 'Cake', amount: 'free' },
    ]);
    expect(converted.failed).toEqual([{ path: 'prices.1.amount', error: '"free" is not a number' }]);
    expect(restoreKept(converted.data, retype, converted.kept)).toEqual(data);
    const removal: ModelOp = { op: 'removeField', ...owner, key: 'label' };
    const removed = transformItemData(data, removal, schema, {});
    expect(removed.data.prices).toEqual([{ amount: '2.50' }, { amount: 'free' }]);
    expect(removed.kept!.map((entry) => entry.at)).toEqual([
      ['prices', 0, 'label'],
      ['prices', 1, 'label'],
    ]);
    expect(restoreKept(removed.data, removal, removed.kept)).toEqual(data);
  });
});

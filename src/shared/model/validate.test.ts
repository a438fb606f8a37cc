import { BUILT_IN_DOMAINS } from '../schemas/catalogue';
import type { BlockType, FieldDef, SchemaType } from '../schemas/types';
import type { ContentModelDoc } from './types';
import { builtInModelDoc } from './registry';
import { MAX_BLOCK_TYPES, MAX_FIELDS_PER_SCHEMA, MAX_SCHEMAS, modelProblem } from './validate';

const schema = (name: string, fields: FieldDef[], extra: Partial<SchemaType> = {}): SchemaType => ({
  name,
  title: 'Page',
  pluralTitle: 'Pages',
  icon: 'file',
  fields,
  topFields: [],
  ...extra,
});
const text = (key: string, extra: Record<string, unknown> = {}) =>
  ({ key, label: key, type: 'text', ...extra }) as FieldDef;
const blocks = (key: string, blockTypes: string[]): FieldDef => ({
  key,
  label: key,
  type: 'blocks',
  blockTypes,
});
const blockType = (name: string, fields: FieldDef[] = [text('title')]): BlockType => ({
  name,
  title: name,
  fields,
});

/** A model of one domain holding the given schemas, plus block types. */
const model = (schemas: SchemaType[], blockTypes: BlockType[] = []): ContentModelDoc => ({
  domains: [{ name: 'site', title: 'Site', schemas }],
  blockTypes,
});
/** The problem of a model whose one schema "page" has these fields. */
const fieldsProblem = (fields: FieldDef[], extra?: Partial<SchemaType>, blockTypes?: BlockType[]) =>
  modelProblem(model([schema('page', fields, extra)], blockTypes));

describe('builtInModel', () => {
  it('is the built-in catalogue as plain JSON, with no problem', () => {
    const doc = builtInModelDoc();
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
    expect(doc.domains.map((domain) => domain.name)).toEqual(BUILT_IN_DOMAINS.map((domain) => domain.name));
    expect(doc.domains.find((domain) => domain.name === 'admin')).toMatchObject({
      admin: true,
      landingSchema: 'client-task',
    });
    expect(doc.domains[0]).not.toHaveProperty('admin');
    expect(doc.domains[0]).not.toHaveProperty('schemaRefs');
    expect(doc.blockTypes).toEqual([]);
    expect(modelProblem(doc)).toBeUndefined();
  });

  it('gives a fresh copy each time', () => {
    const doc = builtInModelDoc();
    (doc.domains[0].schemas[0].fields as FieldDef[]).pop();
    expect(builtInModelDoc().domains[0].schemas[0].fields).toHaveLength(
      BUILT_IN_DOMAINS[0].schemas[0].fields.length,
    );
  });
});

describe('modelProblem', () => {
  it('accepts a sound model with blocks, tables and conditions', () => {
    const fields = [
      text('name'),
      { key: 'slug', label: 'Slug', type: 'name-slug', from: 'name' },
      { key: 'kind', label: 'Kind', type: 'select', options: [{ value: 'a', label: 'A' }] },
      text('note', {
        displayIf: { field: 'kind', equals: 'a' },
        validators: [{ expression: '^x', message: 'no' }],
      }),
      { key: 'at', label: 'At', type: 'datetime', min: '2020-01-01T00:00:00Z', max: '2021-01-01T00:00:00Z' },
      { key: 'rows', label: 'Rows', type: 'table', columns: [text('cell')] },
      blocks('sections', ['hero']),
      { key: 'related', label: 'Related', type: 'reference-list', schemaTypes: ['page'] },
    ] as FieldDef[];
    expect(fieldsProblem(fields, { topFields: ['name'] }, [blockType('hero')])).toBeUndefined();
  });

  it.each([
    ['id', 'Schema "page": field key "id" is reserved; choose another'],
    ['_locales', 'Schema "page": field key "_locales" is reserved; choose another'],
    ['__proto__', 'Schema "page": field key "__proto__" is reserved; choose another'],
    ['constructor', 'Schema "page": field key "constructor" is reserved; choose another'],
    ['prototype', 'Schema "page": field key "prototype" is reserved; choose another'],
    ['_type', 'Schema "page": field key "_type" is reserved; choose another'],
  ])('refuses the reserved key %s', (key, message) => {
    expect(fieldsProblem([text(key)])).toBe(message);
  });

  it.each(['1st', 'first name', 'a.b', 'é', 'x'.repeat(65), ''])('refuses the key %j', (key) => {
    expect(fieldsProblem([text(key)])).toBe(
      `Schema "page": field key "${key}" must be letters, digits, _ or -, start with a letter and be at most 64 characters`,
    );
  });

  it('accepts keys of letters, digits, _ and - up to 64 characters', () => {
    expect(fieldsProblem([text('first_name-2'), text('x'.repeat(64))])).toBeUndefined();
  });

  it('refuses duplicate keys in a schema, a block type and a table', () => {
    expect(fieldsProblem([text('a'), text('a')])).toBe('Schema "page": two fields have the key "a"');
    expect(modelProblem(model([], [blockType('hero', [text('a'), text('a')])]))).toBe(
      'Block type "hero": two fields have the key "a"',
    );
    const table = { key: 'rows', label: 'Rows', type: 'table', columns: [text('a'), text('a')] } as FieldDef;
    expect(fieldsProblem([table])).toBe('Schema "page", field "rows": two columns have the key "a"');
  });

  it('refuses duplicate names of schemas (across domains), domains and block types', () => {
    const twoDomains: ContentModelDoc = {
      domains: [
        { name: 'one', title: 'One', schemas: [schema('page', [])] },
        { name: 'two', title: 'Two', schemas: [schema('page', [])] },
      ],
      blockTypes: [],
    };
    expect(modelProblem(twoDomains)).toBe('Two schemas are named "page"');
    twoDomains.domains[1].name = 'one';
    expect(modelProblem(twoDomains)).toBe('Two domains are named "one"');
    expect(modelProblem(model([], [blockType('hero'), blockType('hero')]))).toBe(
      'Two block types are named "hero"',
    );
  });

  it('refuses names that are not kebab-case slugs', () => {
    const slug =
      'must be kebab-case (a-z, 0-9 and single dashes, starting with a letter, at most 64 characters)';
    expect(modelProblem(model([schema('Blog_Post', [])]))).toBe(`Schema name "Blog_Post" ${slug}`);
    expect(modelProblem(model([schema('blog--post', [])]))).toBe(`Schema name "blog--post" ${slug}`);
    expect(modelProblem({ domains: [{ name: 'My Site', title: 'x', schemas: [] }], blockTypes: [] })).toBe(
      `Domain name "My Site" ${slug}`,
    );
    expect(modelProblem(model([], [blockType('-hero')]))).toBe(`Block type name "-hero" ${slug}`);
    expect(modelProblem(model([schema('constructor', [])]))).toBe(
      'Schema name "constructor" is reserved; choose another',
    );
  });

  it("refuses a key that is a date-time field's time zone companion", () => {
    const at = { key: 'at', label: 'At', type: 'datetime' } as FieldDef;
    expect(fieldsProblem([at, text('at_tz')])).toBe(
      'Schema "page": field key "at_tz" is the time zone of date-time field "at"; choose another',
    );
  });

  it('refuses a display condition or slug source naming no field of the same list', () => {
    expect(fieldsProblem([text('a', { displayIf: { field: 'b', notEmpty: true } })])).toBe(
      'Schema "page", field "a": display condition names no other field "b"',
    );
    expect(fieldsProblem([text('a', { displayIf: { field: 'a', notEmpty: true } })])).toBe(
      'Schema "page", field "a": display condition names no other field "a"',
    );
    expect(fieldsProblem([text('b'), text('a', { displayIf: { field: 'b' } })])).toBe(
      'Schema "page", field "a": a display condition needs equals, in or notEmpty',
    );
    const columns = [text('a', { displayIf: { field: 'name', equals: 1 } })];
    expect(
      fieldsProblem([text('name'), { key: 'rows', label: 'Rows', type: 'table', columns } as FieldDef]),
    ).toBe('Schema "page", field "rows", column "a": display condition names no other column "name"');
    expect(fieldsProblem([{ key: 'slug', label: 'Slug', type: 'name-slug', from: 'name' }])).toBe(
      'Schema "page", field "slug": slug source "name" names no other field',
    );
  });

  it('refuses references to no schema and blocks of no block type', () => {
    const reference = (schemaTypes: string[]) =>
      ({ key: 'ref', label: 'Ref', type: 'reference', schemaTypes }) as FieldDef;
    expect(fieldsProblem([reference(['nope'])])).toBe(
      'Schema "page", field "ref": no schema is named "nope"',
    );
    expect(fieldsProblem([reference([])])).toBe('Schema "page", field "ref": choose at least one schema');
    expect(fieldsProblem([{ ...reference(['page']), type: 'reference-list' } as FieldDef])).toBeUndefined();
    expect(fieldsProblem([blocks('body', ['hero'])])).toBe(
      'Schema "page", field "body": no block type is named "hero"',
    );
    expect(fieldsProblem([blocks('body', [])], {}, [blockType('hero')])).toBe(
      'Schema "page", field "body": choose at least one block type',
    );
    const table = {
      key: 'rows',
      label: 'Rows',
      type: 'table',
      columns: [blocks('body', ['hero'])],
    } as FieldDef;
    expect(fieldsProblem([table], {}, [blockType('hero')])).toBeUndefined();
    expect(fieldsProblem([table])).toBe(
      'Schema "page", field "rows", column "body": no block type is named "hero"',
    );
  });

  it('refuses block types nesting deeper than 5 levels, and any that contain themselves', () => {
    expect(modelProblem(model([], [blockType('a', [blocks('inner', ['a'])])]))).toBe(
      'Block type "a" nests blocks more than 5 levels deep: a → a → a → a → a → a → …',
    );
    const loop = [
      blockType('a', [blocks('x', ['b'])]),
      blockType('b', [blocks('y', ['hero', 'a'])]),
      blockType('hero'),
    ];
    expect(modelProblem(model([], loop))).toBe(
      'Block type "a" nests blocks more than 5 levels deep: a → b → a → b → a → b → …',
    );
    const chain = (length: number) =>
      Array.from({ length }, (_, i) =>
        blockType(`b${i}`, i < length - 1 ? [blocks('inner', [`b${i + 1}`])] : [text('title')]),
      );
    expect(modelProblem(model([schema('page', [blocks('body', ['b0'])])], chain(5)))).toBeUndefined();
    expect(modelProblem(model([], chain(6)))).toBe(
      'Block type "b0" nests blocks more than 5 levels deep: b0 → b1 → b2 → b3 → b4 → b5 → …',
    );
    const inTable = {
      key: 'rows',
      label: 'Rows',
      type: 'table',
      columns: [blocks('cell', ['a'])],
    } as FieldDef;
    expect(modelProblem(model([], [blockType('a', [inTable])]))).toMatch(
      /^Block type "a" nests blocks more than 5/,
    );
  });

  it('refuses a select without options, bad label widths, and min above max', () => {
    expect(fieldsProblem([{ key: 's', label: 'S', type: 'select', options: [] }])).toBe(
      'Schema "page", field "s" needs at least one option',
    );
    for (const labelWidth of [0, 13, 2.5])
      expect(fieldsProblem([text('a', { labelWidth })])).toBe(
        'Schema "page", field "a": label width must be a whole number from 1 to 12',
      );
    expect(fieldsProblem([{ key: 'n', label: 'N', type: 'number', min: 5, max: 1 }])).toBe(
      'Schema "page", field "n": min 5 is above max 1',
    );
    expect(
      fieldsProblem([{ key: 'd', label: 'D', type: 'date', min: '2024-02-01', max: '2024-01-01' }]),
    ).toBe('Schema "page", field "d": min 2024-02-01 is above max 2024-01-01');
    expect(fieldsProblem([{ key: 'r', label: 'R', type: 'range', min: 1 } as FieldDef])).toBe(
      'Schema "page", field "r": a range needs a min and a max',
    );
  });

  it('refuses top fields, thumbnails, preview URLs and landing schemas naming nothing', () => {
    expect(fieldsProblem([text('a')], { topFields: ['b'] })).toBe(
      'Schema "page": top field "b" names no field of the schema',
    );
    expect(fieldsProblem([text('a')], { thumbnail: 'a' })).toBe(
      'Schema "page": thumbnail "a" names no file field',
    );
    expect(fieldsProblem([text('a')], { previewUrls: ['https://example.com/{a}/{locale}/{id}'] })).toBe(
      undefined,
    );
    expect(fieldsProblem([text('a')], { previewUrls: ['https://example.com/{b}'] })).toBe(
      'Schema "page": preview URL placeholder "{b}" names no field of the schema (nor locale or id)',
    );
    const doc = model([schema('page', [])]);
    doc.domains[0].landingSchema = 'post';
    expect(modelProblem(doc)).toBe('Domain "site": landing schema "post" is not one of its schemas');
  });

  it('refuses combinations without allowCombinations, and allowCombinations without variations', () => {
    const combinations = { key: 'combinations', label: 'Combinations', type: 'combinations' } as FieldDef;
    expect(fieldsProblem([combinations])).toBe(
      'Schema "page", field "combinations": only a schema that allows combinations holds combinations',
    );
    expect(fieldsProblem([combinations], { allowCombinations: true })).toBe(
      'Schema "page" allows combinations but has no variations',
    );
    const variations = [{ name: 'locale', label: 'Locale', options: [{ value: 'en', label: 'English' }] }];
    expect(fieldsProblem([combinations], { allowCombinations: true, variations })).toBeUndefined();
    expect(modelProblem(model([], [blockType('hero', [combinations])]))).toBe(
      'Block type "hero", field "combinations": only a schema that allows combinations holds combinations',
    );
  });

  it('refuses validators that do not compile or are too long, and functions', () => {
    const validated = (validator: unknown) => fieldsProblem([text('a', { validators: [validator] })]);
    expect(validated({ expression: '(', message: 'x' })).toMatch(
      /^Schema "page", field "a": validator 1 does not compile: Invalid regular expression/,
    );
    expect(validated({ expression: 'a', flags: 'q', message: 'x' })).toMatch(/validator 1 does not compile/);
    expect(validated({ expression: 'a'.repeat(501), message: 'x' })).toBe(
      'Schema "page", field "a": validator 1 is longer than 500 characters',
    );
    expect(validated({ expression: 'a'.repeat(500), flags: 'i', message: 'x' })).toBeUndefined();
    expect(validated({ test: () => true, message: 'x' })).toBe(
      'Schema "page", field "a": validator 1 needs a regular expression',
    );
  });

  it('refuses unknown field types and derived schema properties', () => {
    expect(fieldsProblem([{ key: 'a', label: 'A', type: 'colour' } as unknown as FieldDef])).toBe(
      'Schema "page", field "a": unknown field type "colour"',
    );
    expect(fieldsProblem([], { blockTypes: {} })).toBe(
      'Schema "page": "blockTypes" is not part of the model',
    );
  });

  it('limits fields, schemas and block types', () => {
    const many = Array.from({ length: MAX_FIELDS_PER_SCHEMA + 1 }, (_, i) => text(`f${i}`));
    expect(fieldsProblem(many)).toBe('Schema "page" holds more than 1000 fields');
    expect(fieldsProblem(many.slice(1))).toBeUndefined();
    const schemas = Array.from({ length: MAX_SCHEMAS + 1 }, (_, i) => schema(`s${i}`, []));
    expect(modelProblem(model(schemas))).toBe('A content model holds at most 2000 schemas');
    const types = Array.from({ length: MAX_BLOCK_TYPES + 1 }, (_, i) => blockType(`b${i}`));
    expect(modelProblem(model([], types))).toBe('A content model holds at most 500 block types');
  });

  it('names malformed documents instead of failing on them', () => {
    expect(modelProblem({} as ContentModelDoc)).toBe(
      'A content model needs a list of domains and a list of block types',
    );
    expect(modelProblem(model([{ name: 'page', title: 'Page' } as SchemaType]))).toBe(
      'Schema "page" needs a list of fields and a list of top fields',
    );
    expect(fieldsProblem([{ label: 'x' } as FieldDef])).toBe('Schema "page": every field needs a key');
  });
});

import type { FieldDef, SchemaType } from '../schemas/types';
import { applyOps, ModelChangeError } from './apply';
import type { ContentModelDoc, ModelOp } from './types';
import { page, sampleModel } from './test-models';

const sample = sampleModel;

const schemaOf = (doc: ContentModelDoc, name: string) =>
  doc.domains.flatMap((domain) => domain.schemas).find((schema) => schema.name === name)!;
const keysOf = (doc: ContentModelDoc, name: string) => schemaOf(doc, name).fields.map((field) => field.key);
const fieldOf = (doc: ContentModelDoc, schema: string, key: string) =>
  schemaOf(doc, schema).fields.find((field) => field.key === key)!;

function refusal(ops: ModelOp[], doc = sample()): string {
  try {
    applyOps(doc, ops);
  } catch (error) {
    expect(error).toBeInstanceOf(ModelChangeError);
    return (error as Error).message;
  }
  throw new Error('the change set applied');
}

describe('applyOps', () => {
  it('applies nothing to an equal copy, and never changes its input', () => {
    const doc = sample();
    const before = structuredClone(doc);
    expect(applyOps(doc, [])).toEqual(before);
    const field: FieldDef = { key: 'extra', label: 'Extra', type: 'text' };
    const op: ModelOp = { op: 'addField', schema: 'page', field };
    const after = applyOps(doc, [
      op,
      { op: 'updateField', schema: 'page', key: 'extra', patch: { label: 'More' } },
    ]);
    expect(fieldOf(after, 'page', 'extra').label).toBe('More');
    expect(doc).toEqual(before);
    expect(field.label).toBe('Extra');
  });

  it('adds, updates, moves and removes domains and schemas', () => {
    const blog: SchemaType = { ...page, name: 'post', title: 'Post', pluralTitle: 'Posts' };
    const after = applyOps(sample(), [
      { op: 'addDomain', domain: { name: 'news', title: 'News' }, index: 0 },
      { op: 'addSchema', domain: 'news', schema: blog },
      { op: 'updateDomain', domain: 'news', patch: { landingSchema: 'post', admin: true } },
      { op: 'updateSchema', schema: 'post', patch: { title: 'Article', thumbnail: null } },
      { op: 'moveSchema', schema: 'page', domain: 'news', index: 0 },
      { op: 'removeSchema', schema: 'note' },
      { op: 'removeDomain', domain: 'site' },
    ]);
    expect(after.domains[0]).toMatchObject({ name: 'news', landingSchema: 'post', admin: true });
    expect(after.domains[0].schemas.map((schema) => schema.name)).toEqual(['page', 'post']);
    expect(schemaOf(after, 'post').title).toBe('Article');
    expect(schemaOf(after, 'post')).not.toHaveProperty('thumbnail');
    expect(after.domains.map((domain) => domain.name)).not.toContain('site');
    const removed = applyOps(after, [
      { op: 'removeSchema', schema: 'post' },
      { op: 'updateDomain', domain: 'news', patch: { landingSchema: null } },
    ]);
    expect(removed.domains[0].schemas.map((schema) => schema.name)).toEqual(['page']);
  });

  it('moves a schema within its domain', () => {
    const after = applyOps(sample(), [{ op: 'moveSchema', schema: 'event', domain: 'marketing', index: 0 }]);
    expect(after.domains[0].schemas[0].name).toBe('event');
    expect(after.domains[0].schemas).toHaveLength(8);
  });

  it('adds, updates, moves and removes fields', () => {
    const after = applyOps(sample(), [
      { op: 'addField', schema: 'page', field: { key: 'body', label: 'Body', type: 'rich-text' }, index: 1 },
      {
        op: 'updateField',
        schema: 'page',
        key: 'teaser',
        patch: { label: 'Intro', displayIf: null, rows: 3 },
      },
      { op: 'moveField', schema: 'page', key: 'image', index: 0 },
      { op: 'removeField', schema: 'page', key: 'slug' },
      { op: 'updateSchema', schema: 'page', patch: { topFields: ['title'] } },
    ]);
    expect(keysOf(after, 'page')).toEqual(['image', 'title', 'body', 'teaser']);
    expect(fieldOf(after, 'page', 'teaser')).toEqual({
      key: 'teaser',
      label: 'Intro',
      type: 'multiline',
      rows: 3,
    });
  });

  it('renames a field and what names it in the schema: conditions, slug sources, top fields, thumbnail, preview URLs', () => {
    const after = applyOps(sample(), [
      { op: 'updateSchema', schema: 'page', patch: { previewUrls: ['https://e.com/{title}?l={locale}'] } },
      { op: 'renameField', schema: 'page', from: 'title', to: 'heading' },
      { op: 'renameField', schema: 'page', from: 'image', to: 'picture' },
    ]);
    expect(schemaOf(after, 'page').previewUrls).toEqual(['https://e.com/{heading}?l={locale}']);
    expect(keysOf(after, 'page')).toEqual(['heading', 'slug', 'teaser', 'picture']);
    expect(fieldOf(after, 'page', 'slug')).toMatchObject({ from: 'heading' });
    expect(fieldOf(after, 'page', 'teaser').displayIf).toEqual({ field: 'heading', notEmpty: true });
    expect(schemaOf(after, 'page')).toMatchObject({ topFields: ['heading', 'slug'], thumbnail: 'picture' });
  });

  it('retypes a field to a new definition with the same key', () => {
    const field: FieldDef = { key: 'teaser', label: 'Teaser', type: 'rich-text' };
    const after = applyOps(sample(), [{ op: 'retypeField', schema: 'page', key: 'teaser', field }]);
    expect(fieldOf(after, 'page', 'teaser')).toEqual(field);
  });

  it('changes the fields of block types and adds, updates and removes block types', () => {
    const after = applyOps(sample(), [
      { op: 'addBlockType', blockType: { name: 'quote', title: 'Quote', fields: [] }, index: 0 },
      { op: 'addField', blockType: 'quote', field: { key: 'text', label: 'Text', type: 'multiline' } },
      { op: 'renameField', blockType: 'hero', from: 'heading', to: 'title' },
      { op: 'updateBlockType', blockType: 'hero', patch: { icon: 'star' } },
      {
        op: 'addField',
        schema: 'page',
        field: { key: 'body', label: 'Body', type: 'blocks', blockTypes: ['quote'] },
      },
    ]);
    expect(after.blockTypes).toEqual([
      { name: 'quote', title: 'Quote', fields: [{ key: 'text', label: 'Text', type: 'multiline' }] },
      {
        name: 'hero',
        title: 'Hero',
        icon: 'star',
        fields: [{ key: 'title', label: 'Heading', type: 'text' }],
      },
    ]);
    expect(applyOps(after, [{ op: 'removeBlockType', blockType: 'hero' }]).blockTypes).toHaveLength(1);
  });

  it('refuses operations naming nothing', () => {
    expect(refusal([{ op: 'removeField', schema: 'nope', key: 'x' }])).toBe(
      'ops.0 (removeField): There is no schema "nope"',
    );
    expect(
      refusal([
        { op: 'addField', schema: 'page', field: { key: 'a', label: 'A', type: 'text' } },
        { op: 'updateField', schema: 'page', key: 'nope', patch: {} },
      ]),
    ).toBe('ops.1 (updateField): Schema "page" has no field "nope"');
    expect(refusal([{ op: 'removeField', blockType: 'nope', key: 'x' }])).toBe(
      'ops.0 (removeField): There is no block type "nope"',
    );
    expect(refusal([{ op: 'removeDomain', domain: 'nope' }])).toBe(
      'ops.0 (removeDomain): There is no domain "nope"',
    );
    expect(refusal([{ op: 'launch' } as unknown as ModelOp])).toBe(
      'ops.0 (launch): Unknown operation "launch"',
    );
    expect(refusal([{ op: 'addField', schema: 'page' } as unknown as ModelOp])).toBe(
      'ops.0 (addField): It needs a field object',
    );
  });

  it('refuses removing, retyping and renaming locked fields, and locking or reshaping them', () => {
    expect(refusal([{ op: 'removeField', schema: 'campaign', key: 'email' }])).toBe(
      'ops.0 (removeField): Schema "campaign": field "email" is locked (Marquee relies on it)',
    );
    const text: FieldDef = { key: 'body', label: 'Body', type: 'text' };
    expect(refusal([{ op: 'retypeField', schema: 'blog-post', key: 'body', field: text }])).toBe(
      'ops.0 (retypeField): Schema "blog-post": field "body" is locked (Marquee relies on it)',
    );
    expect(refusal([{ op: 'renameField', schema: 'blog-post', from: 'name', to: 'title' }])).toBe(
      'ops.0 (renameField): Schema "blog-post": field "name" is locked (Marquee relies on it)',
    );
    expect(
      refusal([{ op: 'updateField', schema: 'campaign', key: 'email', patch: { schemaTypes: ['copy'] } }]),
    ).toBe(
      'ops.0 (updateField): Schema "campaign": field "email" is locked (Marquee relies on it); its schemaTypes cannot change',
    );
    expect(refusal([{ op: 'updateField', schema: 'page', key: 'title', patch: { locked: true } }])).toBe(
      'ops.0 (updateField): Only built-in fields are locked',
    );
    expect(refusal([{ op: 'addField', schema: 'page', field: { ...text, locked: true } }])).toBe(
      'ops.0 (addField): Schema "page": field "body" cannot be added locked; only built-in fields are',
    );
    // Only a name locked: the schema may go (and come back with it).
    expect(
      applyOps(sample(), [{ op: 'removeSchema', schema: 'test-collection' }]).domains.flatMap((d) =>
        d.schemas.map((schema) => schema.name),
      ),
    ).not.toContain('test-collection');
    expect(refusal([{ op: 'removeSchema', schema: 'event' }])).toBe(
      'ops.0 (removeSchema): Schema "event" cannot be removed: Marquee relies on its field "startTime"',
    );
    const relabelled = applyOps(sample(), [
      { op: 'updateField', schema: 'campaign', key: 'email', patch: { label: 'Template' } },
    ]);
    expect(fieldOf(relabelled, 'campaign', 'email')).toMatchObject({ label: 'Template', locked: true });
  });

  it('refuses duplicates and renames onto an existing key', () => {
    expect(refusal([{ op: 'renameField', schema: 'page', from: 'teaser', to: 'title' }])).toBe(
      'ops.0 (renameField): Schema "page" already has a field "title"',
    );
    expect(
      refusal([{ op: 'addField', schema: 'page', field: { key: 'title', label: 'T', type: 'text' } }]),
    ).toBe('ops.0 (addField): Schema "page" already has a field "title"');
    expect(refusal([{ op: 'addSchema', domain: 'site', schema: { ...page, name: 'blog-post' } }])).toBe(
      'ops.0 (addSchema): There is already a schema "blog-post"',
    );
    expect(refusal([{ op: 'addDomain', domain: { name: 'site', title: 'Site' } }])).toBe(
      'ops.0 (addDomain): There is already a domain "site"',
    );
    expect(refusal([{ op: 'addBlockType', blockType: { name: 'hero', title: 'Hero', fields: [] } }])).toBe(
      'ops.0 (addBlockType): There is already a block type "hero"',
    );
  });

  it('refuses removing a domain with schemas and a block type a blocks field uses', () => {
    expect(refusal([{ op: 'removeDomain', domain: 'site' }])).toBe(
      'ops.0 (removeDomain): Domain "site" still has schemas; move or remove them first',
    );
    const uses: ModelOp = {
      op: 'addField',
      schema: 'page',
      field: { key: 'body', label: 'Body', type: 'blocks', blockTypes: ['hero'] },
    };
    expect(refusal([uses, { op: 'removeBlockType', blockType: 'hero' }])).toBe(
      'ops.1 (removeBlockType): Block type "hero" is used by field "body" of schema "page"; remove it there first',
    );
  });

  it('refuses patching keys, types, multiplicity and properties no patch may change', () => {
    const patch = (p: Record<string, unknown>) =>
      refusal([{ op: 'updateField', schema: 'page', key: 'title', patch: p }]);
    expect(patch({ key: 'x' })).toBe("ops.0 (updateField): A field's key cannot be patched; use renameField");
    expect(patch({ type: 'number' })).toBe(
      "ops.0 (updateField): A field's type cannot be patched; use retypeField",
    );
    expect(patch({ multiple: true })).toBe(
      'ops.0 (updateField): Whether a select holds several values changes its values; use retypeField',
    );
    expect(patch(JSON.parse('{"__proto__": {"polluted": true}}'))).toBe(
      'ops.0 (updateField): "__proto__" is not a field property',
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(refusal([{ op: 'updateSchema', schema: 'page', patch: { fields: [] } as never }])).toBe(
      'ops.0 (updateSchema): "fields" is not a property of a schema that a patch may change',
    );
    expect(refusal([{ op: 'updateDomain', domain: 'site', patch: { name: 'x' } as never }])).toBe(
      'ops.0 (updateDomain): "name" is not a property of a domain that a patch may change',
    );
    expect(
      refusal([
        {
          op: 'retypeField',
          schema: 'page',
          key: 'teaser',
          field: { key: 'other', label: 'O', type: 'text' },
        },
      ]),
    ).toBe(
      'ops.0 (retypeField): Schema "page": the new definition of "teaser" has another key; rename the field instead',
    );
  });

  it('refuses indexes outside the list', () => {
    expect(refusal([{ op: 'moveField', schema: 'page', key: 'title', index: 4 }])).toBe(
      'ops.0 (moveField): Index 4 is outside 0–3',
    );
    expect(refusal([{ op: 'addDomain', domain: { name: 'x', title: 'X' }, index: -1 }])).toBe(
      'ops.0 (addDomain): Index -1 is outside 0–5',
    );
  });

  it('refuses a change set whose result is not a sound model, with the problem', () => {
    expect(refusal([{ op: 'removeField', schema: 'page', key: 'title' }])).toBe(
      'Schema "page", field "slug": slug source "title" names no other field',
    );
    expect(
      refusal([{ op: 'addField', schema: 'page', field: { key: 'id', label: 'Id', type: 'text' } }]),
    ).toBe('Schema "page": field key "id" is reserved; choose another');
  });

  it('changes the columns of a table field: add, rename, retype, move and remove', () => {
    const table: FieldDef = {
      key: 'prices',
      label: 'Prices',
      type: 'table',
      columns: [
        { key: 'label', label: 'Label', type: 'text' },
        { key: 'amount', label: 'Amount', type: 'text' },
      ],
    };
    const doc = applyOps(sample(), [{ op: 'addField', schema: 'page', field: table }]);
    const owner = { schema: 'page', table: 'prices' } as const;
    const after = applyOps(doc, [
      { op: 'addField', ...owner, field: { key: 'note', label: 'Note', type: 'text' } },
      { op: 'renameField', ...owner, from: 'label', to: 'name' },
      {
        op: 'retypeField',
        ...owner,
        key: 'amount',
        field: { key: 'amount', label: 'Amount', type: 'number' },
      },
      { op: 'moveField', ...owner, key: 'note', index: 0 },
      { op: 'removeField', ...owner, key: 'name' },
    ]);
    const columns = (fieldOf(after, 'page', 'prices') as Extract<FieldDef, { type: 'table' }>).columns;
    expect(columns.map((column) => [column.key, column.type])).toEqual([
      ['note', 'text'],
      ['amount', 'number'],
    ]);
    expect(keysOf(after, 'page')).toEqual(keysOf(doc, 'page'));
    expect(refusal([{ op: 'removeField', schema: 'page', table: 'title', key: 'x' }])).toBe(
      'ops.0 (removeField): Schema "page" has no table field "title"',
    );
    expect(refusal([{ op: 'removeField', ...owner, key: 'x' }], doc)).toBe(
      'ops.0 (removeField): Schema "page", table "prices" has no field "x"',
    );
  });
});

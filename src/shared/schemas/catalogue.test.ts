import { checkCodeBlocks, loadCode } from '../validation/code-blocks';
import { clampLabelWidth } from '../validation/label-width';
import {
  allSchemaNames,
  BUILT_IN_DOMAINS,
  DEFAULT_DOMAINS,
  domainOfSchema,
  getDomain,
  getSchema,
  schemasOfDomains,
} from './catalogue';
import { defineSchema } from './define';
import { splitEmailList } from './marketing';
import type { FieldDef, SchemaType } from './types';
import { FIELD_TYPES } from './types';

const fieldsOf = (name: string) => getSchema(name)!.fields;
const keysOf = (name: string) => fieldsOf(name).map((field) => field.key);
const field = (schema: string, key: string) => fieldsOf(schema).find((f) => f.key === key)!;
const required = (name: string) =>
  fieldsOf(name)
    .filter((f) => f.required)
    .map((f) => f.key);

function allFields(fields: readonly FieldDef[]): FieldDef[] {
  return fields.flatMap((f) => (f.type === 'table' ? [f, ...allFields(f.columns)] : [f]));
}

describe('built-in catalogue', () => {
  it('has the four domains, blogging the default and admin the only admin one', () => {
    expect(BUILT_IN_DOMAINS.map((d) => d.name)).toEqual(['marketing', 'assets', 'blogging', 'admin']);
    expect(DEFAULT_DOMAINS).toEqual(['blogging']);
    expect(BUILT_IN_DOMAINS.filter((d) => d.admin).map((d) => d.name)).toEqual(['admin']);
    expect(BUILT_IN_DOMAINS.every((d) => !d.disabled)).toBe(true);
  });

  it('puts each schema in its domain', () => {
    expect(getDomain('marketing')!.schemaRefs).toEqual([
      'customer-profile-attribute',
      'audience',
      'behavioral-event',
      'email',
      'campaign',
      'journey',
      'copy',
      'event',
    ]);
    expect(getDomain('assets')!.schemaRefs).toEqual(['marquee-assets-image-set']);
    expect(getDomain('blogging')!.schemaRefs).toEqual(['blog-post']);
    expect(getDomain('admin')!.schemaRefs).toEqual(['client-task', 'service', 'test-collection']);
    expect(domainOfSchema('copy')!.name).toBe('marketing');
    expect(getDomain('nope')).toBeUndefined();
    expect(getSchema('nope')).toBeUndefined();
  });

  it('gives each schema its listed fields', () => {
    expect(keysOf('customer-profile-attribute')).toEqual([
      'name',
      'key',
      'attributeType',
      'options',
      'protected',
      'description',
    ]);
    expect(keysOf('audience')).toEqual(['name', 'description', 'criteria', 'socialInterests']);
    expect(keysOf('behavioral-event')).toEqual(['name', 'key', 'properties', 'description']);
    expect(keysOf('email')).toEqual([
      'name',
      'subject',
      'preheader',
      'template',
      'textBody',
      'testAddresses',
      'images',
    ]);
    expect(keysOf('copy')).toEqual(['name', 'text', 'channel', 'startTime', 'endTime', 'combinations']);
    expect(keysOf('event')).toEqual([
      'name',
      'description',
      'location',
      'startTime',
      'endTime',
      'allowedLocations',
      'coverImage',
      'copy',
      'images',
    ]);
    expect(keysOf('marquee-assets-image-set')).toEqual([
      'masterImage',
      'name',
      'altText',
      'description',
      'labels',
      'locations',
      'startTime',
      'endTime',
    ]);
    expect(keysOf('blog-post')).toEqual([
      'name',
      'slug',
      'body',
      'excerpt',
      'coverImage',
      'tags',
      'author',
      'publishDate',
    ]);
    expect(keysOf('client-task')).toEqual(['name', 'description', 'dueDate']);
    expect(keysOf('service')).toEqual(['name', 'connection']);
    expect(keysOf('test-collection')).toEqual(['name', 'schema', 'code']);
  });

  it('uses the expected field types', () => {
    expect(field('client-task', 'dueDate').type).toBe('date');
    expect(field('blog-post', 'body').type).toBe('rich-text');
    expect(field('blog-post', 'slug')).toMatchObject({ type: 'name-slug', from: 'name' });
    expect(field('customer-profile-attribute', 'key')).toMatchObject({ type: 'name-slug', from: 'name' });
    expect(field('audience', 'criteria').type).toBe('criteria');
    expect(field('audience', 'socialInterests').type).toBe('social-interests');
    expect(field('email', 'template').type).toBe('email-template');
    expect(field('event', 'location').type).toBe('address');
    expect(field('service', 'connection').type).toBe('service-connection');
    expect(field('test-collection', 'schema').type).toBe('schema-selector');
    expect(field('test-collection', 'code').type).toBe('code');
    expect(field('marquee-assets-image-set', 'startTime').type).toBe('datetime');
    expect(field('marquee-assets-image-set', 'masterImage').type).toBe('file');
    const attributeType = field('customer-profile-attribute', 'attributeType');
    expect(attributeType.type === 'select' && attributeType.options.map((o) => o.value)).toEqual([
      'number',
      'string',
      'categorical',
      'boolean',
      'array',
      'date',
    ]);
    expect(field('customer-profile-attribute', 'options').displayIf).toEqual({
      field: 'attributeType',
      in: ['categorical', 'array'],
    });
  });

  it('marks the required fields', () => {
    expect(required('blog-post')).toEqual(['name', 'slug', 'body']);
    expect(required('client-task')).toEqual(['name']);
    expect(required('marquee-assets-image-set')).toEqual(['masterImage', 'name', 'altText']);
    expect(required('event')).toEqual(['name', 'startTime', 'endTime']);
    for (const name of allSchemaNames()) expect(required(name)).toContain('name');
  });

  it('lets only audiences and journeys be saved with errors', () => {
    expect(allSchemaNames().filter((name) => getSchema(name)!.allowSaveWithErrors)).toEqual([
      'audience',
      'journey',
    ]);
  });

  it('lets only copy hold variations and combinations', () => {
    const copy = getSchema('copy')!;
    expect(copy.allowCombinations).toBe(true);
    expect(copy.variations!.length).toBeGreaterThan(0);
    expect(copy.pluralTitle).toBe('Copies');
  });

  it('validates test addresses as comma-separated emails', async () => {
    const { validateField } = await import('../validation/validate-item');
    const testAddresses = field('email', 'testAddresses');
    expect(validateField(testAddresses, 'a@x.io, b@y.org')).toBeUndefined();
    expect(validateField(testAddresses, 'a@x.io, nope')).toBe(
      'Test Addresses must be comma-separated email addresses: a@x.io, nope',
    );
  });

  it('reads test addresses as splitEmailList does: blanks and empty entries are accepted', async () => {
    const { validateField } = await import('../validation/validate-item');
    const testAddresses = field('email', 'testAddresses');
    const email = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;
    const texts = [
      ' a@x.io ,b@y.org ',
      'a@x.io,,  ,b@y.org,',
      ' , ',
      '\ta@x.io\n',
      'a@b..c',
      'a@.b.c',
      'a@b.',
      'a@.b',
      'a@b',
      'a b@x.io',
      'a@x.io b@y.org',
      'a@@x.io',
      '@x.io',
      `a@${'b.'.repeat(5000)}@`,
    ];
    for (const text of texts) {
      const isList = splitEmailList(text).every((address) => email.test(address));
      expect(validateField(testAddresses, text) === undefined, text).toBe(isList);
    }
  });

  it('is plain JSON', () => {
    expect(JSON.parse(JSON.stringify(BUILT_IN_DOMAINS))).toEqual(BUILT_IN_DOMAINS);
  });

  it('locks the fields server code reads', () => {
    const locked = (name: string) =>
      fieldsOf(name)
        .filter((f) => f.locked)
        .map((f) => f.key);
    expect(locked('campaign')).toEqual([
      'name',
      'email',
      'audience',
      'sender',
      'subject',
      'sendAt',
      'provider',
      'noTracking',
      'experiment',
    ]);
    expect(locked('email')).toEqual([
      'name',
      'subject',
      'preheader',
      'template',
      'textBody',
      'testAddresses',
    ]);
    expect(locked('customer-profile-attribute')).toEqual([
      'name',
      'key',
      'attributeType',
      'options',
      'protected',
    ]);
    expect(locked('behavioral-event')).toEqual(['name', 'key', 'properties']);
    expect(locked('audience')).toEqual(['name', 'criteria']);
    expect(locked('marquee-assets-image-set')).toEqual([
      'masterImage',
      'name',
      'locations',
      'startTime',
      'endTime',
    ]);
    expect(locked('blog-post')).toEqual(['name', 'slug', 'body']);
    expect(locked('event')).toEqual(['name', 'startTime', 'endTime', 'allowedLocations', 'copy', 'images']);
    expect(locked('copy')).toEqual(['name', 'startTime', 'endTime']);
    expect(locked('service')).toEqual(['name', 'connection']);
    for (const name of allSchemaNames()) expect(field(name, 'name').locked).toBe(true);
  });

  it("limits an email's preheader to 250 characters", async () => {
    const { validateField } = await import('../validation/validate-item');
    const preheader = field('email', 'preheader');
    expect(validateField(preheader, 'x'.repeat(250))).toBeUndefined();
    expect(validateField(preheader, 'x'.repeat(251))).toBe('Preheader must be at most 250 characters');
  });

  describe.each(BUILT_IN_DOMAINS.flatMap((d) => d.schemas.map((s) => [s.name, s] as [string, SchemaType])))(
    '%s is consistent',
    (_, schema) => {
      const keys = schema.fields.map((f) => f.key);

      it('has unique camelCase field keys, known types and labels', () => {
        expect(new Set(keys).size).toBe(keys.length);
        for (const f of allFields(schema.fields)) {
          expect(FIELD_TYPES).toContain(f.type);
          expect(f.label).not.toBe('');
          expect(f.key).toMatch(/^[A-Za-z][A-Za-z0-9]*$/);
          expect(clampLabelWidth(f.labelWidth)).toBe(f.labelWidth ?? 5);
        }
      });

      it('has topFields and thumbnail among its fields and a plural title', () => {
        expect(schema.topFields.length).toBeGreaterThan(0);
        for (const key of schema.topFields) expect(keys).toContain(key);
        if (schema.thumbnail) expect(field(schema.name, schema.thumbnail).type).toBe('file');
        expect(schema.pluralTitle.length).toBeGreaterThan(schema.title.length);
      });

      it('refers only to fields and schemas that exist', () => {
        for (const f of allFields(schema.fields)) {
          if (f.displayIf) expect(keys).toContain(f.displayIf.field);
          if (f.type === 'name-slug') expect(keys).toContain(f.from);
          if (f.type === 'reference' || f.type === 'reference-list') {
            for (const target of f.schemaTypes) expect(allSchemaNames()).toContain(target);
          }
        }
      });

      it('has a combinations field exactly when it allows combinations, and then variations', () => {
        const hasCombinations = schema.fields.some((f) => f.type === 'combinations');
        expect(hasCombinations).toBe(schema.allowCombinations === true);
        if (hasCombinations) expect(schema.variations?.length).toBeGreaterThan(0);
      });

      it('has default code that passes its own block guard', () => {
        for (const f of schema.fields) {
          if (f.type === 'code') expect(checkCodeBlocks(f, loadCode(f, '').code)).toBeUndefined();
        }
      });
    },
  );
});

describe('catalogue helpers', () => {
  it('lists the schemas of domains in order, ignoring unknown names and duplicates', () => {
    expect(schemasOfDomains(['blogging', 'assets', 'nope', 'blogging']).map((s) => s.name)).toEqual([
      'blog-post',
      'marquee-assets-image-set',
    ]);
    expect(schemasOfDomains([])).toEqual([]);
  });

  it('gives no schemas for a disabled domain', () => {
    const disabled = BUILT_IN_DOMAINS.map((d) => (d.name === 'assets' ? { ...d, disabled: true } : d));
    expect(schemasOfDomains(['assets', 'blogging'], disabled).map((s) => s.name)).toEqual(['blog-post']);
  });

  it('lists all schema names once', () => {
    const names = allSchemaNames();
    expect(names).toHaveLength(13);
    expect(new Set(names).size).toBe(13);
  });

  it("defaults pluralTitle to title + 's'", () => {
    const schema = defineSchema({ name: 'x', title: 'Widget', icon: 'box', fields: [], topFields: [] });
    expect(schema.pluralTitle).toBe('Widgets');
  });
});

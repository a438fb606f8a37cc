import fc from 'fast-check';
import { composeCode } from '../validation/code-blocks';
import { validateItem } from '../validation/validate-item';
import { TEST_BEGIN_BLOCK, TEST_END_BLOCK } from './admin';
import { allSchemaNames, getSchema } from './catalogue';
import type { FieldDef, SchemaType } from './types';
import { itemDataSchema } from './zod';

const image = {
  name: 'cat.png',
  size: 1536,
  contentType: 'image/png',
  storageName: 'ws/cat.png',
  publicUrl: 'https://example.com/cat.png',
  focusX: 0.5,
  focusY: 0.5,
};
const imageRef = { id: 'img-1', schemaType: 'marquee-assets-image-set', label: 'Cat', thumbId: 'ws/cat.png' };

/** A complete, valid item of each built-in schema. */
const samples: Record<string, Record<string, unknown>> = {
  'customer-profile-attribute': {
    name: 'Favourite colour',
    key: 'favourite-colour',
    attributeType: 'categorical',
    options: ['red', 'blue'],
    description: 'Asked at sign-up',
  },
  audience: {
    name: 'Big spenders',
    description: '',
    criteria: {
      label: '1',
      predicate: 'and',
      children: [
        {
          type: 'attribute',
          predicate: { attribute: { schemaType: 'x', id: '1', label: 'Age' } },
          operator: '>',
          value: 30,
        },
        { label: '1.2', predicate: 'or', story: 'either', children: [] },
      ],
    },
    socialInterests: [{ id: '6003', name: 'Cooking', type: 'interests' }],
  },
  'behavioral-event': {
    name: 'Checkout',
    key: 'checkout',
    properties: [
      { name: 'total', type: 'number' },
      { name: 'coupon', type: 'string' },
    ],
  },
  email: {
    name: 'Welcome',
    subject: 'Hello',
    template: {
      'gjs-nl-html': '<p>Hi</p>',
      'gjs-nl-css': '',
      'gjs-nl-components': [],
      combinedMarkup: '<p>Hi</p>',
    },
    textBody: 'Hi',
    testAddresses: 'a@x.io, b@y.org',
    images: [imageRef],
  },
  campaign: {
    name: 'Autumn launch',
    email: { schemaType: 'email', id: 'e1', label: 'Welcome' },
    audience: { schemaType: 'audience', id: 'a1', label: 'Big spenders' },
    sender: 'sndr1',
    subject: 'Hello {{firstName}}',
    sendAt: '2024-03-01T17:00:00.000Z',
    sendAt_tz: 'Europe/Paris',
    provider: 'smtp',
    noTracking: false,
    experiment: {
      variants: [{ subject: 'Hello' }, { email: { schemaType: 'email', id: 'e2' }, fromName: 'Ada at Acme' }],
      testPercent: 20,
      holdoutPercent: 5,
      waitHours: 4,
      winnerBy: 'clicks',
    },
    notes: 'Approved by legal',
  },
  journey: {
    name: 'Welcome',
    definition: '{"entry":{"kind":"api"},"start":"done","steps":[{"id":"done","type":"exit"}],"edges":[]}',
    description: 'New customers',
  },
  copy: {
    name: 'Headline',
    text: 'Big sale',
    channel: 'web',
    startTime: '2024-03-01T17:00:00.000Z',
    startTime_tz: 'America/Chicago',
    endTime: '2024-03-02T17:00:00Z',
    endTime_tz: 'America/Chicago',
    _variation: { locale: 'en-US' },
    combinations: [
      {
        _slug: 'fr-mobile',
        variations: { locale: 'fr-FR', device: 'mobile' },
        overrides: { text: 'Soldes' },
      },
    ],
  },
  event: {
    name: 'Launch',
    description: 'Party',
    location: {
      rawAddress: '1 Main St',
      city: 'Springfield',
      latitude: 1.5,
      longitude: 2,
      geohash: { p_1: 's' },
    },
    startTime: '2024-03-01T17:00:00Z',
    startTime_tz: 'UTC',
    endTime: '2024-03-01T20:00:00Z',
    endTime_tz: 'UTC',
    allowedLocations: ['US', 'CA'],
    coverImage: image,
    copy: [{ id: 'c1', schemaType: 'copy', label: 'Headline' }],
    images: [imageRef],
  },
  'marquee-assets-image-set': {
    masterImage: image,
    name: 'Cat',
    altText: 'A cat',
    labels: ['cat'],
    locations: ['US'],
    startTime: '2024-03-01T17:00:00Z',
    startTime_tz: 'America/Los_Angeles',
    endTime: null,
    endTime_tz: null,
  },
  'blog-post': {
    name: 'Hello World',
    slug: 'hello-world',
    body: '<p>Hi</p>',
    excerpt: 'Hi',
    coverImage: image,
    tags: ['news'],
    author: 'Ada',
    publishDate: '2024-03-01',
  },
  'client-task': { name: 'Call back', description: 'Soon', dueDate: '2024-03-01' },
  service: {
    name: 'Ads',
    connection: {
      provider: 'facebook',
      encTokens: 'x',
      profile: { name: 'Ada' },
      serviceStatus: 'success',
      serviceDetails: { pageId: '1' },
    },
  },
  'test-collection': {
    name: 'Smoke',
    schema: 'blog-post',
    code: composeCode({ beginBlock: TEST_BEGIN_BLOCK, endBlock: TEST_END_BLOCK }, '  return true;'),
  },
};

const schemaOf = (name: string) => getSchema(name)!;
const parse = (name: string, data: unknown) => itemDataSchema(schemaOf(name)).safeParse(data);
const messages = (name: string, data: unknown) =>
  parse(name, data).error?.issues.map((issue) => issue.message) ?? [];

describe('itemDataSchema', () => {
  it('has a sample for every built-in schema', () => {
    expect(Object.keys(samples).sort()).toEqual(allSchemaNames().sort());
  });

  it.each(allSchemaNames())('accepts a complete %s, which the form rules also accept', (name) => {
    const result = parse(name, samples[name]);
    expect(result.error?.issues ?? []).toEqual([]);
    expect(validateItem(schemaOf(name), samples[name])).toEqual({});
  });

  it.each(allSchemaNames())('does not enforce required fields for %s: an empty item parses', (name) => {
    expect(parse(name, {}).success).toBe(true);
    expect(Object.keys(validateItem(schemaOf(name), {})).length).toBeGreaterThan(0);
  });

  it('accepts null for any field (a cleared value)', () => {
    expect(parse('blog-post', { name: null, tags: null, coverImage: null }).success).toBe(true);
  });

  it('rejects unknown fields with a message naming them', () => {
    expect(messages('blog-post', { name: 'x', colour: 'red' })).toEqual([
      'Unknown field "colour" in blog-post',
    ]);
    expect(messages('client-task', { a: 1, b: 2 })).toEqual(['Unknown fields "a", "b" in client-task']);
  });

  it('rejects any key that is not a field, at every schema', () => {
    fc.assert(
      fc.property(fc.constantFrom(...allSchemaNames()), fc.string({ minLength: 1 }), (name, key) => {
        const known = new Set(Object.keys(samples[name]));
        for (const field of schemaOf(name).fields) known.add(field.key).add(`${field.key}_tz`);
        known.add('_variation');
        fc.pre(!known.has(key) && key !== '__proto__');
        const result = parse(name, { ...samples[name], [key]: 'x' });
        expect(result.success).toBe(false);
        expect(result.error!.issues[0].message).toContain(`"${key}"`);
      }),
    );
  });

  it('rejects unknown keys inside table rows and files', () => {
    expect(messages('behavioral-event', { properties: [{ name: 'a', type: 'string', extra: 1 }] })).toEqual([
      'Unknown field "extra" in Properties row',
    ]);
    expect(messages('blog-post', { coverImage: { ...image, url: 'x' } })).toEqual([
      'Unknown field "url" in file',
    ]);
  });

  it('allows a `_tz` companion only beside date-time fields, holding a known zone', () => {
    expect(parse('copy', { startTime_tz: 'Europe/Paris' }).success).toBe(true);
    expect(messages('copy', { startTime_tz: 'Mars/Base' })).toEqual(['Unknown time zone']);
    expect(messages('copy', { name_tz: 'UTC' })).toEqual(['Unknown field "name_tz" in copy']);
    expect(messages('client-task', { dueDate_tz: 'UTC' })).toEqual([
      'Unknown field "dueDate_tz" in client-task',
    ]);
  });

  it('allows `_variation` and combinations only where the schema says', () => {
    expect(messages('blog-post', { _variation: { locale: 'en-US' } })).toEqual([
      'Unknown field "_variation" in blog-post',
    ]);
    expect(parse('copy', { _variation: { locale: 'xx' } }).success).toBe(false);
    expect(
      parse('copy', { combinations: [{ _slug: 'a', variations: { colour: 'red' }, overrides: {} }] }).success,
    ).toBe(false);
    expect(
      parse('copy', { combinations: [{ _slug: 'a', variations: {}, overrides: { nope: 1 } }] }).success,
    ).toBe(false);
    const noCombinations: SchemaType = { ...schemaOf('copy'), allowCombinations: false };
    expect(itemDataSchema(noCombinations).safeParse({ combinations: [] }).success).toBe(false);
  });

  it('checks override values with the overridden field type', () => {
    const row = (overrides: Record<string, unknown>) => ({
      combinations: [{ _slug: 'a', variations: {}, overrides }],
    });
    expect(parse('copy', row({ startTime: '2024-03-01T17:00:00Z', startTime_tz: 'UTC' })).success).toBe(true);
    expect(parse('copy', row({ startTime: 'tomorrow' })).success).toBe(false);
  });

  it('restricts references to their schema types', () => {
    expect(parse('event', { copy: [imageRef] }).error?.issues[0].message).toBe('Reference must be to copy');
  });

  it.each([
    ['blog-post', { name: 1 }],
    ['blog-post', { tags: 'news' }],
    ['blog-post', { tags: [1] }],
    ['blog-post', { publishDate: '2024/03/01' }],
    ['blog-post', { publishDate: '2024-02-30' }],
    ['copy', { startTime: '2024-03-01 10:00' }],
    ['copy', { channel: ['web'] }],
    ['event', { allowedLocations: 'US' }],
    ['event', { coverImage: { ...image, focusX: 2 } }],
    ['event', { location: { latitude: 'north' } }],
    ['event', { location: { geohash: { p_13: 's' } } }],
    ['event', { copy: [{ schemaType: 'copy' }] }],
    ['customer-profile-attribute', { options: 'a,b' }],
    ['audience', { criteria: { label: '1', predicate: 'xor', children: [] } }],
    ['audience', { criteria: { label: '1', predicate: 'and', children: [{ type: 'nope' }] } }],
    ['audience', { socialInterests: [{ id: '1' }] }],
    ['service', { connection: { encTokens: 'x' } }],
    ['email', { template: { 'gjs-nl-html': 1 } }],
    ['test-collection', { code: 42 }],
  ])('rejects a wrongly shaped value: %s %j', (name, data) => {
    expect(parse(name, data).success).toBe(false);
  });

  it('checks number, range, boolean and country shapes', () => {
    const fields: FieldDef[] = [
      { key: 'n', label: 'N', type: 'number' },
      { key: 'r', label: 'R', type: 'range', min: 0, max: 10 },
      { key: 'b', label: 'B', type: 'boolean' },
      { key: 'c', label: 'C', type: 'country' },
      { key: 'g', label: 'G', type: 'generatable', generateLength: 12 },
      { key: 's', label: 'S', type: 'reference', schemaTypes: ['copy'] },
    ];
    const schema = itemDataSchema({
      name: 't',
      title: 'T',
      pluralTitle: 'Ts',
      icon: 'x',
      fields,
      topFields: [],
    });
    expect(
      schema.safeParse({ n: 1.5, r: 3, b: false, c: 'FR', g: 'abc', s: { id: '1', schemaType: 'copy' } })
        .success,
    ).toBe(true);
    for (const bad of [{ n: '1' }, { n: Number.NaN }, { r: 1.5 }, { b: 'true' }, { c: 'XX' }, { s: [] }]) {
      expect(schema.safeParse(bad).success).toBe(false);
    }
  });
});

import type { Reference } from '@shared/schemas/types';
import { TEST_BEGIN_BLOCK, TEST_END_BLOCK } from '@shared/schemas/admin';
import type { ItemData } from '../components/fields/types';

/** Sample data for every built-in schema: the preview page and the form's smoke tests use them. */
const SAMPLE_REFERENCES: Reference[] = [
  { id: 'img-101', schemaType: 'marquee-assets-image-set', label: 'Summer hero banner', thumbId: 'hero.jpg' },
  { id: 'img-102', schemaType: 'marquee-assets-image-set', label: 'Beach product shot' },
  { id: 'img-103', schemaType: 'marquee-assets-image-set' },
  { id: 'copy-201', schemaType: 'copy', label: 'Summer sale headline' },
  { id: 'copy-202', schemaType: 'copy', label: 'Free shipping footer' },
];

const image = (name: string, size: number) => ({
  name,
  size,
  contentType: 'image/jpeg',
  storageName: `assets/${name}`,
  publicUrl: `data:image/svg+xml;utf8,${encodeURIComponent(
    "<svg xmlns='http://www.w3.org/2000/svg' width='160' height='120'><defs><linearGradient id='g' x1='0' x2='1' y1='0' y2='1'><stop offset='0' stop-color='#8e80ea'/><stop offset='1' stop-color='#f59f00'/></linearGradient></defs><rect width='160' height='120' fill='url(#g)'/><circle cx='120' cy='32' r='16' fill='#fff3bf'/></svg>",
  )}`,
});

export const SAMPLE_ITEMS: Record<string, { before: ItemData; after: ItemData }> = {
  'customer-profile-attribute': {
    before: {
      name: 'Favourite colour',
      key: 'favourite-colour',
      attributeType: 'categorical',
      options: ['red', 'green'],
      description: 'Asked at sign-up.',
    },
    after: {
      name: 'Favourite colour',
      key: 'favourite-colour',
      attributeType: 'categorical',
      options: ['red', 'green', 'blue', 'teal'],
      description: 'Asked at sign-up and in the preference centre.',
    },
  },
  audience: {
    before: { name: 'Lapsed buyers', description: 'Bought once, nothing in 90 days.' },
    after: {
      name: 'Lapsed buyers',
      description: 'Bought once, nothing in 90 days.',
      criteria: {
        label: '1',
        predicate: 'and',
        children: [
          {
            type: 'attribute',
            predicate: { attribute: { schemaType: 'customer-profile-attribute', id: 'a1', label: 'Orders' } },
            operator: '==',
            value: 1,
          },
          {
            type: 'event',
            event: { label: 'Purchase' },
            lookBackUnit: 'days',
            lookBackValue: 90,
            aggregator: 'COUNT',
            aggregatorCondition: '==',
            aggregatorValue: 0,
          },
        ],
      },
      socialInterests: [
        { id: '6003', name: 'Beaches' },
        { id: '6004', name: 'Surfing', type: 'interests' },
      ],
    },
  },
  'behavioral-event': {
    before: { name: 'Added to cart', key: 'added-to-cart', properties: [{ name: 'sku', type: 'string' }] },
    after: {
      name: 'Added to cart',
      key: 'added-to-cart',
      properties: [
        { name: 'sku', type: 'string' },
        { name: 'price', type: 'number' },
        { name: 'legacy_flag', type: 'bool' },
      ],
      description: 'Fired by the storefront when a product is added to the cart.',
    },
  },
  email: {
    before: { name: 'Welcome email', subject: 'Welcome to Acme!' },
    after: {
      name: 'Welcome email',
      subject: 'Welcome to Acme, glad you are here',
      template: {
        combinedMarkup:
          '<h2>Welcome aboard</h2><p>Thanks for joining <strong>Acme</strong>. Here is <a href="https://example.com">your first offer</a>.</p>',
      },
      textBody: 'Welcome aboard!\nThanks for joining Acme.',
      testAddresses: 'ada@example.com, grace@example.com',
      images: [SAMPLE_REFERENCES[0], SAMPLE_REFERENCES[2]],
    },
  },
  campaign: {
    before: {
      name: 'Autumn newsletter',
      email: { id: 'email-1', schemaType: 'email', label: 'Welcome email' },
      audience: { id: 'aud-1', schemaType: 'audience', label: 'Loyal buyers' },
      sender: 'sender-1',
    },
    after: {
      name: 'Autumn newsletter',
      email: { id: 'email-1', schemaType: 'email', label: 'Welcome email' },
      audience: { id: 'aud-1', schemaType: 'audience', label: 'Loyal buyers' },
      sender: 'sender-1',
      subject: 'Autumn is here, {{firstName}}',
      sendAt: '2025-10-01T08:00:00.000Z',
      sendAt_tz: 'Europe/London',
      provider: 'smtp',
      notes: 'Goes out with the catalogue.',
    },
  },
  journey: {
    before: {
      name: 'Welcome',
      definition: '{"entry":{"event":"signup"},"steps":[]}',
    },
    after: {
      name: 'Welcome',
      definition: '{"entry":{"event":"signup"},"steps":[{"id":"welcome","type":"exit"}]}',
      description: 'Greets every new customer once.',
    },
  },
  copy: {
    before: { name: 'Summer sale headline', text: 'Summer sale: 20% off' },
    after: {
      name: 'Summer sale headline',
      text: 'Summer sale: 25% off everything',
      channel: 'web',
      startTime: '2025-06-01T16:00:00.000Z',
      startTime_tz: 'America/Los_Angeles',
      endTime: '2025-06-30T23:59:00.000Z',
      endTime_tz: 'America/New_York',
      combinations: [
        {
          _slug: 'uk-mobile',
          variations: { locale: 'en-GB', device: 'mobile' },
          overrides: { text: 'Summer sale: 25% off, mate' },
        },
        {
          _slug: 'spanish',
          variations: { locale: 'es-ES' },
          overrides: { text: 'Rebajas de verano: 25%', channel: 'social' },
        },
      ],
    },
  },
  event: {
    before: {
      name: 'Launch party',
      startTime: '2025-07-04T01:00:00.000Z',
      startTime_tz: 'America/New_York',
      endTime: '2025-07-04T04:00:00.000Z',
      endTime_tz: 'America/New_York',
    },
    after: {
      name: 'Launch party',
      description: 'Drinks and demos on the roof.',
      location: {
        streetNumber: '350',
        streetAddress: '5th Avenue',
        city: 'New York',
        state: 'NY',
        postal_code: '10118',
        country: 'US',
        latitude: 40.748817,
        longitude: -73.985428,
      },
      startTime: '2025-07-04T00:00:00.000Z',
      startTime_tz: 'America/New_York',
      endTime: '2025-07-04T04:00:00.000Z',
      endTime_tz: 'America/New_York',
      allowedLocations: ['US', 'CA', 'XK'],
      coverImage: image('roof.jpg', 1_572_864),
      copy: [SAMPLE_REFERENCES[3]],
      images: [SAMPLE_REFERENCES[0], SAMPLE_REFERENCES[1]],
    },
  },
  'marquee-assets-image-set': {
    before: { masterImage: image('hero.jpg', 245_760), name: 'Summer hero', altText: 'A beach at sunset' },
    after: {
      masterImage: image('hero.jpg', 245_760),
      name: 'Summer hero banner',
      altText: 'A beach at sunset with two surfboards',
      description: 'Used on the home page in June.',
      labels: ['beach', 'summer', 'sunset'],
      locations: ['US', 'GB'],
      startTime: '2025-06-01T07:00:00.000Z',
      startTime_tz: 'America/Los_Angeles',
    },
  },
  'blog-post': {
    before: { name: 'Ten summer looks', slug: 'ten-summer-looks', body: '<p>Our favourite looks.</p>' },
    after: {
      name: 'Ten summer looks',
      slug: 'ten-summer-looks',
      body: '<h2>Ten looks</h2><p>Our favourite looks for <em>this</em> summer.</p><ul><li>Linen</li><li>Straw hats</li></ul>',
      excerpt: 'Our favourite looks for this summer.',
      coverImage: image('looks.jpg', 3_145_728),
      tags: ['fashion', 'summer'],
      author: 'Grace Hopper',
      publishDate: '2025-06-15',
    },
  },
  'client-task': {
    before: { name: 'Send Q3 report', dueDate: '2025-09-30' },
    after: {
      name: 'Send Q3 report',
      description: 'Numbers from the warehouse, charts from marketing.',
      dueDate: '2025-10-03',
    },
  },
  service: {
    before: { name: 'Facebook page' },
    after: {
      name: 'Facebook page',
      connection: {
        provider: 'facebook',
        serviceStatus: 'connected',
        profile: { name: 'Acme Marketing' },
        serviceDetails: { pageId: '123' },
      },
    },
  },
  'test-collection': {
    before: { name: 'Image sets have alt text', schema: 'marquee-assets-image-set' },
    after: {
      name: 'Image sets have alt text',
      schema: 'marquee-assets-image-set',
      code: `${TEST_BEGIN_BLOCK}  const items = await api.list('marquee-assets-image-set');\n  return items.every((item) => item.altText);${TEST_END_BLOCK}`,
    },
  },
};

/** A reference search over the sample references. */
export async function sampleReferenceSearch(
  schemaTypes: readonly string[],
  query: string,
): Promise<Reference[]> {
  const needle = query.trim().toLowerCase();
  return SAMPLE_REFERENCES.filter(
    (reference) =>
      schemaTypes.includes(reference.schemaType) &&
      (!needle || (reference.label ?? '').toLowerCase().includes(needle)),
  );
}

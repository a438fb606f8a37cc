import { COUNTRY_OPTIONS } from '../geo/countries';
import { defineDomain, defineSchema } from './define';
import type { FieldDef, SelectOption } from './types';

const EMAIL_PATTERN = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;
/** Inboxes show about 100 characters of preview text; a little more leaves room for merge tags. */
const PREHEADER_MAX = 250;

/** 'a@x.io, b@y.org' → ['a@x.io', 'b@y.org']; blanks between commas are dropped. */
export function splitEmailList(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

export const ATTRIBUTE_TYPES = ['number', 'string', 'categorical', 'boolean', 'array', 'date'] as const;

const options = (values: readonly string[]): SelectOption[] =>
  values.map((value) => ({ value, label: value[0].toUpperCase() + value.slice(1) }));

const name: FieldDef = { key: 'name', label: 'Name', type: 'text', required: true };
const description: FieldDef = { key: 'description', label: 'Description', type: 'multiline' };
/** The key imports, events and criteria use: kept as typed when it is a data key, else kebab-cased. */
const dataKey: FieldDef = {
  key: 'key',
  label: 'Key',
  type: 'name-slug',
  from: 'name',
  required: true,
  keepsDataKeys: true,
  description:
    'Letters, digits, _ and -, starting with a letter (firstName, page_view). Other text becomes kebab-case. Leave empty to derive it from the name.',
};

const customerProfileAttribute = defineSchema({
  name: 'customer-profile-attribute',
  title: 'Customer Profile Attribute',
  icon: 'user-circle',
  fields: [
    name,
    dataKey,
    {
      key: 'attributeType',
      label: 'Attribute Type',
      type: 'select',
      options: options(ATTRIBUTE_TYPES),
      required: true,
    },
    {
      key: 'options',
      label: 'Options',
      type: 'tags',
      required: true,
      displayIf: { field: 'attributeType', in: ['categorical', 'array'] },
      description: 'The values a categorical or array attribute may take.',
    },
    {
      key: 'protected',
      label: 'Protected',
      type: 'boolean',
      description:
        'Write keys (websites and apps) may set it on a profile that has none, never change it; server keys may. An email attribute is protected unless this is switched off.',
    },
    description,
  ],
  topFields: ['name', 'key', 'attributeType'],
});

const audience = defineSchema({
  name: 'audience',
  title: 'Audience',
  icon: 'users-group',
  fields: [
    name,
    description,
    { key: 'criteria', label: 'Criteria', type: 'criteria', labelWidth: 12 },
    { key: 'socialInterests', label: 'Social Interests', type: 'social-interests' },
  ],
  topFields: ['name', 'description'],
  // Criteria trees are built up over several sessions; an incomplete audience may be saved as a draft.
  allowSaveWithErrors: true,
});

export const PROPERTY_TYPES = ['string', 'number', 'boolean', 'date', 'array'] as const;

const behavioralEvent = defineSchema({
  name: 'behavioral-event',
  title: 'Behavioral Event',
  icon: 'activity',
  fields: [
    name,
    dataKey,
    {
      key: 'properties',
      label: 'Properties',
      type: 'table',
      columns: [
        { key: 'name', label: 'Name', type: 'text', required: true },
        { key: 'type', label: 'Type', type: 'select', options: options(PROPERTY_TYPES), required: true },
      ],
    },
    description,
  ],
  topFields: ['name', 'key'],
});

const email = defineSchema({
  name: 'email',
  title: 'Email Template',
  icon: 'mail',
  fields: [
    name,
    { key: 'subject', label: 'Subject', type: 'text', required: true },
    {
      key: 'preheader',
      label: 'Preheader',
      type: 'text',
      description: 'The preview text inboxes show after the subject (hidden in the email itself).',
      validators: [
        {
          test: (value) => typeof value !== 'string' || value.length <= PREHEADER_MAX,
          message: `%l must be at most ${PREHEADER_MAX} characters`,
        },
      ],
    },
    { key: 'template', label: 'Template', type: 'email-template', labelWidth: 12 },
    { key: 'textBody', label: 'Text Body', type: 'multiline' },
    {
      key: 'testAddresses',
      label: 'Test Addresses',
      type: 'text',
      description: 'Comma-separated email addresses that receive test sends.',
      validators: [
        {
          test: (value) =>
            typeof value === 'string' &&
            splitEmailList(value).every((address) => EMAIL_PATTERN.test(address)),
          message: '%l must be comma-separated email addresses: %v',
        },
      ],
    },
    { key: 'images', label: 'Images', type: 'reference-list', schemaTypes: ['marquee-assets-image-set'] },
  ],
  topFields: ['name', 'subject'],
});

const COPY_CHANNELS = ['email', 'social', 'web', 'sms', 'push'] as const;

export const copy = defineSchema({
  name: 'copy',
  title: 'Copy',
  pluralTitle: 'Copies',
  icon: 'file-text',
  fields: [
    name,
    { key: 'text', label: 'Text', type: 'multiline', required: true },
    { key: 'channel', label: 'Channel', type: 'select', options: options(COPY_CHANNELS) },
    { key: 'startTime', label: 'Start Time', type: 'datetime' },
    { key: 'endTime', label: 'End Time', type: 'datetime' },
    { key: 'combinations', label: 'Combinations', type: 'combinations', labelWidth: 12 },
  ],
  variations: [
    {
      name: 'locale',
      label: 'Locale',
      options: [
        { value: 'en-US', label: 'English (US)' },
        { value: 'en-GB', label: 'English (UK)' },
        { value: 'es-ES', label: 'Spanish' },
        { value: 'fr-FR', label: 'French' },
        { value: 'de-DE', label: 'German' },
      ],
    },
    {
      name: 'device',
      label: 'Device',
      options: [
        { value: 'desktop', label: 'Desktop' },
        { value: 'mobile', label: 'Mobile' },
      ],
    },
  ],
  allowCombinations: true,
  topFields: ['name', 'text', 'channel'],
});

export const event = defineSchema({
  name: 'event',
  title: 'Event',
  icon: 'calendar-event',
  thumbnail: 'coverImage',
  fields: [
    name,
    description,
    { key: 'location', label: 'Location', type: 'address' },
    { key: 'startTime', label: 'Start Time', type: 'datetime', required: true },
    { key: 'endTime', label: 'End Time', type: 'datetime', required: true },
    {
      key: 'allowedLocations',
      label: 'Allowed Locations',
      type: 'select',
      multiple: true,
      options: COUNTRY_OPTIONS,
    },
    { key: 'coverImage', label: 'Cover Image', type: 'file', accept: 'image/*' },
    { key: 'copy', label: 'Copy', type: 'reference-list', schemaTypes: ['copy'] },
    { key: 'images', label: 'Images', type: 'reference-list', schemaTypes: ['marquee-assets-image-set'] },
  ],
  topFields: ['name', 'startTime', 'endTime'],
});

const campaign = defineSchema({
  name: 'campaign',
  title: 'Campaign',
  icon: 'send',
  fields: [
    name,
    { key: 'email', label: 'Email', type: 'reference', schemaTypes: ['email'], required: true },
    { key: 'audience', label: 'Audience', type: 'reference', schemaTypes: ['audience'], required: true },
    { key: 'sender', label: 'Sender', type: 'sender', required: true },
    {
      key: 'subject',
      label: 'Subject',
      type: 'text',
      description: "Leave empty to use the email template's subject. Merge tags are filled per recipient.",
    },
    {
      key: 'sendAt',
      label: 'Send Time',
      type: 'datetime',
      description: 'Leave empty to send when Send is pressed; otherwise Send queues it for this time.',
    },
    {
      key: 'provider',
      label: 'Provider',
      type: 'select',
      options: [
        { value: 'smtp', label: 'SMTP' },
        { value: 'sendgrid', label: 'SendGrid' },
      ],
      description: 'Empty: SMTP.',
    },
    {
      key: 'noTracking',
      label: 'Do not track opens and clicks',
      type: 'boolean',
    },
    { key: 'notes', label: 'Notes', type: 'multiline' },
  ],
  topFields: ['name', 'subject', 'sendAt'],
});

export const marketing = defineDomain({
  name: 'marketing',
  title: 'Marketing',
  schemas: [customerProfileAttribute, audience, behavioralEvent, email, campaign, copy, event],
});

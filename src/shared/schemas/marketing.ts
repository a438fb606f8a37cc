import { COUNTRY_OPTIONS } from '../geo/countries';
import { defineDomain, defineSchema } from './define';
import type { FieldDef, SelectOption } from './types';

/** Inboxes show about 100 characters of preview text; a little more leaves room for merge tags. */
const PREHEADER_MAX = 250;

/**
 * One address: no blanks, `@` or commas, and a dot inside its domain. The lookahead keeps the match
 * linear in the text's length (a domain part written as `x+\.x+` backtracks quadratically on many dots).
 */
const EMAIL_SOURCE = '[^\\s@,]+@(?=[^\\s@,]+\\.[^\\s@,])[^\\s@,]+';
/** Comma-separated addresses, blanks around them and empty entries allowed (as `splitEmailList` reads them). */
const EMAIL_LIST_SOURCE = `^\\s*(?:${EMAIL_SOURCE}\\s*)?(?:,\\s*(?:${EMAIL_SOURCE}\\s*)?)*$`;

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

const name: FieldDef = { key: 'name', label: 'Name', type: 'text', required: true, locked: true };
const description: FieldDef = { key: 'description', label: 'Description', type: 'multiline' };
/** The key imports, events and criteria use: kept as typed when it is a data key, else kebab-cased. */
const dataKey: FieldDef = {
  key: 'key',
  label: 'Key',
  type: 'name-slug',
  from: 'name',
  required: true,
  keepsDataKeys: true,
  locked: true,
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
      locked: true,
    },
    {
      key: 'options',
      label: 'Options',
      type: 'tags',
      required: true,
      locked: true,
      displayIf: { field: 'attributeType', in: ['categorical', 'array'] },
      description: 'The values a categorical or array attribute may take.',
    },
    {
      key: 'protected',
      label: 'Protected',
      type: 'boolean',
      locked: true,
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
    { key: 'criteria', label: 'Criteria', type: 'criteria', labelWidth: 12, locked: true },
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
      locked: true,
      columns: [
        { key: 'name', label: 'Name', type: 'text', required: true, locked: true },
        {
          key: 'type',
          label: 'Type',
          type: 'select',
          options: options(PROPERTY_TYPES),
          required: true,
          locked: true,
        },
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
    { key: 'subject', label: 'Subject', type: 'text', required: true, locked: true },
    {
      key: 'preheader',
      label: 'Preheader',
      type: 'text',
      locked: true,
      description: 'The preview text inboxes show after the subject (hidden in the email itself).',
      validators: [
        {
          expression: `^[\\s\\S]{0,${PREHEADER_MAX}}$`,
          message: `%l must be at most ${PREHEADER_MAX} characters`,
        },
      ],
    },
    { key: 'template', label: 'Template', type: 'email-template', labelWidth: 12, locked: true },
    { key: 'textBody', label: 'Text Body', type: 'multiline', locked: true },
    {
      key: 'testAddresses',
      label: 'Test Addresses',
      type: 'text',
      locked: true,
      description: 'Comma-separated email addresses that receive test sends.',
      validators: [
        { expression: EMAIL_LIST_SOURCE, message: '%l must be comma-separated email addresses: %v' },
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
    { key: 'startTime', label: 'Start Time', type: 'datetime', locked: true },
    { key: 'endTime', label: 'End Time', type: 'datetime', locked: true },
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
    { key: 'startTime', label: 'Start Time', type: 'datetime', required: true, locked: true },
    { key: 'endTime', label: 'End Time', type: 'datetime', required: true, locked: true },
    {
      key: 'allowedLocations',
      label: 'Allowed Locations',
      type: 'select',
      multiple: true,
      options: COUNTRY_OPTIONS,
      locked: true,
    },
    { key: 'coverImage', label: 'Cover Image', type: 'file', accept: 'image/*' },
    { key: 'copy', label: 'Copy', type: 'reference-list', schemaTypes: ['copy'], locked: true },
    {
      key: 'images',
      label: 'Images',
      type: 'reference-list',
      schemaTypes: ['marquee-assets-image-set'],
      locked: true,
    },
  ],
  topFields: ['name', 'startTime', 'endTime'],
});

const campaign = defineSchema({
  name: 'campaign',
  title: 'Campaign',
  icon: 'send',
  fields: [
    name,
    { key: 'email', label: 'Email', type: 'reference', schemaTypes: ['email'], required: true, locked: true },
    {
      key: 'audience',
      label: 'Audience',
      type: 'reference',
      schemaTypes: ['audience'],
      required: true,
      locked: true,
    },
    { key: 'sender', label: 'Sender', type: 'sender', required: true, locked: true },
    {
      key: 'subject',
      label: 'Subject',
      type: 'text',
      locked: true,
      description: "Leave empty to use the email template's subject. Merge tags are filled per recipient.",
    },
    {
      key: 'sendAt',
      label: 'Send Time',
      type: 'datetime',
      locked: true,
      description: 'Leave empty to send when Send is pressed; otherwise Send queues it for this time.',
    },
    {
      key: 'provider',
      label: 'Provider',
      type: 'select',
      locked: true,
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
      locked: true,
    },
    {
      key: 'experiment',
      label: 'A/B Test',
      type: 'experiment',
      labelWidth: 12,
      locked: true,
      description:
        'Send 2 to 4 variants to a share of the audience first, then the winner to the rest once the wait is over.',
    },
    { key: 'notes', label: 'Notes', type: 'multiline' },
  ],
  topFields: ['name', 'subject', 'sendAt'],
});

const DEFAULT_JOURNEY = `{
  "entry": { "kind": "event", "event": "signup", "conditions": [] },
  "reentry": { "mode": "once" },
  "goal": null,
  "start": "done",
  "steps": [{ "id": "done", "type": "exit" }],
  "edges": []
}`;

const journey = defineSchema({
  name: 'journey',
  title: 'Journey',
  icon: 'route',
  fields: [
    name,
    {
      key: 'definition',
      label: 'Definition',
      type: 'code',
      language: 'json',
      beginBlock: '',
      endBlock: '',
      defaultCode: DEFAULT_JOURNEY,
      labelWidth: 12,
      locked: true,
      description:
        'The entry, the re-entry rule, the goal and the steps with the connections between their exits. Checked when the journey is started.',
    },
    description,
  ],
  topFields: ['name', 'description'],
  // A journey is drawn over several sessions; it is checked in full when it is started.
  allowSaveWithErrors: true,
});

export const marketing = defineDomain({
  name: 'marketing',
  title: 'Marketing',
  schemas: [customerProfileAttribute, audience, behavioralEvent, email, campaign, journey, copy, event],
});

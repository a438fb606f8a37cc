import type { FieldType } from '@shared/schemas/types';

/** Field types in words, as the type chooser and the field list show them. */
export const FIELD_TYPE_LABELS: Record<FieldType, string> = {
  text: 'Text',
  multiline: 'Multiline text',
  'name-slug': 'Slug',
  generatable: 'Generated code',
  number: 'Number',
  range: 'Range (slider)',
  boolean: 'Yes / no',
  select: 'Select',
  tags: 'Tags',
  date: 'Date',
  datetime: 'Date and time',
  reference: 'Reference',
  'reference-list': 'Reference list',
  table: 'Table',
  code: 'Code',
  combinations: 'Combinations',
  'schema-selector': 'Schema selector',
  country: 'Country',
  file: 'File',
  'rich-text': 'Rich text',
  'email-template': 'Email template',
  criteria: 'Criteria',
  address: 'Address',
  'service-connection': 'Service connection',
  'social-interests': 'Social interests',
  sender: 'Sender',
  experiment: 'A/B test',
  blocks: 'Blocks',
};

/** Types whose definition needs more than this editor asks for: offered only to a field that has one. */
export const TYPES_NOT_OFFERED: readonly FieldType[] = ['combinations', 'experiment'];

/**
 * Types not offered to a table's columns: combinations belong to a schema's own fields, and a table in
 * a column would have columns no column operation can reach.
 */
export const TYPES_NOT_IN_COLUMNS: readonly FieldType[] = ['combinations', 'table'];

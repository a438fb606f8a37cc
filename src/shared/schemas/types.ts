/**
 * The schema catalogue's types: field definitions, schema types and domains (spec §3, §5).
 * Everything here is plain data except a validator's optional function, so built-in schemas can be
 * sent to the browser as they are.
 */

/** A value a display condition compares with. */
type ConditionValue = string | number | boolean | null;

/**
 * When a field is shown, as a test on another field of the same item (or the same table row).
 * Hidden fields are not validated (spec §5).
 */
export type DisplayCondition =
  | { field: string; equals: ConditionValue }
  | { field: string; in: readonly ConditionValue[] }
  | { field: string; notEmpty: true };

/**
 * A custom validator (spec §5: "an expression or a function with a message"). The message may use
 * %l for the field's label and %v for its value.
 * - `expression`: a regular expression source the value (as text) must match; serialisable and safe
 *   to run on the server, unlike evaluated code.
 * - `test`: a function of the value and the whole item data; true means valid.
 */
export type FieldValidator =
  | { expression: string; flags?: string; message: string }
  | { test: (value: unknown, data: Readonly<Record<string, unknown>>) => boolean; message: string };

export interface SelectOption {
  value: string;
  label: string;
}

/** Props shared by every field type. */
interface FieldBase {
  key: string;
  label: string;
  required?: boolean;
  validators?: readonly FieldValidator[];
  displayIf?: DisplayCondition;
  /** Grid columns of the label, 1 to 12; default 5 (spec §5). See `clampLabelWidth`. */
  labelWidth?: number;
  description?: string;
  readOnly?: boolean;
  /** One value per locale in workspaces with locales (text, rich-text, name-slug, file, reference). */
  localized?: boolean;
  /** For a localised field: the non-default locales it is required in too (`required` is the default's). */
  requiredInLocales?: readonly string[];
  /** A built-in field server code relies on: the content model may not remove or retype it. */
  locked?: boolean;
}

export interface TextField extends FieldBase {
  type: 'text';
  placeholder?: string;
}
export interface MultilineField extends FieldBase {
  type: 'multiline';
  rows?: number;
}
/**
 * Typed text becomes kebab-case; cleared, it derives from the field `from` (usually 'name'). With
 * `keepsDataKeys`, typed text that is already a data key (`firstName`, `page_view`) is kept as typed:
 * attribute and event keys are spelled as the files and apps that send them spell them.
 */
export interface NameSlugField extends FieldBase {
  type: 'name-slug';
  from: string;
  keepsDataKeys?: boolean;
}
/** With generateLength above 10 the field is read-only and filled with a random alphanumeric string. */
export interface GeneratableField extends FieldBase {
  type: 'generatable';
  generateLength: number;
}
export interface NumberField extends FieldBase {
  type: 'number';
  min?: number;
  max?: number;
}
/** A slider over whole numbers: step 1. */
export interface RangeField extends FieldBase {
  type: 'range';
  min: number;
  max: number;
}
export interface BooleanField extends FieldBase {
  type: 'boolean';
}
export interface SelectField extends FieldBase {
  type: 'select';
  options: readonly SelectOption[];
  multiple?: boolean;
}
export interface TagsField extends FieldBase {
  type: 'tags';
}
/** A calendar date stored as 'YYYY-MM-DD'; min and max in the same form. */
export interface DateField extends FieldBase {
  type: 'date';
  min?: string;
  max?: string;
}
/** An ISO instant plus the companion `{key}_tz` holding its time zone; min and max are ISO instants. */
export interface DateTimeField extends FieldBase {
  type: 'datetime';
  min?: string;
  max?: string;
}
/** One reference (a `Reference` object); the chooser is full after one selection. */
export interface ReferenceField extends FieldBase {
  type: 'reference';
  schemaTypes: readonly string[];
}
/** An ordered list of references, reorderable up and down. */
export interface ReferenceListField extends FieldBase {
  type: 'reference-list';
  schemaTypes: readonly string[];
}
/** Rows of values whose columns are fields; Add is hidden at maxRows. */
export interface TableField extends FieldBase {
  type: 'table';
  columns: readonly FieldDef[];
  maxRows?: number;
}
/**
 * Code between fixed blocks: the stored text is beginBlock + body + endBlock, and an empty value
 * loads beginBlock + defaultCode + endBlock.
 */
export interface CodeField extends FieldBase {
  type: 'code';
  beginBlock: string;
  endBlock: string;
  defaultCode: string;
  language: 'typescript' | 'javascript' | 'json' | 'html' | 'css';
}
/** Combination rows of the schema's variations; only in schemas with allowCombinations. */
export interface CombinationsField extends FieldBase {
  type: 'combinations';
}
/** The name of a schema, with 'Generate Types' and 'Copy'. */
export interface SchemaSelectorField extends FieldBase {
  type: 'schema-selector';
}
/** An ISO 3166-1 alpha-2 code from `src/shared/geo/countries`. */
export interface CountryField extends FieldBase {
  type: 'country';
}
/** An uploaded file (`FileValue`); uploads accept `accept`, by default 'image/*'. */
interface FileField extends FieldBase {
  type: 'file';
  accept?: string;
}
interface RichTextField extends FieldBase {
  type: 'rich-text';
}
interface EmailTemplateField extends FieldBase {
  type: 'email-template';
}
interface CriteriaField extends FieldBase {
  type: 'criteria';
}
interface AddressField extends FieldBase {
  type: 'address';
}
interface ServiceConnectionField extends FieldBase {
  type: 'service-connection';
}
interface SocialInterestsField extends FieldBase {
  type: 'social-interests';
}
/** The id of one of the workspace's senders (Settings › Sending). */
interface SenderField extends FieldBase {
  type: 'sender';
}
/** A campaign's A/B test (`CampaignExperiment`): variants, their share, the wait and the winner rule. */
interface ExperimentField extends FieldBase {
  type: 'experiment';
}
/**
 * Modular content: an ordered list of blocks, each `{ _type, _key, …fields }` of one of `blockTypes`
 * (names of the model's block types); blocks fields inside blocks nest up to `MAX_BLOCK_DEPTH` levels.
 */
export interface BlocksField extends FieldBase {
  type: 'blocks';
  blockTypes: readonly string[];
  maxBlocks?: number;
}

export type FieldDef =
  | TextField
  | MultilineField
  | NameSlugField
  | GeneratableField
  | NumberField
  | RangeField
  | BooleanField
  | SelectField
  | TagsField
  | DateField
  | DateTimeField
  | ReferenceField
  | ReferenceListField
  | TableField
  | CodeField
  | CombinationsField
  | SchemaSelectorField
  | CountryField
  | FileField
  | RichTextField
  | EmailTemplateField
  | CriteriaField
  | AddressField
  | ServiceConnectionField
  | SocialInterestsField
  | SenderField
  | ExperimentField
  | BlocksField;

export type FieldType = FieldDef['type'];

export const FIELD_TYPES = [
  'text',
  'multiline',
  'name-slug',
  'generatable',
  'number',
  'range',
  'boolean',
  'select',
  'tags',
  'date',
  'datetime',
  'reference',
  'reference-list',
  'table',
  'code',
  'combinations',
  'schema-selector',
  'country',
  'file',
  'rich-text',
  'email-template',
  'criteria',
  'address',
  'service-connection',
  'social-interests',
  'sender',
  'experiment',
  'blocks',
] as const satisfies readonly FieldType[];

/** A variation dimension of a schema (for example locale), whose values combination rows choose. */
export interface VariationDef {
  name: string;
  label: string;
  options: readonly SelectOption[];
}

export interface SchemaType {
  name: string;
  title: string;
  /** Default: title + 's'. */
  pluralTitle: string;
  icon: string;
  /** Path in the item data to the field that gives the item's thumbnail, e.g. 'masterImage'. */
  thumbnail?: string;
  fields: readonly FieldDef[];
  variations?: readonly VariationDef[];
  /** Keys of the fields shown first and in lists and chips. */
  topFields: readonly string[];
  allowCombinations?: boolean;
  allowSaveWithErrors?: boolean;
  /**
   * Where an item is seen on the website, for the preview pane: URL templates whose placeholders name a
   * top-level field, `{locale}` or `{id}` (e.g. `https://www.example.com/blog/{slug}?locale={locale}`).
   */
  previewUrls?: readonly string[];
  /** The model's block types, by name, set on every schema the registry answers (blocks fields use them). */
  blockTypes?: Readonly<Record<string, BlockType>>;
  /** Set on the schema as a workspace with locales sees it (`localizedSchema`): its default and other locales. */
  locales?: { default: string; others: readonly string[] };
}

export interface Domain {
  name: string;
  title: string;
  schemaRefs: readonly string[];
  schemas: readonly SchemaType[];
  admin: boolean;
  disabled: boolean;
  landingSchema?: string;
}

/** Spec §3 "Reference": what a reference field stores for each referenced item. */
export interface Reference {
  id: string;
  schemaType: string;
  label?: string;
  thumbId?: string;
  altText?: string;
}

/** One combination row: a unique Name (`_slug`), chosen variation values and field overrides. */
export interface CombinationRow {
  _slug: string;
  variations: Record<string, string>;
  overrides: Record<string, unknown>;
}

/** A block of modular content (hero, feature grid…): defined once in the model, used by blocks fields. */
export interface BlockType {
  name: string;
  title: string;
  icon?: string;
  fields: readonly FieldDef[];
}

/** Key of the time zone companion of a date-time field (spec §3). */
export const timezoneKey = (key: string) => `${key}_tz`;

/** Item data key holding the item's own variation values, in schemas with variations. */
export const VARIATION_KEY = '_variation';

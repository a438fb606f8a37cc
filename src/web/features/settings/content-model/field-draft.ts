import { LOCALIZABLE_TYPES } from '@shared/locales/locales';
import type { FieldOwner, ModelOp } from '@shared/model/types';
import type { DisplayCondition, FieldDef, FieldType, SelectOption } from '@shared/schemas/types';
import { toKebabCase } from '@shared/text/slug';

/**
 * The field editor's values: every option of every type, flat and with empty defaults, so the form can
 * switch types without losing what was typed. `fieldOf` keeps only the options of the chosen type.
 */
export interface FieldDraft {
  key: string;
  label: string;
  type: FieldType;
  required: boolean;
  description: string;
  labelWidth: number | '';
  localized: boolean;
  requiredInLocales: string[];
  placeholder: string;
  rows: number | '';
  from: string;
  generateLength: number | '';
  min: number | '';
  max: number | '';
  minDate: string;
  maxDate: string;
  options: SelectOption[];
  multiple: boolean;
  schemaTypes: string[];
  blockTypes: string[];
  maxBlocks: number | '';
  accept: string;
  validators: { expression: string; message: string; flags?: string }[];
  condition: ConditionDraft;
  /** A new table's columns; an existing table's change by column operations of their own. */
  columns: FieldDef[];
}

export type ConditionKind = 'none' | 'equals' | 'in' | 'notEmpty';

interface ConditionDraft {
  kind: ConditionKind;
  field: string;
  value: string;
  values: string[];
}

/** Properties this editor sets; any other property of a field (columns, code blocks…) is kept as it is. */
const EDITED = [
  'key',
  'label',
  'type',
  'required',
  'description',
  'labelWidth',
  'localized',
  'requiredInLocales',
  'placeholder',
  'rows',
  'from',
  'generateLength',
  'min',
  'max',
  'options',
  'multiple',
  'schemaTypes',
  'blockTypes',
  'maxBlocks',
  'accept',
  'validators',
  'displayIf',
] as const;

/** What a new field of a type needs that this editor does not ask for. */
const TYPE_DEFAULTS: Partial<Record<FieldType, Record<string, unknown>>> = {
  code: { beginBlock: '', endBlock: '', defaultCode: '', language: 'typescript' },
};

/** A field key from a label: 'SEO description' → 'seoDescription'. */
export function keyFromLabel(label: string): string {
  const [first = '', ...rest] = toKebabCase(label).split('-');
  return first + rest.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
}

const textOf = (value: unknown) => (value === undefined || value === null ? '' : String(value));
const numberOf = (value: unknown): number | '' => (typeof value === 'number' ? value : '');

function conditionDraft(condition: DisplayCondition | undefined): ConditionDraft {
  const empty: ConditionDraft = { kind: 'none', field: '', value: '', values: [] };
  if (!condition) return empty;
  if ('equals' in condition)
    return { ...empty, kind: 'equals', field: condition.field, value: textOf(condition.equals) };
  if ('in' in condition)
    return { ...empty, kind: 'in', field: condition.field, values: condition.in.map(textOf) };
  return { ...empty, kind: 'notEmpty', field: condition.field };
}

/** The editor's values for a field, or for a new text field. */
export function draftOf(field?: FieldDef): FieldDraft {
  const any = (field ?? {}) as Record<string, unknown>;
  const isDate = field?.type === 'date' || field?.type === 'datetime';
  return {
    key: field?.key ?? '',
    label: field?.label ?? '',
    type: field?.type ?? 'text',
    required: field?.required === true,
    description: field?.description ?? '',
    labelWidth: numberOf(field?.labelWidth),
    localized: field?.localized === true,
    requiredInLocales: [...(field?.requiredInLocales ?? [])],
    placeholder: textOf(any.placeholder),
    rows: numberOf(any.rows),
    from: textOf(any.from),
    generateLength: numberOf(any.generateLength),
    min: isDate ? '' : numberOf(any.min),
    max: isDate ? '' : numberOf(any.max),
    minDate: isDate ? textOf(any.min) : '',
    maxDate: isDate ? textOf(any.max) : '',
    options: ((any.options as SelectOption[] | undefined) ?? []).map(({ value, label }) => ({
      value,
      label,
    })),
    multiple: any.multiple === true,
    schemaTypes: [...((any.schemaTypes as string[] | undefined) ?? [])],
    blockTypes: [...((any.blockTypes as string[] | undefined) ?? [])],
    maxBlocks: numberOf(any.maxBlocks),
    accept: textOf(any.accept),
    validators: (field?.validators ?? []).flatMap((validator) =>
      'expression' in validator
        ? [
            {
              expression: validator.expression,
              message: validator.message,
              ...(validator.flags ? { flags: validator.flags } : {}),
            },
          ]
        : [],
    ),
    condition: conditionDraft(field?.displayIf),
    columns: field?.type === 'table' ? [...field.columns] : [],
  };
}

/** A condition's typed text as the compared field stores it: numbers and booleans as such. */
function conditionValue(text: string, comparedType: FieldType | undefined): string | number | boolean {
  if (comparedType === 'boolean') return text === 'true';
  if (
    (comparedType === 'number' || comparedType === 'range') &&
    text.trim() !== '' &&
    !Number.isNaN(Number(text))
  )
    return Number(text);
  return text;
}

function displayIfOf(condition: ConditionDraft, siblings: readonly FieldDef[]): DisplayCondition | undefined {
  if (condition.kind === 'none' || condition.field === '') return undefined;
  const comparedType = siblings.find((sibling) => sibling.key === condition.field)?.type;
  if (condition.kind === 'notEmpty') return { field: condition.field, notEmpty: true };
  if (condition.kind === 'in')
    return {
      field: condition.field,
      in: condition.values.map((value) => conditionValue(value, comparedType)),
    };
  return { field: condition.field, equals: conditionValue(condition.value, comparedType) };
}

/** The options of a draft that apply to its type, with empty ones left out. */
function typeOptions(draft: FieldDraft): Record<string, unknown> {
  const set = (entries: [string, unknown][]) =>
    Object.fromEntries(entries.filter(([, value]) => value !== '' && value !== undefined && value !== false));
  switch (draft.type) {
    case 'text':
      return set([['placeholder', draft.placeholder]]);
    case 'multiline':
      return set([['rows', draft.rows]]);
    case 'name-slug':
      return set([['from', draft.from]]);
    case 'generatable':
      return { generateLength: draft.generateLength === '' ? 12 : draft.generateLength };
    case 'number':
      return set([
        ['min', draft.min],
        ['max', draft.max],
      ]);
    case 'range':
      return { min: draft.min === '' ? 0 : draft.min, max: draft.max === '' ? 100 : draft.max };
    case 'date':
    case 'datetime':
      return set([
        ['min', draft.minDate],
        ['max', draft.maxDate],
      ]);
    case 'select':
      return { options: draft.options, ...set([['multiple', draft.multiple]]) };
    case 'reference':
    case 'reference-list':
      return { schemaTypes: draft.schemaTypes };
    case 'blocks':
      return { blockTypes: draft.blockTypes, ...set([['maxBlocks', draft.maxBlocks]]) };
    case 'file':
      return set([['accept', draft.accept.trim()]]);
    case 'table':
      return { columns: draft.columns };
    default:
      return {};
  }
}

/**
 * The field definition a draft stands for. Properties the editor does not show are kept from `original`
 * while the type stays; a new type starts from that type's defaults.
 */
export function fieldOf(draft: FieldDraft, siblings: readonly FieldDef[], original?: FieldDef): FieldDef {
  const kept =
    original && original.type === draft.type
      ? Object.fromEntries(
          Object.entries(original).filter(([key]) => !(EDITED as readonly string[]).includes(key)),
        )
      : { ...TYPE_DEFAULTS[draft.type] };
  const isLocalized = draft.localized && LOCALIZABLE_TYPES.includes(draft.type);
  const validators = draft.validators.filter(
    (validator) => validator.expression !== '' || validator.message !== '',
  );
  const displayIf = displayIfOf(draft.condition, siblings);
  return {
    key: draft.key.trim(),
    label: draft.label.trim(),
    type: draft.type,
    ...(draft.required ? { required: true } : {}),
    ...(draft.description.trim() ? { description: draft.description.trim() } : {}),
    ...(draft.labelWidth !== '' ? { labelWidth: draft.labelWidth } : {}),
    ...(isLocalized ? { localized: true } : {}),
    ...(isLocalized && draft.requiredInLocales.length > 0
      ? { requiredInLocales: draft.requiredInLocales }
      : {}),
    ...typeOptions(draft),
    ...(validators.length > 0 ? { validators } : {}),
    ...(displayIf ? { displayIf } : {}),
    ...kept,
  } as FieldDef;
}

/** JSON with object keys in order, so two equal values compare equal. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );
}

/** Whether changing a field from `before` to `after` changes what its values are (a retype). */
const isRetype = (before: FieldDef, after: FieldDef) =>
  before.type !== after.type ||
  (before.type === 'select' &&
    after.type === 'select' &&
    (before.multiple === true) !== (after.multiple === true));

/**
 * The operations that turn field `before` into `after`: a rename when the key changed, then a retype
 * when what the values are changed, otherwise a patch of the properties that differ (null removes one).
 * A table's columns are left out: they change by column operations, so their values follow.
 */
export function fieldEditOps(owner: FieldOwner, before: FieldDef, after: FieldDef): ModelOp[] {
  const ops: ModelOp[] = [];
  if (after.key !== before.key) ops.push({ op: 'renameField', ...owner, from: before.key, to: after.key });
  if (isRetype(before, after)) {
    ops.push({ op: 'retypeField', ...owner, key: after.key, field: after });
    return ops;
  }
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  const patch: Record<string, unknown> = {};
  for (const name of names) {
    if (name === 'key' || name === 'type' || name === 'multiple' || name === 'columns') continue;
    const was = (before as unknown as Record<string, unknown>)[name];
    const is = (after as unknown as Record<string, unknown>)[name];
    if (canonical(was) !== canonical(is)) patch[name] = is ?? null;
  }
  if (Object.keys(patch).length > 0) ops.push({ op: 'updateField', ...owner, key: after.key, patch });
  return ops;
}

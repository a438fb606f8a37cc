import { blocksLimit, nestedEntries, type BlockTypes } from '../schemas/blocks';
import { isFieldVisible } from '../schemas/display-if';
import type { FieldDef, FieldValidator, SchemaType } from '../schemas/types';
import { timezoneKey } from '../schemas/types';
import { datePickerHint } from '../time/format';
import { FALLBACK_TIMEZONE, isKnownTimezone } from '../time/zones';
import { checkCodeBlocks } from './code-blocks';
import { validateCombinations } from './combinations';
import { isEmptyValue } from './empty';
import { displayValue, formatMessage } from './format-message';
import { MAX_BLOCKS_MESSAGE, MAX_MESSAGE, MAX_ROWS_MESSAGE, MIN_MESSAGE, REQUIRED_MESSAGE } from './messages';

type Data = Readonly<Record<string, unknown>>;

/** Field path → message, e.g. { name: 'Name is required', 'properties.0.type': 'Type is required' }. */
export type ValidationErrors = Record<string, string>;

function passes(validator: FieldValidator, value: unknown, data: Data): boolean {
  try {
    if ('expression' in validator)
      return new RegExp(validator.expression, validator.flags).test(displayValue(value));
    return validator.test(value, data);
  } catch {
    return false;
  }
}

/** The rule of the field's own type, on a non-empty value; undefined when it holds. */
function typeRuleMessage(field: FieldDef, value: unknown, data: Data): string | undefined {
  switch (field.type) {
    case 'number':
    case 'range':
      if (typeof value !== 'number') return undefined;
      if (field.min !== undefined && value < field.min)
        return MIN_MESSAGE.replace('{min}', String(field.min));
      if (field.max !== undefined && value > field.max)
        return MAX_MESSAGE.replace('{max}', String(field.max));
      return undefined;
    case 'date':
      if (typeof value !== 'string') return undefined;
      return (field.min && value < field.min) || (field.max && value > field.max)
        ? `%l: ${datePickerHint(field.min, field.max)}`
        : undefined;
    case 'datetime': {
      const at = typeof value === 'string' ? Date.parse(value) : Number.NaN;
      if (Number.isNaN(at)) return undefined;
      const outside = (field.min && at < Date.parse(field.min)) || (field.max && at > Date.parse(field.max));
      const zone = data[timezoneKey(field.key)];
      const shownIn = typeof zone === 'string' && isKnownTimezone(zone) ? zone : FALLBACK_TIMEZONE;
      return outside ? `%l: ${datePickerHint(field.min, field.max, shownIn)}` : undefined;
    }
    case 'code':
      return typeof value === 'string' ? checkCodeBlocks(field, value) : undefined;
    case 'table':
      return Array.isArray(value) && field.maxRows !== undefined && value.length > field.maxRows
        ? MAX_ROWS_MESSAGE.replace('{maxRows}', String(field.maxRows))
        : undefined;
    case 'blocks':
      return Array.isArray(value) && value.length > blocksLimit(field)
        ? MAX_BLOCKS_MESSAGE.replace('{maxBlocks}', String(blocksLimit(field)))
        : undefined;
    default:
      return undefined;
  }
}

/**
 * One field's own message (spec §5): '%l is required' when required and empty; nothing more for an
 * optional empty field; otherwise the first failing rule of its type or custom validator, with %l and
 * %v substituted. Table cells, blocks' fields and combination rows are checked by `validateItem`.
 */
export function validateField(field: FieldDef, value: unknown, data: Data = {}): string | undefined {
  if (isEmptyValue(value))
    return field.required ? formatMessage(REQUIRED_MESSAGE, field.label, value) : undefined;
  const template =
    typeRuleMessage(field, value, data) ??
    field.validators?.find((validator) => !passes(validator, value, data))?.message;
  return template === undefined ? undefined : formatMessage(template, field.label, value);
}

function collectErrors(
  fields: readonly FieldDef[],
  data: Data,
  prefix: string,
  errors: ValidationErrors,
  blockTypes: BlockTypes | undefined,
) {
  for (const field of fields) {
    if (!isFieldVisible(field, data)) continue;
    const path = prefix + field.key;
    const value = data[field.key];
    const message = validateField(field, value, data);
    if (message) errors[path] = message;
    // A table row's and a block's fields are validated as the item's are, against the row or block.
    for (const entry of nestedEntries(field, value, blockTypes))
      collectErrors(entry.fields, entry.data, `${path}.${entry.index}.`, errors, blockTypes);
    if (field.type === 'combinations' && Array.isArray(value)) {
      Object.assign(errors, validateCombinations(path, value));
    }
  }
}

/**
 * Validates an item's data against its schema (spec §5): every shown field, table cells
 * ('{key}.{row}.{column}'), the fields of blocks ('{key}.{block}.{field}', at any depth, display
 * conditions read the block) and combination rows. Hidden fields (displayIf false) are skipped.
 * An empty result means the item is valid.
 */
export function validateItem(
  schema: Pick<SchemaType, 'fields' | 'blockTypes'>,
  data: Data,
): ValidationErrors {
  const errors: ValidationErrors = {};
  collectErrors(schema.fields, data, '', errors, schema.blockTypes);
  return errors;
}

export const isItemValid = (schema: Pick<SchemaType, 'fields' | 'blockTypes'>, data: Data) =>
  Object.keys(validateItem(schema, data)).length === 0;

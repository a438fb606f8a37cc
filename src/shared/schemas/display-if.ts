import { isEmptyValue } from '../validation/empty';
import type { DisplayCondition, FieldDef } from './types';

/** True when the condition holds for the data (a list value matches `equals`/`in` if any entry does). */
export function conditionHolds(
  condition: DisplayCondition,
  data: Readonly<Record<string, unknown>>,
): boolean {
  const value = data[condition.field];
  if ('notEmpty' in condition) return !isEmptyValue(value);
  const accepted = 'in' in condition ? condition.in : [condition.equals];
  const values = Array.isArray(value) ? value : [value ?? null];
  return values.some((entry) => accepted.includes(entry));
}

/** A field without displayIf is always shown. */
export function isFieldVisible(field: FieldDef, data: Readonly<Record<string, unknown>>): boolean {
  return !field.displayIf || conditionHolds(field.displayIf, data);
}

import type { FieldDef } from '@shared/schemas/types';
import { timezoneKey } from '@shared/schemas/types';
import type { ValidationErrors } from '@shared/validation/validate-item';

type Scope = Readonly<Record<string, unknown>>;

/** The keys of a scope a field's input reads: its own, a date-time's zone, the name a name-slug follows. */
export function keysReadBy(field: FieldDef): string[] {
  const keys = [field.key];
  if (field.type === 'datetime') keys.push(timezoneKey(field.key));
  if (field.type === 'name-slug') keys.push(field.from);
  return keys;
}

/** Whether the shown messages of a path (its own and those of the parts under it) are the same in both. */
export function sameErrorsAt(before: ValidationErrors, after: ValidationErrors, path: string): boolean {
  if (before === after) return true;
  const under = `${path}.`;
  const isOfPath = (key: string) => key === path || key.startsWith(under);
  const shown = Object.keys(before).filter(isOfPath);
  if (shown.length !== Object.keys(after).filter(isOfPath).length) return false;
  return shown.every((key) => before[key] === after[key]);
}

/** A field row's inputs: the same when it would draw the same thing (see sameFieldInput). */
export interface FieldInputs {
  field: FieldDef;
  scope: Scope;
  errors: ValidationErrors;
  /** The field's path in the errors. */
  path: string;
  /** Every other prop, compared by identity. */
  rest: readonly unknown[];
}

/**
 * Whether a field's row would draw as it did: the same field, the same values of the keys it reads,
 * the same messages at its path, and the same other props. A keystroke in one field then redraws that
 * field alone, not the whole form.
 */
export function sameFieldInput(before: FieldInputs, after: FieldInputs): boolean {
  return (
    before.field === after.field &&
    before.path === after.path &&
    before.rest.length === after.rest.length &&
    before.rest.every((value, i) => Object.is(value, after.rest[i])) &&
    (before.scope === after.scope ||
      keysReadBy(after.field).every((key) => Object.is(before.scope[key], after.scope[key]))) &&
    sameErrorsAt(before.errors, after.errors, after.path)
  );
}

import type { AttributeType, Operator } from './operators';
import { DAY_MS, ISO_DATE_PATTERN } from './time';
import type { RuleValue } from './tree';

/** The stored value in the form a type compares it, or undefined when it has no value of that type. */
function typed(type: AttributeType, actual: unknown): unknown {
  switch (type) {
    case 'number':
      return typeof actual === 'number' && Number.isFinite(actual) ? actual : undefined;
    case 'string':
    case 'categorical':
      return typeof actual === 'string' ? actual : undefined;
    case 'boolean':
      return typeof actual === 'boolean' ? actual : undefined;
    case 'array':
      return Array.isArray(actual) ? actual : undefined;
    case 'date':
      return typeof actual === 'string' && ISO_DATE_PATTERN.test(actual) ? Date.parse(actual) : undefined;
  }
}

/**
 * The meaning of one comparison: a profile's (or event's) value against a rule's
 * operator and value at `asOf`. No value of the type matches nothing.
 */
export function matchValue(
  type: AttributeType,
  operator: Operator,
  ruleValue: RuleValue,
  actual: unknown,
  asOf: Date,
): boolean {
  const value = typed(type, actual);
  if (value === undefined) return false;
  const list = Array.isArray(ruleValue) ? (ruleValue as unknown[]) : [];
  switch (operator) {
    case '==':
      return value === ruleValue;
    case '!=':
      return value !== ruleValue;
    case 'in':
      return list.includes(value);
    case 'not in':
      return !list.includes(value);
    case '<':
      return (value as number) < (ruleValue as number);
    case '<=':
      return (value as number) <= (ruleValue as number);
    case '>':
      return (value as number) > (ruleValue as number);
    case '>=':
      return (value as number) >= (ruleValue as number);
    case 'is subset of':
      return (value as unknown[]).every((element) => list.includes(element));
    case 'overlaps':
      return (value as unknown[]).some((element) => typeof element === 'string' && list.includes(element));
    case 'disjoint':
      return !(value as unknown[]).some((element) => typeof element === 'string' && list.includes(element));
  }
  const at = asOf.getTime();
  const span = (ruleValue as number) * DAY_MS;
  const d = value as number;
  switch (operator) {
    case 'is in the next':
      return at <= d && d < at + span;
    case 'is not for another':
      return d >= at + span;
    case 'was in the last':
      return at - span <= d && d <= at;
    case 'was not in the last':
      return d < at - span;
  }
  return false;
}

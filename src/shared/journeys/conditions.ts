import type { JourneyCondition } from '../api/journeys';

const asNumber = (value: unknown) =>
  typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;

function holds(condition: JourneyCondition, actual: unknown): boolean {
  const { op, value } = condition;
  const present = actual !== undefined && actual !== null && actual !== '';
  switch (op) {
    case 'exists':
      return present;
    case 'not-exists':
      return !present;
    case '==':
      return present && String(actual) === String(value);
    case '!=':
      return !present || String(actual) !== String(value);
    case 'contains':
      return Array.isArray(actual)
        ? actual.map(String).includes(String(value))
        : present && String(actual).includes(String(value));
    default: {
      const [a, b] = [asNumber(actual), asNumber(value)];
      if (Number.isNaN(a) || Number.isNaN(b)) return false;
      return op === '>' ? a > b : op === '>=' ? a >= b : op === '<' ? a < b : a <= b;
    }
  }
}

/** Whether every condition holds of `record` (an event's properties, a profile's attributes). */
export function conditionsHold(conditions: readonly JourneyCondition[], record: Record<string, unknown>) {
  return conditions.every((condition) => holds(condition, record[condition.key]));
}

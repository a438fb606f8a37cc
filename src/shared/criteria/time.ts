import { dayjs } from '../time/dayjs';
import type { LookBackUnit } from './operators';

export const DAY_MS = 86_400_000;

const FIXED_MS: Partial<Record<LookBackUnit, number>> = {
  minutes: 60_000,
  hours: 3_600_000,
  days: DAY_MS,
  weeks: 7 * DAY_MS,
};

/**
 * The start of an event rule's window (exclusive): asOf minus the look-back. Minutes to weeks are fixed
 * lengths, months and years calendar ones (in UTC); anytime has no start.
 */
export function lookBackStart(asOf: Date, unit: LookBackUnit, value: number): Date | null {
  if (unit === 'anytime') return null;
  const fixed = FIXED_MS[unit];
  if (fixed !== undefined) return new Date(asOf.getTime() - value * fixed);
  return dayjs
    .utc(asOf)
    .subtract(value, unit === 'months' ? 'month' : 'year')
    .toDate();
}

/** A stored date value: the canonical ISO form the import writes (`Date#toISOString`). */
export const ISO_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/**
 * The same form with every digit written as 0: in SQL a text has the form exactly when
 * `translate(text, '123456789', '000000000')` equals this, which PostgreSQL checks in two thirds of the
 * time its regular expression takes (ASCII digits only, as `\d` in ISO_DATE_PATTERN).
 */
export const ISO_DATE_SHAPE = '0000-00-00T00:00:00.000Z';

import { formatStoredDate, isDateOnly, isStoredDate } from '@web/lib/dates';

/**
 * Whether a value is shown as a date: any stored date of a date attribute, and a stored instant where
 * the type is not known (keys without an attribute, event properties, the profile list).
 */
const isShownAsDate = (text: string, type: string | undefined) =>
  isStoredDate(text) && (type === 'date' || (type === undefined && text.includes('T')));

/**
 * An attribute or event property value as a profile shows it: lists joined with commas, booleans as
 * yes or no, dates in the user's locale (a day without a time), nothing for no value.
 */
export function showValue(value: unknown, type?: string): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map((entry) => showValue(entry)).join(', ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string' && isShownAsDate(value, type)) return formatStoredDate(value);
  return String(value);
}

/**
 * The text a value is edited as: lists joined by |, as a CSV import spells them; a day of a date
 * attribute as YYYY-MM-DD, which an import reads back as the same day.
 */
export function editedValue(value: unknown, type: string | undefined): string {
  if (Array.isArray(value)) return value.join('|');
  if (type === 'date' && typeof value === 'string' && isStoredDate(value) && isDateOnly(value))
    return value.slice(0, 10);
  return showValue(value, 'string');
}

import relativeTime from 'dayjs/plugin/relativeTime';
import { dayjs } from '@shared/time/dayjs';
import { DATE_DISPLAY_FORMAT } from '@shared/time/zones';

dayjs.extend(relativeTime);

/** Spec §9 display format: 'ddd MMM Do, YYYY h:mm A'. */
export const formatDateTime = (iso: string) => dayjs(iso).format(DATE_DISPLAY_FORMAT);

export const fromNow = (iso: string) => dayjs(iso).fromNow();

/** A stored instant as `Date#toISOString` writes it (how imports and ingest store dates). */
const STORED_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;
const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;
const MIDNIGHT_UTC = /T00:00:00(?:\.0{1,3})?Z$/;

/** Whether the text is a stored date: a calendar day or an instant. */
export const isStoredDate = (text: string) =>
  (CALENDAR_DAY.test(text) || STORED_INSTANT.test(text)) && !Number.isNaN(Date.parse(text));

/**
 * Whether a stored date names a day rather than a moment: a calendar day, or midnight UTC, which is
 * how a day ('2024-08-30') is stored once imported.
 */
export const isDateOnly = (text: string) => CALENDAR_DAY.test(text) || MIDNIGHT_UTC.test(text);

/**
 * A stored date in the user's locale (`locale`, else the browser's): a day without a time, read in UTC
 * so it never moves to the day before; a moment with its time in the user's zone.
 */
export function formatStoredDate(text: string, locale?: string): string {
  const at = new Date(text);
  return isDateOnly(text)
    ? new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(at)
    : new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(at);
}

import { dayjs } from '../time/dayjs';
import { isKnownTimezone } from '../time/zones';
import { PROFILE_TIMEZONE_ATTRIBUTE } from '../api/journeys';

/** The profile's own time zone (its `timezone` attribute, when a known zone), else `fallback`. */
export function zoneOf(attributes: Record<string, unknown> | null | undefined, fallback: string) {
  const own = attributes?.[PROFILE_TIMEZONE_ATTRIBUTE];
  return typeof own === 'string' && own.trim() && isKnownTimezone(own.trim()) ? own.trim() : fallback;
}

/** The instant it is `hhmm` on the local day `day` (YYYY-MM-DD) in `zone`. */
function localInstant(day: string, hhmm: string, zone: string) {
  return dayjs.tz(`${day} ${hhmm}`, 'YYYY-MM-DD HH:mm', zone).toDate();
}

/**
 * The first instant after `now` when it is `hhmm` in `zone` on one of `weekdays` (0 Sunday …
 * 6 Saturday; none: any day).
 */
export function nextTimeOfDay(now: Date, zone: string, hhmm: string, weekdays: readonly number[] = []) {
  const today = dayjs(now).tz(zone);
  for (let ahead = 0; ahead <= 8; ahead++) {
    const day = today.add(ahead, 'day');
    if (weekdays.length && !weekdays.includes(day.day())) continue;
    const at = localInstant(day.format('YYYY-MM-DD'), hhmm, zone);
    if (at.getTime() > now.getTime()) return at;
  }
  return now;
}

/** The YYYY-MM-DD a date attribute holds (a date, or the date of a date-time), or null. */
export function dateOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value.trim());
  if (!match) return null;
  const [m, d] = [Number(match[2]), Number(match[3])];
  return m >= 1 && m <= 12 && d >= 1 && d <= 31 ? `${match[1]}-${match[2]}-${match[3]}` : null;
}

/** The local day `offsetDays` from the date, in year `year` for a yearly date (29 February: 1 March). */
function shiftedDay(date: string, offsetDays: number, year?: number) {
  const [y, m, d] = date.split('-').map(Number);
  const base = dayjs.utc(Date.UTC(year ?? y, m - 1, 1)).add(d - 1, 'day');
  return base.add(offsetDays, 'day').format('YYYY-MM-DD');
}

/**
 * When a date attribute's moment is: `offsetDays` from the date at `hhmm` in `zone`. Once: that
 * instant (perhaps past). Yearly: its next occurrence at or after `now`.
 */
export function dateMoment(
  date: string,
  rule: { offsetDays: number; at: string; yearly: boolean },
  zone: string,
  now: Date,
) {
  if (!rule.yearly) return localInstant(shiftedDay(date, rule.offsetDays), rule.at, zone);
  const year = dayjs(now).tz(zone).year();
  for (const y of [year - 1, year, year + 1, year + 2]) {
    const at = localInstant(shiftedDay(date, rule.offsetDays, y), rule.at, zone);
    if (at.getTime() >= now.getTime()) return at;
  }
  return now;
}

/** Whether `hour` is a quiet one: from `start` up to `end`, across midnight when start > end. */
const isQuiet = (hour: number, { start, end }: { start: number; end: number }) =>
  start === end ? false : start < end ? hour >= start && hour < end : hour >= start || hour < end;

/** The instant the quiet hours end, when `now` is in them in `zone`; otherwise null. */
export function quietUntil(now: Date, zone: string, quiet: { start: number; end: number } | null) {
  if (!quiet) return null;
  const local = dayjs(now).tz(zone);
  if (!isQuiet(local.hour(), quiet)) return null;
  const end = `${String(quiet.end).padStart(2, '0')}:00`;
  return nextTimeOfDay(now, zone, end);
}

import { dayjs } from './dayjs';
import { DATE_DISPLAY_FORMAT, DEFAULT_TIMEZONES, FALLBACK_TIMEZONE, isKnownTimezone } from './zones';

/** The date-time picker's input mask (spec §5): 24-hour. */
export const PICKER_MASK = 'YYYY/MM/DD HH:mm';
const BEGINNING_OF_TIME = 'Beginning of Time';
const END_OF_TIME = 'End of Time';

/** Formats an ISO instant in a zone, by default as 'ddd MMM Do, YYYY h:mm A' (spec §9). */
export function formatInZone(iso: string, zone: string, format: string = DATE_DISPLAY_FORMAT): string {
  return dayjs(iso).tz(zone).format(format);
}

/** Spec §9: the default zone is the guessed one, else America/New_York. */
export function defaultTimezone(guess: () => string | undefined = guessTimezone): string {
  let zone: string | undefined;
  try {
    zone = guess();
  } catch {
    zone = undefined;
  }
  return zone && isKnownTimezone(zone) ? zone : FALLBACK_TIMEZONE;
}

function guessTimezone(): string | undefined {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Spec §9: a workspace's basics.timezones override the default zones; unknown names are dropped. */
export function workspaceTimezones(basics?: { timezones?: readonly string[] | null } | null): string[] {
  const zones = (basics?.timezones ?? []).filter(isKnownTimezone);
  return zones.length > 0 ? [...new Set(zones)] : [...DEFAULT_TIMEZONES];
}

const MASK_PATTERN = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2})$/;

/**
 * Parses picker text in the mask 'YYYY/MM/DD HH:mm' (24-hour) as a wall-clock time in `zone` and
 * returns the ISO instant, or null when the text does not fit the mask or names no real date.
 */
export function parsePickerValue(text: string, zone: string): string | null {
  const match = MASK_PATTERN.exec(text.trim());
  if (!match || !isKnownTimezone(zone)) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59) return null;
  const wallClock = `${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:00`;
  return dayjs.tz(wallClock, zone).toISOString();
}

/** Formats an ISO instant for the picker in `zone`, in the mask 'YYYY/MM/DD HH:mm'. */
export function formatPickerValue(iso: string, zone: string): string {
  return formatInZone(iso, zone, PICKER_MASK);
}

/**
 * The picker's hint (spec §5): 'Select between {min or Beginning of Time} and {max or End of Time}'.
 * Bounds are ISO instants shown in `zone`, or plain texts when no zone is given.
 */
export function datePickerHint(min?: string | null, max?: string | null, zone?: string): string {
  const show = (bound: string) => (zone ? formatInZone(bound, zone) : bound);
  return `Select between ${min ? show(min) : BEGINNING_OF_TIME} and ${max ? show(max) : END_OF_TIME}`;
}

/**
 * The picker's hint for a field with a bound, else nothing: a field open at both ends needs no
 * 'Select between Beginning of Time and End of Time' under its own help text.
 */
export function datePickerBoundsHint(min?: string | null, max?: string | null, zone?: string) {
  return min || max ? datePickerHint(min, max, zone) : undefined;
}

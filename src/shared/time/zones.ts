/** Spec §9: the default time zones, overridden by a workspace's basics.timezones. */
export const DEFAULT_TIMEZONES = [
  'America/Los_Angeles',
  'America/Phoenix',
  'America/Denver',
  'America/Chicago',
  'America/New_York',
] as const;

export const FALLBACK_TIMEZONE = 'America/New_York';
/** Spec §9: bulk upload dates are entered in this zone. */
export const UPLOAD_TIMEZONE = 'America/Los_Angeles';
export const DATE_DISPLAY_FORMAT = 'ddd MMM Do, YYYY h:mm A';

/** True when the runtime knows the IANA zone name. */
export function isKnownTimezone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

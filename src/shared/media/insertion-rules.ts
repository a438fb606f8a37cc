import { countryName } from '../geo/countries';
import { formatInZone } from '../time/format';
import { FALLBACK_TIMEZONE, isKnownTimezone } from '../time/zones';

/**
 * Spec §5 image insertion rules: what may be placed in an event's copy and images lists. Used by the
 * form (as the user picks) and by the server on save, so both say the same words.
 */

/** The parts of an image set or copy item the rules read. */
export interface InsertedContent {
  locations?: readonly string[] | null;
  startTime?: string | null;
  endTime?: string | null;
}

/** The parts of an event the rules read. */
export interface EventWindow {
  allowedLocations?: readonly string[] | null;
  startTime?: string | null;
  startTime_tz?: string | null;
  endTime?: string | null;
  endTime_tz?: string | null;
}

export const locationNotAllowed = (label: string) => `Location: "${label}" not allowed.`;
const startTooEarly = (dateTime: string) => `Start time must be after ${dateTime}.`;
const endTooLate = (dateTime: string) => `End time must be before ${dateTime}.`;

const zoneOf = (zone: string | null | undefined) =>
  zone && isKnownTimezone(zone) ? zone : FALLBACK_TIMEZONE;
const instant = (iso: string | null | undefined) => (iso ? Date.parse(iso) : NaN);

/**
 * The rule messages a content item breaks in an event, empty when it fits:
 * - an image set whose locations are not all among the event's allowed locations (when the event
 *   lists any): one 'Location: "{label}" not allowed.' per location, labelled by country name;
 * - content starting before the event starts: 'Start time must be after {date time}.';
 * - content ending after the event ends: 'End time must be before {date time}.'.
 * Date times read 'ddd MMM Do, YYYY h:mm A' in the event's own zone for that field.
 */
export function insertionErrors(content: InsertedContent, event: EventWindow): string[] {
  const errors: string[] = [];
  const allowed = event.allowedLocations ?? [];
  if (allowed.length > 0) {
    for (const location of content.locations ?? []) {
      if (!allowed.includes(location)) errors.push(locationNotAllowed(countryName(location) ?? location));
    }
  }
  const eventStart = instant(event.startTime);
  if (!Number.isNaN(eventStart) && instant(content.startTime) < eventStart) {
    errors.push(startTooEarly(formatInZone(event.startTime as string, zoneOf(event.startTime_tz))));
  }
  const eventEnd = instant(event.endTime);
  if (!Number.isNaN(eventEnd) && instant(content.endTime) > eventEnd) {
    errors.push(endTooLate(formatInZone(event.endTime as string, zoneOf(event.endTime_tz))));
  }
  return errors;
}

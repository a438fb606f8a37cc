import type { QueryClient } from '@tanstack/react-query';
import { insertionErrors, type EventWindow, type InsertedContent } from '@shared/media/insertion-rules';
import type { Reference, SchemaType } from '@shared/schemas/types';
import type { ValidationErrors } from '@shared/validation/validate-item';
import { itemQueryOptions } from './get-item';

/** The event fields whose referenced items must fit the event's places and times (spec §5). */
const EVENT_CONTENT_FIELDS = ['copy', 'images'] as const;
/** What the check reads of an event: the references and the event's places and times. */
const EVENT_INPUTS = [
  ...EVENT_CONTENT_FIELDS,
  'allowedLocations',
  'startTime',
  'startTime_tz',
  'endTime',
  'endTime_tz',
] as const;

/** How long a fetched copy or image set answers the check before it is asked again. */
const INSERTION_CHECK_STALE_MS = 30_000;

const isReference = (value: unknown): value is Reference =>
  !!value &&
  typeof value === 'object' &&
  typeof (value as Reference).id === 'string' &&
  typeof (value as Reference).schemaType === 'string';

/**
 * ItemForm's validateAsync on the item screens: the spec §5 insertion rules in the form, before saving.
 * For an event, fetches each referenced copy and image set (GET …/items/{schema}/{id}, cached) and answers
 * 'copy.0' / 'images.1' → the rules' messages, as the server does on save. Asks again only when the
 * references or the event's allowed locations, start or end change; other schemas answer `{}`.
 */
export function createInsertionCheck(client: QueryClient, ws: string) {
  let lastKey: string | null = null;
  let lastAnswer: Promise<ValidationErrors> = Promise.resolve({});

  const check = async (data: Readonly<Record<string, unknown>>): Promise<ValidationErrors> => {
    const found = await Promise.all(
      EVENT_CONTENT_FIELDS.flatMap((fieldKey) => {
        const refs = data[fieldKey];
        if (!Array.isArray(refs)) return [];
        return refs.map(async (ref: unknown, index): Promise<[string, string] | null> => {
          if (!isReference(ref)) return null;
          const item = await client
            .fetchQuery({
              ...itemQueryOptions(ws, ref.schemaType, ref.id),
              staleTime: INSERTION_CHECK_STALE_MS,
            })
            .catch(() => null);
          if (!item) return null;
          const problems = insertionErrors(item.data as InsertedContent, data as EventWindow);
          return problems.length > 0 ? [`${fieldKey}.${index}`, problems.join(' ')] : null;
        });
      }),
    );
    return Object.fromEntries(found.filter((entry): entry is [string, string] => entry !== null));
  };

  return (
    schema: Pick<SchemaType, 'name'>,
    data: Readonly<Record<string, unknown>>,
  ): Promise<ValidationErrors> => {
    if (schema.name !== 'event') return Promise.resolve({});
    const key = JSON.stringify(EVENT_INPUTS.map((input) => data[input] ?? null));
    if (key !== lastKey) {
      lastKey = key;
      lastAnswer = check(data);
    }
    return lastAnswer;
  };
}

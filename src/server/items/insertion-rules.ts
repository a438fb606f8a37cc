import { insertionErrors, type EventWindow, type InsertedContent } from '@shared/media/insertion-rules';
import type { Reference } from '@shared/schemas/types';
import type { AppContext } from '../context';
import * as repo from './repository';
import type { SchemaScope } from './scope';

/** The fields of an event whose referenced items must fit its places and times (spec §5). */
const EVENT_CONTENT_FIELDS = ['copy', 'images'] as const;

/**
 * Spec §5 image insertion rules, enforced on save: each copy or image set referenced by an event must
 * fit the event's allowed locations and its start and end. Answers field path → message, empty when
 * everything fits (or the schema is not an event).
 */
export async function insertionRuleErrors(
  ctx: AppContext,
  scope: SchemaScope,
  data: Readonly<Record<string, unknown>>,
): Promise<Record<string, string>> {
  if (scope.schema.name !== 'event') return {};
  const errors: Record<string, string> = {};
  for (const fieldKey of EVENT_CONTENT_FIELDS) {
    const refs = data[fieldKey];
    if (!Array.isArray(refs)) continue;
    for (const [index, ref] of (refs as Reference[]).entries()) {
      if (!ref || typeof ref.id !== 'string' || typeof ref.schemaType !== 'string') continue;
      const item = await repo.findItem(ctx.db, {
        workspaceId: scope.workspace.id,
        schema: ref.schemaType,
        id: ref.id,
      });
      if (!item) continue;
      const problems = insertionErrors(item.data as InsertedContent, data as EventWindow);
      if (problems.length > 0) errors[`${fieldKey}.${index}`] = problems.join(' ');
    }
  }
  return errors;
}

import { isReservedName, reservedNameMessage } from '@shared/text/reserved-names';
import {
  applyNameSlugsDeep,
  fixedNameSlugs,
  slugsNeedBasis,
  type SlugBasis,
} from '@shared/validation/name-slug';
import type { AppContext } from '../context';
import { badRequest } from '../http/errors';
import { findPublishedState } from './repository';
import type { SchemaScope } from './scope';

/** The stored version a save of item `id` replaces, when `data`'s name-slugs could come out otherwise over it. */
async function slugBasisOf(
  ctx: AppContext,
  scope: SchemaScope,
  id: string,
  data: Record<string, unknown>,
): Promise<SlugBasis | undefined> {
  const { fields } = scope.schema;
  if (!slugsNeedBasis(fields, data)) return undefined;
  const key = { workspaceId: scope.workspace.id, schema: scope.schema.name, id };
  const stored = await findPublishedState(ctx.db, key);
  return stored && { data: stored.data, fixed: fixedNameSlugs(fields, stored.data, stored.hasBeenPublished) };
}

/**
 * Spec §5 name-slug on the server too: typed text kebab-cased, an empty slug derived from its source
 * (in table rows and blocks too, from a field of the same row or block).
 * Saving item `id`, a slug sent unchanged follows a renamed source only until the item is first
 * published or the slug is typed by hand, so API clients get the form's behaviour.
 */
export async function normaliseNameSlugs(
  ctx: AppContext,
  scope: SchemaScope,
  data: Record<string, unknown>,
  id?: string,
) {
  const { schema } = scope;
  const slugged = applyNameSlugsDeep(schema, data, id ? await slugBasisOf(ctx, scope, id, data) : undefined);
  for (const field of schema.fields) {
    const slug = field.type === 'name-slug' ? slugged[field.key] : undefined;
    // Slugs serve as keys (attribute and event keys): never one a plain object already answers to.
    if (typeof slug === 'string' && isReservedName(slug)) {
      throw badRequest(`data.${field.key}: ${reservedNameMessage(slug)}`);
    }
  }
  return slugged;
}

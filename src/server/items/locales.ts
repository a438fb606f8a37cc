import {
  isLocalized,
  localeMessages,
  localeValues,
  localizedSchema,
  LOCALES_KEY,
} from '@shared/locales/locales';
import { editableLocales } from '@shared/permissions/permissions';
import { sameValue } from '@shared/schemas/compare';
import type { FieldDef, SchemaType } from '@shared/schemas/types';
import { isReservedName, reservedNameMessage } from '@shared/text/reserved-names';
import { applyNameSlugsDeep } from '@shared/validation/name-slug';
import { badRequest, forbidden } from '../http/errors';
import type { WorkspaceRow } from '../workspaces/repository';
import type { SchemaScope } from './scope';

type Data = Record<string, unknown>;

const localizedByWorkspace = new WeakMap<object, Map<SchemaType, SchemaType>>();

/**
 * The schema as this workspace sees it: with its localised fields and locales when the workspace has
 * locales (derived once per workspace row as read), else the built-in schema itself.
 */
export function schemaInWorkspace(workspace: Pick<WorkspaceRow, 'basics'>, schema: SchemaType): SchemaType {
  const settings = workspace.basics.locales;
  if (!settings) return schema;
  let derived = localizedByWorkspace.get(workspace);
  if (!derived) localizedByWorkspace.set(workspace, (derived = new Map()));
  let localized = derived.get(schema);
  if (!localized) derived.set(schema, (localized = localizedSchema(schema, settings)));
  return localized;
}

/** Each other locale's name-slugs as the default locale's are: typed text kebab-cased, empty derived from its source. */
export function normaliseLocaleSlugs(schema: SchemaType, data: Data): Data {
  const locales = data[LOCALES_KEY];
  if (!schema.locales || typeof locales !== 'object' || locales === null) return data;
  const fields = schema.fields.filter(isLocalized);
  const mayHoldSlugs = (field: FieldDef) => ['name-slug', 'table', 'blocks'].includes(field.type);
  if (!fields.some(mayHoldSlugs)) return data;
  const next: Record<string, Data> = {};
  for (const tag of Object.keys(locales)) {
    const slugged = applyNameSlugsDeep({ fields, blockTypes: schema.blockTypes }, localeValues(data, tag));
    for (const field of fields) {
      const slug = field.type === 'name-slug' ? slugged[field.key] : undefined;
      if (typeof slug === 'string' && isReservedName(slug))
        throw badRequest(`data.${LOCALES_KEY}.${tag}.${field.key}: ${reservedNameMessage(slug)}`);
    }
    next[tag] = slugged;
  }
  return { ...data, [LOCALES_KEY]: next };
}

function tagsIn(data: Data): string[] {
  const locales = data[LOCALES_KEY];
  return typeof locales === 'object' && locales !== null ? Object.keys(locales) : [];
}

/** The locales (and whether shared fields) a save changes, comparing what it stores with what was stored. */
function changedParts(schema: SchemaType, before: Data, after: Data) {
  const localized = new Set(schema.fields.filter(isLocalized).map((field) => field.key));
  let shared = false;
  let inDefault = false;
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (key === LOCALES_KEY || sameValue(before[key], after[key])) continue;
    if (localized.has(key)) inDefault = true;
    else shared = true;
  }
  const tags = new Set([...tagsIn(before), ...tagsIn(after)]);
  const others = [...tags].filter((tag) => !sameValue(localeValues(before, tag), localeValues(after, tag)));
  return { shared, inDefault, others };
}

/**
 * A member whose roles limit the schema to some locales may change only those locales' values: a save
 * that changes another locale's values (or a field every locale shares) answers 403 naming it.
 * `before` is the stored data (empty for a new item).
 */
export function requireLocaleRights(scope: SchemaScope, before: Data, after: Data) {
  const allowed = editableLocales(scope.permissions, scope.schema.name);
  if (!allowed) return;
  const what = scope.schema.pluralTitle;
  const { locales } = scope.schema;
  const changed = changedParts(scope.schema, before, after);
  const defaultTag = locales?.default;
  if (changed.inDefault && defaultTag && !allowed.includes(defaultTag))
    throw forbidden(localeMessages.cannotEditLocale(defaultTag, what));
  if (changed.shared || (changed.inDefault && !defaultTag)) {
    // Fields every locale shares belong to no locale; editors limited to locales leave them as they are.
    if (!defaultTag || !allowed.includes(defaultTag)) throw forbidden(localeMessages.cannotEditShared(what));
  }
  for (const tag of changed.others)
    if (!allowed.includes(tag)) throw forbidden(localeMessages.cannotEditLocale(tag, what));
}

import type { CriteriaCatalog } from '@shared/criteria/catalog';
import {
  ATTRIBUTE_TYPES,
  PROPERTY_TYPES,
  type AttributeType,
  type PropertyType,
} from '@shared/criteria/operators';
import { looseEventKey } from '@shared/criteria/undeclared';
import type { Db } from '../db/client';
import type { ItemSaveHook } from '../items/save-hooks';
import { listDefinitions } from './repository';

/** The workspace's attributes and events by key (what imports convert with) and by id (the criteria catalogue). */
export interface CustomerDefinitions {
  catalog: CriteriaCatalog;
  attributesByKey: Map<string, AttributeType>;
  eventsByKey: Map<string, Map<string, PropertyType>>;
  /** Declared event keys by their loose form (`looseEventKey`): `page_view` answers `page-view` too. */
  eventsByLooseKey: Map<string, string>;
  /**
   * Attribute keys a write key may set on a profile without them but never change (`isProtected`),
   * and `email` while no attribute of that key is declared: ingestion keeps undeclared attributes.
   */
  protectedKeys: Set<string>;
}

/** The declared event a sent key names: the key itself, or one that differs only in `-` and `_`. */
export function declaredEventKey(defs: CustomerDefinitions, key: string): string | undefined {
  if (defs.eventsByKey.has(key)) return key;
  return defs.eventsByLooseKey.get(looseEventKey(key));
}

const PROTECTED_BY_DEFAULT = 'email';

/**
 * Whether an attribute is protected from write keys: as its definition's `protected` flag says, and
 * `email` when the flag is not set, since a changed address sends the customer's mail elsewhere.
 */
const isProtected = (data: { key?: unknown; protected?: unknown }) =>
  typeof data.protected === 'boolean' ? data.protected : data.key === PROTECTED_BY_DEFAULT;

/** An attribute protected by default is saved with its flag set, so its form shows what applies. */
export const markProtectedAttributeOnSave: ItemSaveHook = (_ctx, scope, data) =>
  scope.schema.name === 'customer-profile-attribute' && data.protected === undefined && isProtected(data)
    ? { ...data, protected: true }
    : data;

const text = (value: unknown) => (typeof value === 'string' ? value : '');

export async function loadDefinitions(db: Db, workspaceId: string): Promise<CustomerDefinitions> {
  const defs: CustomerDefinitions = {
    catalog: { attributes: new Map(), events: new Map(), audiences: new Map() },
    attributesByKey: new Map(),
    eventsByKey: new Map(),
    eventsByLooseKey: new Map(),
    protectedKeys: new Set(),
  };
  for (const row of await listDefinitions(db, workspaceId)) {
    const label = text(row.data.name);
    if (row.schema === 'audience') {
      defs.catalog.audiences.set(row.id, { label, criteria: row.data.criteria });
      continue;
    }
    const key = text(row.data.key);
    if (!key) continue;
    if (row.schema === 'customer-profile-attribute') {
      const type = row.data.attributeType as AttributeType;
      if (!ATTRIBUTE_TYPES.includes(type)) continue;
      const options = Array.isArray(row.data.options)
        ? row.data.options.filter((o) => typeof o === 'string')
        : [];
      defs.catalog.attributes.set(row.id, { key, type, label, options });
      defs.attributesByKey.set(key, type);
      if (isProtected(row.data)) defs.protectedKeys.add(key);
    } else {
      const properties = new Map<string, PropertyType>();
      for (const property of Array.isArray(row.data.properties) ? row.data.properties : []) {
        const { name, type } = (property ?? {}) as { name?: unknown; type?: unknown };
        if (typeof name === 'string' && PROPERTY_TYPES.includes(type as PropertyType)) {
          properties.set(name, type as PropertyType);
        }
      }
      defs.catalog.events.set(row.id, { key, label, properties });
      defs.eventsByKey.set(key, properties);
    }
  }
  for (const key of [...defs.eventsByKey.keys()].sort()) {
    if (!defs.eventsByLooseKey.has(looseEventKey(key))) defs.eventsByLooseKey.set(looseEventKey(key), key);
  }
  if (!defs.attributesByKey.has(PROTECTED_BY_DEFAULT)) defs.protectedKeys.add(PROTECTED_BY_DEFAULT);
  return defs;
}

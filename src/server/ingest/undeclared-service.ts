import { can } from '@shared/permissions/permissions';
import { inferType, nameOfKey } from '@shared/criteria/undeclared';
import type { PropertyType } from '@shared/criteria/operators';
import {
  UNDECLARED_LIMITS,
  UNDECLARED_MESSAGES,
  type DeclareBody,
  type DeclaredAnswer,
  type UndeclaredAttribute,
  type UndeclaredEvent,
  type UndeclaredEventProperty,
  type UndeclaredList,
  type UndeclaredProperty,
} from '@shared/api/undeclared';
import type { AppContext } from '../context';
import { declaredEventKey, loadDefinitions, type CustomerDefinitions } from '../customers/definitions';
import { conflict, notFound } from '../http/errors';
import { requireRight, schemaIn } from '../items/scope';
import { createItem, requireItem, updateItem } from '../items/service';
import type { WorkspaceAccess } from '../workspaces/access';
import { isDeclared, nameId } from './undeclared';
import { listUndeclared, type UndeclaredRow } from './undeclared-repository';

/** One kept name over its types of value: how many messages sent it, when first and last. */
interface Sighting {
  name: string;
  type: PropertyType;
  types: Record<string, number>;
  count: number;
  firstSeen: string;
  lastSeen: string;
  examples: string[];
}

/** The rows of each kept name merged into one sighting, by `nameId`. */
function sightings(rows: UndeclaredRow[]) {
  const byName = new Map<string, { row: UndeclaredRow; sighting: Sighting }>();
  for (const row of rows) {
    const id = nameId(row);
    let entry = byName.get(id);
    if (!entry) {
      const sighting: Sighting = {
        name: row.name,
        type: 'string',
        types: {},
        count: 0,
        firstSeen: row.firstSeen.toISOString(),
        lastSeen: row.lastSeen.toISOString(),
        examples: [],
      };
      byName.set(id, (entry = { row, sighting }));
    }
    const { sighting } = entry;
    sighting.count += row.count;
    if (row.type) sighting.types[row.type] = (sighting.types[row.type] ?? 0) + row.count;
    if (row.firstSeen.toISOString() < sighting.firstSeen) sighting.firstSeen = row.firstSeen.toISOString();
    if (row.lastSeen.toISOString() > sighting.lastSeen) sighting.lastSeen = row.lastSeen.toISOString();
    sighting.examples.push(...(row.examples ?? []));
  }
  for (const { sighting } of byName.values()) sighting.type = inferType(sighting.types);
  return [...byName.values()];
}

/** Most sent first, then by name. */
const mostSent =
  <T extends { count: number }>(nameOf: (value: T) => string) =>
  (a: T, b: T) =>
    b.count - a.count || nameOf(a).localeCompare(nameOf(b));
const byKey = mostSent((value: { key: string; count: number }) => value.key);
const byName = mostSent((value: { name: string; count: number }) => value.name);

const seen = ({ count, firstSeen, lastSeen }: Sighting) => ({ count, firstSeen, lastSeen });
const asProperty = (s: Sighting): UndeclaredProperty => ({
  name: s.name,
  type: s.type,
  types: s.types,
  ...seen(s),
});

/**
 * What the workspace kept and has not declared, arranged as the list shows it: events with their
 * properties, properties of declared events, attributes (and the texts seen of each array attribute).
 */
function arrange(defs: CustomerDefinitions, rows: UndeclaredRow[]) {
  const events: UndeclaredEvent[] = [];
  const properties: UndeclaredEventProperty[] = [];
  const ofUndeclaredEvents = new Map<string, UndeclaredProperty[]>();
  const attributes: UndeclaredAttribute[] = [];
  const examples = new Map<string, string[]>();
  for (const { row, sighting } of sightings(rows)) {
    if (isDeclared(defs, row.kind, row.event, row.name)) continue;
    if (row.kind === 'attribute') {
      const { name, ...attribute } = asProperty(sighting);
      attributes.push({ key: name, ...attribute });
      examples.set(name, sighting.examples);
    } else if (row.kind === 'event') {
      events.push({ key: row.name, ...seen(sighting), properties: [] });
    } else {
      const declared = declaredEventKey(defs, row.event);
      if (declared) properties.push({ event: declared, ...asProperty(sighting) });
      else
        ofUndeclaredEvents.set(row.event, [
          ...(ofUndeclaredEvents.get(row.event) ?? []),
          asProperty(sighting),
        ]);
    }
  }
  for (const event of events) event.properties = (ofUndeclaredEvents.get(event.key) ?? []).sort(byName);
  return {
    events: events.sort(byKey),
    properties: properties.sort(byName),
    attributes: attributes.sort(byKey),
    examples,
  };
}

async function undeclaredOf(ctx: AppContext, workspaceId: string) {
  const [defs, rows] = await Promise.all([
    loadDefinitions(ctx.db, workspaceId),
    listUndeclared(ctx.db, workspaceId),
  ]);
  return { defs, ...arrange(defs, rows) };
}

/**
 * The events, properties and attributes websites and apps sent that the workspace has not declared,
 * most sent first, with what the caller may declare. Any member who reads the workspace's customer
 * data definitions may read it: names and counts, no customer's values.
 */
export async function listUndeclaredData(ctx: AppContext, access: WorkspaceAccess): Promise<UndeclaredList> {
  const events = schemaIn(access, 'behavioral-event');
  const attributes = schemaIn(access, 'customer-profile-attribute');
  const found = await undeclaredOf(ctx, access.workspace.id);
  return {
    events: found.events,
    properties: found.properties,
    attributes: found.attributes,
    limits: UNDECLARED_LIMITS,
    abilities: {
      canDeclareEvents: can(events.permissions, 'edit', events.schema.name),
      canDeclareAttributes: can(attributes.permissions, 'edit', attributes.schema.name),
    },
  };
}

/**
 * Declares a kept name with one click, with the type its values suggest: an event (with its kept
 * properties) or an attribute as a new definition item, a property as the next version of its
 * event's item. Through the items' own create and save, so it is journaled and needs the right to
 * edit that schema (403), as on the definition screens.
 */
export async function declareUndeclared(
  ctx: AppContext,
  access: WorkspaceAccess,
  body: DeclareBody,
): Promise<DeclaredAnswer> {
  const schema = body.kind === 'attribute' ? 'customer-profile-attribute' : 'behavioral-event';
  const scope = schemaIn(access, schema);
  requireRight(scope, 'edit');
  const found = await undeclaredOf(ctx, access.workspace.id);
  if (body.kind === 'event') {
    const event = found.events.find((e) => e.key === body.key);
    if (!event) throw missing(declaredEventKey(found.defs, body.key) !== undefined);
    const properties = event.properties.map(({ name, type }) => ({ name, type }));
    const item = await createItem(ctx, scope, { name: nameOfKey(event.key), key: event.key, properties });
    return { schema, id: item.id };
  }
  if (body.kind === 'attribute') {
    const attribute = found.attributes.find((a) => a.key === body.key);
    if (!attribute) throw missing(found.defs.attributesByKey.has(body.key));
    const texts = found.examples.get(attribute.key) ?? [];
    const options = attribute.type === 'array' ? { options: [...new Set(texts)].sort() } : {};
    const item = await createItem(ctx, scope, {
      name: nameOfKey(attribute.key),
      key: attribute.key,
      attributeType: attribute.type,
      ...options,
    });
    return { schema, id: item.id };
  }
  const eventKey = declaredEventKey(found.defs, body.event);
  if (!eventKey) {
    const isKept = found.events.some((e) => e.key === body.event);
    throw isKept ? conflict(UNDECLARED_MESSAGES.eventNotDeclared) : notFound(UNDECLARED_MESSAGES.notSeen);
  }
  const property = found.properties.find((p) => p.event === eventKey && p.name === body.name);
  if (!property) throw missing(found.defs.eventsByKey.get(eventKey)!.has(body.name));
  const id = [...found.defs.catalog.events].find(([, event]) => event.key === eventKey)![0];
  const item = await requireItem(ctx, scope, id);
  const declared = Array.isArray(item.data.properties) ? item.data.properties : [];
  const saved = await updateItem(
    ctx,
    scope,
    id,
    { ...item.data, properties: [...declared, { name: property.name, type: property.type }] },
    item.version,
  );
  return { schema, id: saved.id };
}

const missing = (isDeclaredAlready: boolean) =>
  isDeclaredAlready ? conflict(UNDECLARED_MESSAGES.alreadyDeclared) : notFound(UNDECLARED_MESSAGES.notSeen);

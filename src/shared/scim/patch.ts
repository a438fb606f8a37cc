import { filter as filterOf, parse, type Filter } from 'scim2-parse-filter';

/**
 * SCIM PATCH (RFC 7644 §3.5.2) over a resource held as plain JSON: add, replace and remove, with or
 * without a path, in the path styles identity providers send — `active`, `name.givenName`,
 * `emails[type eq "work"].value`, `members[value eq "…"]`, an extension's `urn:…:User:department`, and
 * Entra ID's value objects whose keys are themselves paths (`{"name.givenName": "Ada"}`).
 */

export type ScimResource = Record<string, unknown>;

export interface PatchOperation {
  op: string;
  path?: string;
  value?: unknown;
}

/** A PATCH the resource cannot take: RFC 7644's `scimType` and what to tell the client. */
export class ScimPatchError extends Error {
  constructor(
    readonly scimType: 'invalidPath' | 'noTarget' | 'invalidValue' | 'invalidSyntax' | 'invalidFilter',
    message: string,
  ) {
    super(message);
    this.name = 'ScimPatchError';
  }
}

interface ParsedPath {
  /** The extension object the attribute lives in (its schema URN), or none for a core attribute. */
  extension?: string;
  attr: string;
  filter?: Filter;
  sub?: string;
}

const ATTR = /^[A-Za-z$][\w$-]*$/;

/**
 * Splits a path into the attribute, an optional value filter and sub-attribute. `schemas` are the URNs
 * the resource may carry: a path may lead with one (the core one is dropped, an extension names its object).
 */
function parsePath(path: string, schemas: readonly string[], coreSchema: string): ParsedPath {
  let rest = path.trim();
  let extension: string | undefined;
  const urn = [...schemas]
    .sort((a, b) => b.length - a.length)
    .find((s) => rest.toLowerCase().startsWith(`${s.toLowerCase()}:`));
  if (urn) {
    rest = rest.slice(urn.length + 1);
    if (urn !== coreSchema) extension = urn;
  } else if (rest.toLowerCase().startsWith('urn:')) {
    throw new ScimPatchError('invalidPath', `The path "${path}" names an unknown schema`);
  }
  let filter: Filter | undefined;
  let sub: string | undefined;
  const open = rest.indexOf('[');
  let attr = rest;
  if (open !== -1) {
    const close = rest.lastIndexOf(']');
    if (close < open) throw new ScimPatchError('invalidPath', `The path "${path}" is not valid`);
    attr = rest.slice(0, open);
    try {
      filter = parse(rest.slice(open + 1, close));
    } catch {
      throw new ScimPatchError('invalidFilter', `The filter in the path "${path}" is not valid`);
    }
    const after = rest.slice(close + 1);
    if (after) {
      if (!after.startsWith('.')) throw new ScimPatchError('invalidPath', `The path "${path}" is not valid`);
      sub = after.slice(1);
    }
  } else if (rest.includes('.')) {
    [attr, sub] = [rest.slice(0, rest.indexOf('.')), rest.slice(rest.indexOf('.') + 1)];
  }
  if (!ATTR.test(attr) || (sub !== undefined && !ATTR.test(sub)))
    throw new ScimPatchError('invalidPath', `The path "${path}" is not valid`);
  return { extension, attr, filter, sub };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Attribute names are case-insensitive: the key the object already has for `name`, else `name`. */
function keyIn(object: Record<string, unknown>, name: string) {
  return Object.keys(object).find((key) => key.toLowerCase() === name.toLowerCase()) ?? name;
}

function containerOf(resource: ScimResource, extension: string | undefined, create: boolean) {
  if (!extension) return resource;
  const key = keyIn(resource, extension);
  const found = resource[key];
  if (isObject(found)) return found;
  if (!create) return undefined;
  const made: Record<string, unknown> = {};
  resource[key] = made;
  return made;
}

/** Two elements of a multi-valued attribute are the same when their `value`s are (else when equal). */
const sameElement = (a: unknown, b: unknown) =>
  isObject(a) && isObject(b) && a.value !== undefined
    ? a.value === b.value
    : JSON.stringify(a) === JSON.stringify(b);

function addValue(container: Record<string, unknown>, attr: string, value: unknown) {
  const key = keyIn(container, attr);
  const current = container[key];
  if (Array.isArray(current) || Array.isArray(value)) {
    const list = Array.isArray(current) ? [...(current as unknown[])] : [];
    for (const element of Array.isArray(value) ? value : [value]) {
      const at = list.findIndex((existing) => sameElement(existing, element));
      if (at === -1) list.push(element);
      else list[at] = element;
    }
    container[key] = list;
  } else if (isObject(current) && isObject(value)) {
    container[key] = { ...current, ...value };
  } else {
    container[key] = value;
  }
}

/** `{"name.givenName": "Ada", "urn:…:User:department": "R&D", "active": false}` as one operation per key. */
function splitValueObject(op: string, value: unknown): PatchOperation[] {
  if (!isObject(value))
    throw new ScimPatchError('invalidValue', `An ${op} without a path needs an object of attributes`);
  return Object.entries(value).map(([path, v]) => ({ op, path, value: v }));
}

/** The one element of a `type eq "work"` filter a replace may make when none matches. */
function elementOfFilter(filter: Filter): Record<string, unknown> | undefined {
  if (filter.op === 'eq' && ATTR.test(filter.attrPath)) return { [filter.attrPath]: filter.compValue };
  return undefined;
}

function applyOne(
  resource: ScimResource,
  operation: PatchOperation,
  schemas: readonly string[],
  coreSchema: string,
) {
  const op = String(operation.op ?? '').toLowerCase();
  if (op !== 'add' && op !== 'replace' && op !== 'remove')
    throw new ScimPatchError('invalidSyntax', `"${String(operation.op)}" is not add, replace or remove`);
  const path = operation.path?.trim();
  if (!path) {
    if (op === 'remove') throw new ScimPatchError('noTarget', 'A remove needs a path');
    for (const each of splitValueObject(op, operation.value)) applyOne(resource, each, schemas, coreSchema);
    return;
  }
  // An extension URN alone as the path: its object's attributes one by one.
  const extensionOnly = schemas.find((s) => s !== coreSchema && s.toLowerCase() === path.toLowerCase());
  if (extensionOnly && op !== 'remove') {
    for (const [attr, value] of Object.entries(isObject(operation.value) ? operation.value : {}))
      applyOne(resource, { op, path: `${extensionOnly}:${attr}`, value }, schemas, coreSchema);
    return;
  }
  const { extension, attr, filter, sub } = parsePath(path, schemas, coreSchema);
  const container = containerOf(resource, extension, op !== 'remove');
  if (!container) return;
  const key = keyIn(container, attr);
  if (op !== 'remove' && operation.value === undefined)
    throw new ScimPatchError('invalidValue', `The ${op} of "${path}" has no value`);

  if (filter) {
    const matches = filterOf(filter);
    const list = Array.isArray(container[key]) ? [...(container[key] as unknown[])] : [];
    const hits = list.map((element, i) => (matches(element) ? i : -1)).filter((i) => i !== -1);
    if (op === 'remove') {
      container[key] = sub
        ? list.map((element, i) => (hits.includes(i) && isObject(element) ? omitKey(element, sub) : element))
        : list.filter((_, i) => !hits.includes(i));
      return;
    }
    if (hits.length === 0) {
      const made = elementOfFilter(filter);
      if (!made) throw new ScimPatchError('noTarget', `No value matches the filter of "${path}"`);
      list.push(sub ? { ...made, [sub]: operation.value } : { ...made, ...asObject(operation.value, path) });
    }
    for (const i of hits) {
      const element = list[i];
      if (sub)
        list[i] = {
          ...(isObject(element) ? element : {}),
          [keyIn(isObject(element) ? element : {}, sub)]: operation.value,
        };
      else if (op === 'replace') list[i] = operation.value;
      else list[i] = { ...(isObject(element) ? element : {}), ...asObject(operation.value, path) };
    }
    container[key] = list;
    return;
  }

  if (sub) {
    const parent = container[key];
    if (Array.isArray(parent))
      throw new ScimPatchError('invalidPath', `"${path}" needs a filter to pick among the values of ${attr}`);
    const object = isObject(parent) ? { ...parent } : {};
    if (op === 'remove') delete object[keyIn(object, sub)];
    else if (op === 'add') addValue(object, sub, operation.value);
    else object[keyIn(object, sub)] = operation.value;
    container[key] = object;
    return;
  }

  if (op === 'remove') {
    const current = container[key];
    // Entra ID removes group members by value: `{"path": "members", "value": [{"value": "…"}]}`.
    if (Array.isArray(current) && operation.value !== undefined) {
      const gone = Array.isArray(operation.value) ? operation.value : [operation.value];
      container[key] = current.filter((element) => !gone.some((g) => sameElement(element, g)));
    } else delete container[key];
    return;
  }
  if (op === 'add') addValue(container, attr, operation.value);
  else container[key] = operation.value;
}

function asObject(value: unknown, path: string): Record<string, unknown> {
  if (!isObject(value)) throw new ScimPatchError('invalidValue', `The value for "${path}" must be an object`);
  return value;
}

function omitKey(object: Record<string, unknown>, name: string) {
  const key = keyIn(object, name);
  return Object.fromEntries(Object.entries(object).filter(([k]) => k !== key));
}

/**
 * The resource with the operations applied in order, or a ScimPatchError; the resource given is left
 * as it was. `schemas` are the URNs paths may lead with, `coreSchema` among them.
 */
export function applyPatch(
  resource: ScimResource,
  operations: readonly PatchOperation[],
  schemas: readonly string[],
  coreSchema: string,
): ScimResource {
  const result = structuredClone(resource);
  for (const operation of operations) {
    if (!isObject(operation)) throw new ScimPatchError('invalidSyntax', 'Each operation must be an object');
    applyOne(result, operation, schemas, coreSchema);
  }
  return result;
}

import { and, not, or, sql, type SQL } from 'drizzle-orm';
import { parse, type Filter } from 'scim2-parse-filter';
import { SCIM_SCHEMAS } from '@shared/api/scim';
import { scimGroupMembers, scimGroups, scimUsers } from '../db/schema';

/**
 * SCIM list filters (RFC 7644 §3.4.2.2) compiled to SQL over the filterable columns, so a provider
 * looking one user up by userName reads one row, not the workspace's users. Attribute names are
 * case-insensitive; userName, emails and displayName compare case-insensitively (RFC 7643 caseExact
 * false), ids and externalId exactly.
 */

/** A filter the service cannot run: RFC 7644's `invalidFilter`. */
export class ScimFilterError extends Error {}

type Op = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'lt' | 'ge' | 'le' | 'pr';
type CompValue = string | number | boolean | null;
/** How one attribute compares: the SQL for `attr op value`. */
type Attribute = (op: Op, value: CompValue) => SQL;

function text(expr: SQL, isCaseExact: boolean): Attribute {
  return (op, value) => {
    if (op === 'pr') return sql`(${expr} is not null and ${expr} <> '')`;
    if (typeof value !== 'string') throw new ScimFilterError(`"${op}" needs a string here`);
    const [a, b] = isCaseExact
      ? [expr, sql`${value}::text`]
      : [sql`lower(${expr})`, sql`lower(${value}::text)`];
    switch (op) {
      case 'eq':
        return sql`${a} = ${b}`;
      case 'ne':
        return sql`${a} is distinct from ${b}`;
      case 'co':
        return sql`strpos(${a}, ${b}) > 0`;
      case 'sw':
        return sql`left(${a}, length(${b})) = ${b}`;
      case 'ew':
        return sql`right(${a}, length(${b})) = ${b}`;
      case 'gt':
        return sql`${a} > ${b}`;
      case 'ge':
        return sql`${a} >= ${b}`;
      case 'lt':
        return sql`${a} < ${b}`;
      case 'le':
        return sql`${a} <= ${b}`;
    }
  };
}

function boolean(expr: SQL): Attribute {
  return (op, value) => {
    if (op === 'pr') return sql`true`;
    const wanted = typeof value === 'string' ? value.toLowerCase() : value;
    if (wanted !== true && wanted !== false && wanted !== 'true' && wanted !== 'false')
      throw new ScimFilterError('A boolean attribute compares with true or false');
    const is = wanted === true || wanted === 'true';
    if (op === 'eq') return sql`${expr} = ${is}`;
    if (op === 'ne') return sql`${expr} <> ${is}`;
    throw new ScimFilterError(`"${op}" does not apply to a boolean attribute`);
  };
}

function time(expr: SQL): Attribute {
  return (op, value) => {
    if (op === 'pr') return sql`true`;
    if (typeof value !== 'string' || Number.isNaN(Date.parse(value)))
      throw new ScimFilterError('A dateTime attribute compares with a date such as 2026-01-31T12:00:00Z');
    const at = sql`${new Date(value).toISOString()}::timestamptz`;
    const cmp = { eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=' }[op as string];
    if (!cmp) throw new ScimFilterError(`"${op}" does not apply to a dateTime attribute`);
    return sql`${expr} ${sql.raw(cmp)} ${at}`;
  };
}

/** A comparison that holds when some element of a JSON array's `field` satisfies it. */
function someElement(array: SQL, inner: Attribute): Attribute {
  const elements = sql`jsonb_array_elements(case when jsonb_typeof(${array}) = 'array' then ${array} else '[]'::jsonb end)`;
  return (op, value) => sql`exists (select 1 from ${elements} as e(v) where ${inner(op, value)})`;
}

const emails = sql`(${scimUsers.attributes}->'emails')`;
const emailField = (field: 'value' | 'type' | 'primary') =>
  someElement(
    emails,
    field === 'primary'
      ? boolean(sql`coalesce(e.v->'primary' = 'true'::jsonb, false)`)
      : text(sql.raw(`(e.v->>'${field}')`), false),
  );

const USER_ATTRIBUTES: Record<string, Attribute> = {
  id: text(sql`${scimUsers.id}`, true),
  username: text(sql`${scimUsers.userName}`, false),
  externalid: text(sql`${scimUsers.externalId}`, true),
  displayname: text(sql`${scimUsers.displayName}`, false),
  active: boolean(sql`${scimUsers.active}`),
  emails: emailField('value'),
  'emails.value': emailField('value'),
  'emails.type': emailField('type'),
  'emails.primary': emailField('primary'),
  'name.givenname': text(sql`(${scimUsers.attributes}->'name'->>'givenName')`, false),
  'name.familyname': text(sql`(${scimUsers.attributes}->'name'->>'familyName')`, false),
  'name.formatted': text(sql`(${scimUsers.attributes}->'name'->>'formatted')`, false),
  'meta.created': time(sql`${scimUsers.createdAt}`),
  'meta.lastmodified': time(sql`${scimUsers.updatedAt}`),
};

const GROUP_ATTRIBUTES: Record<string, Attribute> = {
  id: text(sql`${scimGroups.id}`, true),
  displayname: text(sql`${scimGroups.displayName}`, false),
  externalid: text(sql`${scimGroups.externalId}`, true),
  'members.value': (op, value) => {
    if (op !== 'eq' || typeof value !== 'string')
      throw new ScimFilterError('members.value compares with eq and a user id only');
    return sql`exists (select 1 from ${scimGroupMembers} where ${scimGroupMembers.workspaceId} = ${scimGroups.workspaceId} and ${scimGroupMembers.groupId} = ${scimGroups.id} and ${scimGroupMembers.scimUserId} = ${value})`;
  },
  'meta.created': time(sql`${scimGroups.createdAt}`),
  'meta.lastmodified': time(sql`${scimGroups.updatedAt}`),
};
GROUP_ATTRIBUTES.members = GROUP_ATTRIBUTES['members.value'];

/** The attribute path without the resource's own schema URN (`urn:…:User:userName` → `username`). */
function attributeName(path: string, schema: string) {
  const lower = path.toLowerCase();
  const prefix = `${schema.toLowerCase()}:`;
  return lower.startsWith(prefix) ? lower.slice(prefix.length) : lower;
}

function compile(filter: Filter, attributes: Record<string, Attribute>, schema: string): SQL {
  switch (filter.op) {
    case 'and':
      return and(...filter.filters.map((f) => compile(f, attributes, schema)))!;
    case 'or':
      return or(...filter.filters.map((f) => compile(f, attributes, schema)))!;
    case 'not':
      return not(compile(filter.filter, attributes, schema));
    case '[]': {
      // emails[type eq "work" and value eq "ada@example.com"]: one element satisfying the inner filter.
      const name = attributeName(filter.attrPath, schema);
      if (name !== 'emails' || attributes !== USER_ATTRIBUTES)
        throw new ScimFilterError(`Filtering within "${filter.attrPath}" is not supported`);
      const inner = prefixed(filter.valFilter, 'emails.');
      return compile(inner, attributes, schema);
    }
    default: {
      const attribute = attributes[attributeName(filter.attrPath, schema)];
      if (!attribute) throw new ScimFilterError(`Filtering by "${filter.attrPath}" is not supported`);
      return attribute(filter.op, filter.op === 'pr' ? null : filter.compValue);
    }
  }
}

/** The inner filter of a value path with its attributes named from the outer attribute. */
function prefixed(filter: Filter, prefix: string): Filter {
  switch (filter.op) {
    case 'and':
    case 'or':
      return { ...filter, filters: filter.filters.map((f) => prefixed(f, prefix)) };
    case 'not':
      return { ...filter, filter: prefixed(filter.filter, prefix) };
    case '[]':
      throw new ScimFilterError('Value paths do not nest');
    default:
      return { ...filter, attrPath: `${prefix}${filter.attrPath}` };
  }
}

function compileFilter(text: string | undefined, attributes: Record<string, Attribute>, schema: string) {
  if (text === undefined || text.trim() === '') return undefined;
  let parsed: Filter;
  try {
    parsed = parse(text);
  } catch {
    throw new ScimFilterError(`The filter "${text.slice(0, 200)}" is not valid SCIM filter syntax`);
  }
  return compile(parsed, attributes, schema);
}

export const userFilter = (text: string | undefined) =>
  compileFilter(text, USER_ATTRIBUTES, SCIM_SCHEMAS.user);
export const groupFilter = (text: string | undefined) =>
  compileFilter(text, GROUP_ATTRIBUTES, SCIM_SCHEMAS.group);

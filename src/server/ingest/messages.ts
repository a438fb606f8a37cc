import { ANONYMOUS_PREFIX, INGEST_MESSAGES } from '@shared/api/ingest';
import type { CustomerDefinitions } from '../customers/definitions';
import {
  eventFromObject,
  ImportRows,
  type UndeclaredName,
  type UndeclaredPolicy,
} from '../customers/customer-rows';
import type { EventTuple } from '../customers/repository';

/**
 * A message read: an event to write, a profile to identify (and a visitor to merge into it), each with
 * the undeclared keys it keeps; or why not.
 */
export type Parsed =
  | { type: 'track'; row: EventTuple; profileId?: string; undeclared?: UndeclaredName[] }
  | {
      type: 'identify';
      profileId: string;
      attributes: Record<string, unknown>;
      anonymousId?: string;
      undeclared?: UndeclaredName[];
    }
  | { error: string };

export type MessageType = 'track' | 'identify';

const TRACK_FIELDS = new Set(['type', 'profileId', 'anonymousId', 'event', 'properties', 'at', 'id']);
/** The spec's analytics event document (§3), with the `data` and `at` our own sender adds. */
const DOCUMENT_FIELDS = new Set([
  'type',
  'xmUser',
  'xmSession',
  'xmWs',
  'url',
  'eventType',
  'data',
  'at',
  'id',
]);
const IDENTIFY_FIELDS = new Set(['type', 'profileId', 'anonymousId', 'attributes']);
/** The analytics document's user id of a visitor who is not signed in. */
const ANONYMOUS_USER = '__anonymous';
const MAX_ID = 200;

const unknownField = (value: Record<string, unknown>, known: Set<string>) => {
  const field = Object.keys(value).find((key) => !known.has(key));
  return field === undefined ? undefined : `unknown field "${field}"`;
};

const isText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/** The id a profile goes by, or why it cannot be one (ids of anonymous visitors are kept apart). */
function profileIdOf(value: unknown, field: string): string | { error: string } {
  if (!isText(value)) return { error: `${field} must be a non-empty string` };
  const id = value.trim();
  if (id.length > MAX_ID) return { error: `${field} is longer than ${MAX_ID} characters` };
  if (id.startsWith(ANONYMOUS_PREFIX)) return { error: `${field}: ${INGEST_MESSAGES.reservedId}` };
  return id;
}

/** The id an anonymous visitor's events are stored under: the prefix no profile id may have, then the visitor's. */
function anonymousIdOf(value: unknown, field: string): string | { error: string } {
  if (!isText(value)) return { error: `${field} must be a non-empty string` };
  const id = value.trim();
  if (id.length > MAX_ID - ANONYMOUS_PREFIX.length)
    return { error: `${field} is longer than ${MAX_ID - ANONYMOUS_PREFIX.length} characters` };
  return `${ANONYMOUS_PREFIX}${id}`;
}

/** What a message is: its `type`, or else told by its fields. */
function typeOf(value: Record<string, unknown>): MessageType | { error: string } {
  if (value.type === 'track' || value.type === 'identify') return value.type;
  if (value.type !== undefined) return { error: 'type must be "track" or "identify"' };
  return 'event' in value || 'eventType' in value ? 'track' : 'identify';
}

/** A track message or analytics document in the one shape: who, which event, when, what, its id. */
interface TrackFields {
  who: { profileId: unknown } | { anonymousId: unknown };
  event: unknown;
  at: unknown;
  properties: unknown;
  id: unknown;
}

function trackFields(value: Record<string, unknown>, workspaceId: string): TrackFields | { error: string } {
  if (!('eventType' in value)) {
    const unknown = unknownField(value, TRACK_FIELDS);
    if (unknown) return { error: unknown };
    if (value.profileId === undefined && value.anonymousId === undefined)
      return { error: 'profileId or anonymousId is required' };
    return {
      who:
        value.profileId !== undefined ? { profileId: value.profileId } : { anonymousId: value.anonymousId },
      event: value.event,
      at: value.at,
      properties: value.properties,
      id: value.id,
    };
  }
  // The analytics document: the user (or, signed out, the session) is the profile; url and data its properties.
  const unknown = unknownField(value, DOCUMENT_FIELDS);
  if (unknown) return { error: unknown };
  if (value.xmWs !== undefined && value.xmWs !== workspaceId)
    return { error: 'xmWs: not the workspace of this write key' };
  const { data } = value;
  if (data !== undefined && (typeof data !== 'object' || data === null || Array.isArray(data)))
    return { error: 'data must be an object' };
  const signedIn = isText(value.xmUser) && value.xmUser !== ANONYMOUS_USER;
  if (!signedIn && value.xmSession === undefined) return { error: 'xmUser or xmSession is required' };
  return {
    who: signedIn ? { profileId: value.xmUser } : { anonymousId: value.xmSession },
    event: value.eventType,
    at: value.at,
    properties: {
      ...(data as Record<string, unknown> | undefined),
      ...(value.url !== undefined ? { url: value.url } : {}),
    },
    id: value.id,
  };
}

/** How a message is read: by the workspace's definitions, keeping or refusing what they do not declare. */
export interface Reading {
  defs: CustomerDefinitions;
  workspaceId: string;
  now: string;
  undeclared: UndeclaredPolicy;
}

function track(value: Record<string, unknown>, reading: Reading): Parsed {
  const { defs, workspaceId, now } = reading;
  const fields = trackFields(value, workspaceId);
  if ('error' in fields) return fields;
  const { who } = fields;
  const isKnown = 'profileId' in who;
  const profileId =
    'profileId' in who
      ? profileIdOf(who.profileId, 'profileId')
      : anonymousIdOf(who.anonymousId, 'anonymousId');
  if (typeof profileId !== 'string') return profileId;
  const { id } = fields;
  if (id !== undefined && (!isText(id) || id.length > MAX_ID))
    return { error: `id must be a non-empty string of at most ${MAX_ID} characters` };
  // Converted under a stand-in id: imports refuse ids with the anonymous prefix, which this one may have.
  const converted = eventFromObject(
    {
      profileId: 'profile',
      event: fields.event,
      at: fields.at ?? now,
      ...(fields.properties !== undefined ? { properties: fields.properties } : {}),
    },
    defs,
    { undeclared: reading.undeclared },
  );
  if ('error' in converted) return converted;
  const [, event, at, properties] = converted.row;
  const row: EventTuple =
    id === undefined ? [profileId, event, at, properties] : [profileId, event, at, properties, id];
  return {
    type: 'track',
    row,
    ...(isKnown ? { profileId } : {}),
    ...(converted.undeclared ? { undeclared: converted.undeclared } : {}),
  };
}

function identify(value: Record<string, unknown>, reading: Reading): Parsed {
  const unknown = unknownField(value, IDENTIFY_FIELDS);
  if (unknown) return { error: unknown };
  const profileId = profileIdOf(value.profileId, 'profileId');
  if (typeof profileId !== 'string') return profileId;
  let anonymousId: string | undefined;
  if (value.anonymousId !== undefined) {
    const anonymous = anonymousIdOf(value.anonymousId, 'anonymousId');
    if (typeof anonymous !== 'string') return anonymous;
    anonymousId = anonymous;
  }
  const converted = new ImportRows('profiles', reading.defs, new Map(), reading.undeclared).profile({
    line: 0,
    value: { id: profileId, ...(value.attributes !== undefined ? { attributes: value.attributes } : {}) },
  });
  if ('error' in converted) return converted;
  return {
    type: 'identify',
    profileId,
    attributes: converted.row[1],
    ...(anonymousId ? { anonymousId } : {}),
    ...(converted.undeclared ? { undeclared: converted.undeclared } : {}),
  };
}

/**
 * One message of a request read by the workspace's definitions, as `eventFromObject` reads a live event:
 * event and property keys, typed values; what the definitions do not declare kept (checked for shape and
 * size) or, for a strict key, refused; `expected` is the type its endpoint takes (batch: any).
 */
export function parseMessage(value: unknown, expected: MessageType | undefined, reading: Reading): Parsed {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { error: 'a message must be an object' };
  const message = value as Record<string, unknown>;
  const type = message.type === undefined && expected ? expected : typeOf(message);
  if (typeof type !== 'string') return type;
  if (expected && type !== expected) return { error: `this endpoint takes ${expected} messages` };
  return type === 'track' ? track(message, reading) : identify(message, reading);
}

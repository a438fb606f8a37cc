import { z } from 'zod';
import { PROPERTY_TYPES } from '../criteria/operators';

/**
 * The HTTP contract of undeclared data: events, properties and attributes websites and apps sent
 * that the workspace has not declared, kept and counted (`GET /api/v1/workspaces/{ws}/undeclared`),
 * and declared with one click (`POST …/undeclared/declare`).
 */

export type UndeclaredKind = 'event' | 'property' | 'attribute';

/**
 * The most distinct undeclared names a workspace keeps, per kind (a property counts once per event):
 * past them, a message naming a new one is refused, so a site that sends a fresh name with every
 * event cannot grow the workspace without bound. Declaring names frees their places.
 */
export const UNDECLARED_LIMITS: Record<UndeclaredKind, number> = {
  event: 100,
  property: 500,
  attribute: 200,
};

const PLURAL: Record<UndeclaredKind, string> = {
  event: 'events',
  property: 'properties',
  attribute: 'attributes',
};

export const UNDECLARED_MESSAGES = {
  /** A message naming a new undeclared name when the workspace keeps as many as it may. */
  limitReached: (kind: UndeclaredKind, name: string) =>
    `unknown ${kind} "${name}": this workspace already keeps ${UNDECLARED_LIMITS[kind]} undeclared ${PLURAL[kind]}; declare them in Settings → Undeclared data`,
  notAKey: (kind: UndeclaredKind, name: string) =>
    `${kind} "${name}" is not a key: letters, digits, _ and -, starting with a letter`,
  notSeen: 'Nothing undeclared of that name was seen',
  alreadyDeclared: 'It is declared already',
  eventNotDeclared: 'Declare the event first: its undeclared properties come with it',
} as const;

const Seen = {
  count: z.number().int().describe('How many messages sent it'),
  firstSeen: z.string().describe('When it was first sent'),
  lastSeen: z.string().describe('When it was last sent'),
};

const InferredType = z.enum(PROPERTY_TYPES).describe('The type one click declares it with');
const TypesSeen = z
  .record(z.string(), z.number().int())
  .describe('How many values of each type were sent for it');

export const UndeclaredProperty = z.object({
  name: z.string(),
  type: InferredType,
  types: TypesSeen,
  ...Seen,
});
export type UndeclaredProperty = z.infer<typeof UndeclaredProperty>;

export const UndeclaredEvent = z.object({
  key: z.string(),
  ...Seen,
  properties: z.array(UndeclaredProperty).describe('Its properties, declared with it'),
});
export type UndeclaredEvent = z.infer<typeof UndeclaredEvent>;

export const UndeclaredEventProperty = UndeclaredProperty.extend({
  event: z.string().describe('The key of the declared event it was sent with'),
});
export type UndeclaredEventProperty = z.infer<typeof UndeclaredEventProperty>;

export const UndeclaredAttribute = z.object({
  key: z.string(),
  type: InferredType,
  types: TypesSeen,
  ...Seen,
});
export type UndeclaredAttribute = z.infer<typeof UndeclaredAttribute>;

export const UndeclaredList = z.object({
  events: z.array(UndeclaredEvent).describe('Events not declared, most sent first'),
  properties: z.array(UndeclaredEventProperty).describe('Undeclared properties of declared events'),
  attributes: z.array(UndeclaredAttribute).describe('Profile attributes not declared'),
  limits: z.object({ event: z.number(), property: z.number(), attribute: z.number() }),
  abilities: z.object({
    canDeclareEvents: z.boolean().describe('May edit behavioral events (events and their properties)'),
    canDeclareAttributes: z.boolean().describe('May edit customer profile attributes'),
  }),
});
export type UndeclaredList = z.infer<typeof UndeclaredList>;

const Key = z.string().min(1).max(100);

export const DeclareBody = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('event'), key: Key }).strict(),
  z.object({ kind: z.literal('property'), event: Key, name: Key }).strict(),
  z.object({ kind: z.literal('attribute'), key: Key }).strict(),
]);
export type DeclareBody = z.infer<typeof DeclareBody>;

export const DeclaredAnswer = z.object({
  schema: z.enum(['behavioral-event', 'customer-profile-attribute']),
  id: z.string().describe('The definition item created (an event, an attribute) or saved (a property)'),
});
export type DeclaredAnswer = z.infer<typeof DeclaredAnswer>;

import { ATTRIBUTE_TYPES, PROPERTY_TYPES } from '../schemas/marketing';

export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];
export type PropertyType = (typeof PROPERTY_TYPES)[number];
export { ATTRIBUTE_TYPES, PROPERTY_TYPES };

/** Spec §5: the operators an attribute (or an event property in a where clause) of each type offers. */
export const OPERATORS_BY_TYPE = {
  number: ['==', '!=', 'in', 'not in', '<', '<=', '>', '>='],
  string: ['==', '!=', 'in', 'not in'],
  categorical: ['==', '!=', 'in', 'not in'],
  boolean: ['==', '!='],
  array: ['is subset of', 'overlaps', 'disjoint'],
  date: ['is in the next', 'is not for another', 'was in the last', 'was not in the last'],
} as const satisfies Record<AttributeType, readonly string[]>;

export type Operator = (typeof OPERATORS_BY_TYPE)[AttributeType][number];

/** Spec §5: operators whose value is a list. */
const MULTI_VALUE_OPERATORS: readonly Operator[] = ['in', 'not in', 'overlaps', 'disjoint', 'is subset of'];

export const isMultiValue = (operator: string) =>
  (MULTI_VALUE_OPERATORS as readonly string[]).includes(operator);

export function operatorsFor(type: AttributeType): readonly Operator[] {
  return OPERATORS_BY_TYPE[type];
}

/** Spec §5 event condition operators: at least (>=), no more than (<=), exactly (==). */
export const EVENT_CONDITIONS = [
  { value: '>=', label: 'at least' },
  { value: '<=', label: 'no more than' },
  { value: '==', label: 'exactly' },
] as const;
export type EventCondition = (typeof EVENT_CONDITIONS)[number]['value'];

export const AGGREGATORS = ['COUNT', 'TOTAL'] as const;
export type Aggregator = (typeof AGGREGATORS)[number];

/** Spec §5 look-back units. */
export const LOOK_BACK_UNITS = ['anytime', 'years', 'months', 'weeks', 'days', 'hours', 'minutes'] as const;
export type LookBackUnit = (typeof LOOK_BACK_UNITS)[number];

export const GROUP_PREDICATES = ['and', 'or', 'not'] as const;
export type GroupPredicate = (typeof GROUP_PREDICATES)[number];

/** Spec §9: the tree is at most 4 groups deep; the root group is depth 1. */
export const MAX_DEPTH = 4;

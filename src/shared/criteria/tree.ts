import type { Aggregator, EventCondition, GroupPredicate, LookBackUnit, Operator } from './operators';

/** A reference to an item as the form stores it (spec §3 Reference). */
interface ItemRef {
  schemaType: string;
  id: string;
  label?: string;
}

/** Spec §3 group node. */
export interface CriteriaGroup {
  label: string;
  predicate: GroupPredicate;
  story?: string;
  children: CriteriaNode[];
}

export type RuleValue = string | number | boolean | string[] | number[];

export interface AttributeRule {
  type: 'attribute';
  predicate: { attribute?: ItemRef };
  operator?: Operator;
  value?: RuleValue;
}

export interface AudienceRule {
  type: 'audience';
  predicate: { remote?: ItemRef };
}

export interface EventRule {
  type: 'event';
  event?: ItemRef;
  lookBackUnit: LookBackUnit;
  lookBackValue: number;
  aggregator: Aggregator;
  aggregatorCondition: EventCondition;
  aggregatorValue: number;
  /** The summed property for TOTAL. */
  property?: string;
  whereProperty?: string;
  whereOperator?: Operator;
  whereValue?: RuleValue;
}

type CriteriaRule = AttributeRule | AudienceRule | EventRule;
export type CriteriaNode = CriteriaGroup | CriteriaRule;

export const isGroup = (node: CriteriaNode): node is CriteriaGroup => !('type' in node);

/** The label of a node at `index` among its parent's children: '1' → '1.2'. */
export const childLabel = (parentLabel: string, index: number) => `${parentLabel}.${index + 1}`;

import type { CriteriaCatalog } from './catalog';
import { matchValue } from './match-value';
import { lookBackStart } from './time';
import { isGroup, type CriteriaGroup, type CriteriaNode, type EventRule } from './tree';

export interface ProfileFacts {
  attributes: Record<string, unknown>;
  /** The profile's events, any key, any time. */
  events: { event: string; at: Date; properties: Record<string, unknown> }[];
}

/** Whether an event rule's aggregate satisfies its condition. */
export function conditionHolds(condition: EventRule['aggregatorCondition'], result: number, value: number) {
  return condition === '>=' ? result >= value : condition === '<=' ? result <= value : result === value;
}

function eventMatches(rule: EventRule, catalog: CriteriaCatalog, facts: ProfileFacts, asOf: Date) {
  const event = catalog.events.get(rule.event!.id)!;
  const start = lookBackStart(asOf, rule.lookBackUnit, rule.lookBackValue);
  const whereType = rule.whereProperty ? event.properties.get(rule.whereProperty) : undefined;
  let result = 0;
  for (const each of facts.events) {
    if (each.event !== event.key || each.at.getTime() > asOf.getTime()) continue;
    if (start && each.at.getTime() <= start.getTime()) continue;
    if (
      whereType &&
      !matchValue(
        whereType,
        rule.whereOperator!,
        rule.whereValue!,
        each.properties[rule.whereProperty!],
        asOf,
      )
    ) {
      continue;
    }
    if (rule.aggregator === 'COUNT') result += 1;
    else {
      const amount = each.properties[rule.property!];
      if (typeof amount === 'number' && Number.isFinite(amount)) result += amount;
    }
  }
  return conditionHolds(rule.aggregatorCondition, result, rule.aggregatorValue);
}

function nodeMatches(node: CriteriaNode, catalog: CriteriaCatalog, facts: ProfileFacts, asOf: Date): boolean {
  if (isGroup(node)) return groupMatches(node, catalog, facts, asOf);
  switch (node.type) {
    case 'attribute': {
      const attribute = catalog.attributes.get(node.predicate.attribute!.id)!;
      return matchValue(attribute.type, node.operator!, node.value!, facts.attributes[attribute.key], asOf);
    }
    case 'audience': {
      const criteria = catalog.audiences.get(node.predicate.remote!.id)!.criteria as
        CriteriaGroup | undefined;
      return criteria ? groupMatches(criteria, catalog, facts, asOf) : true;
    }
    case 'event':
      return eventMatches(node, catalog, facts, asOf);
  }
}

function groupMatches(group: CriteriaGroup, catalog: CriteriaCatalog, facts: ProfileFacts, asOf: Date) {
  const matches = (child: CriteriaNode) => nodeMatches(child, catalog, facts, asOf);
  switch (group.predicate) {
    case 'and':
      return group.children.every(matches);
    case 'or':
      return group.children.length === 0 || group.children.some(matches);
    case 'not':
      return !group.children.some(matches);
  }
}

/**
 * The meaning of a checked criteria tree for one profile at `asOf`, in plain
 * TypeScript: the oracle the SQL compiler is tested against.
 */
export function profileMatches(
  tree: CriteriaGroup,
  catalog: CriteriaCatalog,
  facts: ProfileFacts,
  asOf: Date,
) {
  return groupMatches(tree, catalog, facts, asOf);
}

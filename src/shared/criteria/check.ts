import type { CriteriaCatalog } from './catalog';
import {
  AGGREGATORS,
  EVENT_CONDITIONS,
  GROUP_PREDICATES,
  LOOK_BACK_UNITS,
  MAX_DEPTH,
  isMultiValue,
  operatorsFor,
  type AttributeType,
} from './operators';
import { childLabel } from './tree';

/** Why a tree was refused: the node (its position label, as 1.2.3) and what is wrong with it. */
export interface CriteriaProblem {
  node: string;
  message: string;
}

class Refusal extends Error {
  constructor(
    readonly node: string,
    message: string,
  ) {
    super(message);
  }
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function onlyKeys(node: string, value: Json, allowed: readonly string[], what: string) {
  const extra = Object.keys(value).find((key) => !allowed.includes(key));
  if (extra) throw new Refusal(node, `${what} has an unknown field "${extra}"`);
}

function valueFits(type: AttributeType, value: unknown) {
  switch (type) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'string':
    case 'categorical':
    case 'array':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'date':
      return false;
  }
}

const typeWord = (type: AttributeType) =>
  type === 'number' ? 'a number' : type === 'boolean' ? 'yes or no' : 'text';

/** The value of a comparison, checked against the operator and the attribute's (or property's) type. */
function checkComparison(node: string, type: AttributeType, operator: unknown, value: unknown, what: string) {
  const operators: readonly string[] = operatorsFor(type);
  if (typeof operator !== 'string' || !operators.includes(operator)) {
    throw new Refusal(
      node,
      `operator ${JSON.stringify(operator ?? null)} does not fit ${what} of type ${type} (${operators.join(', ')})`,
    );
  }
  if (type === 'date') {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      throw new Refusal(
        node,
        `"${operator}" needs a whole number of days, not ${JSON.stringify(value ?? null)}`,
      );
    }
    return;
  }
  if (isMultiValue(operator)) {
    if (!Array.isArray(value) || !value.every((element) => valueFits(type, element))) {
      throw new Refusal(
        node,
        `"${operator}" needs a list of ${typeWord(type)} values, not ${JSON.stringify(value ?? null)}`,
      );
    }
    return;
  }
  if (!valueFits(type, value)) {
    throw new Refusal(
      node,
      `"${operator}" needs ${typeWord(type)} value, not ${JSON.stringify(value ?? null)}`,
    );
  }
}

function refOf(node: string, value: unknown, schemaType: string, placeholder: string) {
  if (!isObject(value) || typeof value.id !== 'string' || value.id === '')
    throw new Refusal(node, placeholder);
  onlyKeys(node, value, ['schemaType', 'id', 'label'], 'the reference');
  if (value.schemaType !== schemaType) {
    throw new Refusal(
      node,
      `the reference must name a ${schemaType}, not ${JSON.stringify(value.schemaType ?? null)}`,
    );
  }
  return value.id;
}

interface Walk {
  catalog: CriteriaCatalog;
  selfId: string | undefined;
  /** Audiences whose criteria are being followed (the chain from the tree being checked). */
  chain: string[];
}

function checkAttribute(node: string, leaf: Json, walk: Walk) {
  onlyKeys(node, leaf, ['type', 'predicate', 'operator', 'value'], 'an attribute rule');
  const id = refOf(
    node,
    isObject(leaf.predicate) ? leaf.predicate.attribute : undefined,
    'customer-profile-attribute',
    'Attribute not selected',
  );
  const attribute = walk.catalog.attributes.get(id);
  if (!attribute) throw new Refusal(node, `attribute ${id} does not exist in this workspace`);
  checkComparison(node, attribute.type, leaf.operator, leaf.value, `attribute "${attribute.label}"`);
}

function checkAudience(node: string, leaf: Json, walk: Walk) {
  onlyKeys(node, leaf, ['type', 'predicate'], 'an audience rule');
  const id = refOf(
    node,
    isObject(leaf.predicate) ? leaf.predicate.remote : undefined,
    'audience',
    'Audience not selected',
  );
  const audience = walk.catalog.audiences.get(id);
  if (!audience && id !== walk.selfId)
    throw new Refusal(node, `audience ${id} does not exist in this workspace`);
  if (id === walk.selfId || walk.chain.includes(id)) {
    const chain = [...walk.chain, id].map((each) => walk.catalog.audiences.get(each)?.label ?? each);
    throw new Refusal(node, `an audience cannot include itself (${chain.join(' → ')})`);
  }
  // Follow the chain: the included audience's own tree must not lead back here.
  const included = audience?.criteria;
  if (included === undefined || included === null) return;
  try {
    checkGroup('1', included, 1, { ...walk, chain: [...walk.chain, id] });
  } catch (err) {
    if (err instanceof Refusal && err.message.startsWith('an audience cannot include itself')) {
      throw new Refusal(node, err.message);
    }
    if (err instanceof Refusal)
      throw new Refusal(node, `included audience "${audience?.label}" is invalid: ${err.message}`);
    throw err;
  }
}

const EVENT_KEYS = [
  'type',
  'event',
  'lookBackUnit',
  'lookBackValue',
  'aggregator',
  'aggregatorCondition',
  'aggregatorValue',
  'property',
  'whereProperty',
  'whereOperator',
  'whereValue',
];

function checkEvent(node: string, leaf: Json, walk: Walk) {
  onlyKeys(node, leaf, EVENT_KEYS, 'a behavior rule');
  const id = refOf(node, leaf.event, 'behavioral-event', 'Event not selected');
  const event = walk.catalog.events.get(id);
  if (!event) throw new Refusal(node, `event ${id} does not exist in this workspace`);
  if (!(LOOK_BACK_UNITS as readonly unknown[]).includes(leaf.lookBackUnit)) {
    throw new Refusal(node, `look-back unit must be one of ${LOOK_BACK_UNITS.join(', ')}`);
  }
  const lookBack = leaf.lookBackValue;
  if (
    leaf.lookBackUnit !== 'anytime' &&
    (typeof lookBack !== 'number' || !Number.isInteger(lookBack) || lookBack < 1)
  ) {
    throw new Refusal(
      node,
      `look-back value must be a whole number of at least 1, not ${JSON.stringify(lookBack ?? null)}`,
    );
  }
  if (!(AGGREGATORS as readonly unknown[]).includes(leaf.aggregator)) {
    throw new Refusal(node, `aggregator must be COUNT or TOTAL`);
  }
  if (!EVENT_CONDITIONS.some((condition) => condition.value === leaf.aggregatorCondition)) {
    throw new Refusal(node, `condition must be >= (at least), <= (no more than) or == (exactly)`);
  }
  if (typeof leaf.aggregatorValue !== 'number' || !Number.isFinite(leaf.aggregatorValue)) {
    throw new Refusal(node, `the ${String(leaf.aggregator)} value must be a number`);
  }
  if (leaf.aggregator === 'TOTAL') {
    if (typeof leaf.property !== 'string' || event.properties.get(leaf.property) !== 'number') {
      throw new Refusal(node, `TOTAL needs a number property of event "${event.label}" to sum`);
    }
  } else if (leaf.property !== undefined) {
    throw new Refusal(node, `only TOTAL sums a property`);
  }
  const hasWhere = [leaf.whereProperty, leaf.whereOperator, leaf.whereValue].some(
    (part) => part !== undefined,
  );
  if (!hasWhere) return;
  const propertyType =
    typeof leaf.whereProperty === 'string' ? event.properties.get(leaf.whereProperty) : undefined;
  if (!propertyType) {
    throw new Refusal(
      node,
      `where: event "${event.label}" has no property ${JSON.stringify(leaf.whereProperty ?? null)}`,
    );
  }
  checkComparison(
    node,
    propertyType,
    leaf.whereOperator,
    leaf.whereValue,
    `property "${String(leaf.whereProperty)}"`,
  );
}

function checkGroup(node: string, group: unknown, depth: number, walk: Walk) {
  if (!isObject(group) || 'type' in group)
    throw new Refusal(node, 'a group needs label, predicate and children');
  onlyKeys(node, group, ['label', 'predicate', 'story', 'children'], 'a group');
  if (depth > MAX_DEPTH) throw new Refusal(node, `groups may nest at most ${MAX_DEPTH} deep`);
  if (typeof group.label !== 'string') throw new Refusal(node, 'a group needs a label');
  if (!(GROUP_PREDICATES as readonly unknown[]).includes(group.predicate)) {
    throw new Refusal(node, 'a group predicate must be and, or or not');
  }
  if (group.story !== undefined && typeof group.story !== 'string')
    throw new Refusal(node, 'a story must be text');
  if (!Array.isArray(group.children)) throw new Refusal(node, 'a group needs a list of children');
  group.children.forEach((child: unknown, index: number) => {
    const label = childLabel(node, index);
    if (isObject(child) && !('type' in child)) return checkGroup(label, child, depth + 1, walk);
    if (!isObject(child)) throw new Refusal(label, 'a rule must be an object');
    if (child.type === 'attribute') return checkAttribute(label, child, walk);
    if (child.type === 'audience') return checkAudience(label, child, walk);
    if (child.type === 'event') return checkEvent(label, child, walk);
    throw new Refusal(label, 'a rule type must be attribute, audience or event');
  });
}

/**
 * Checks a criteria tree strictly: depth, operators by type, values by type, referenced
 * attributes, events and audiences existing in the catalogue, and no audience including itself
 * through any chain. `selfId` is the audience being saved. Answers the first problem, or null.
 */
export function checkCriteria(
  tree: unknown,
  catalog: CriteriaCatalog,
  selfId?: string,
): CriteriaProblem | null {
  try {
    checkGroup('1', tree, 1, { catalog, selfId, chain: selfId ? [selfId] : [] });
    return null;
  } catch (err) {
    if (err instanceof Refusal) return { node: err.node, message: err.message };
    throw err;
  }
}

/**
 * Whether a content model is sound: every name well formed and unique, every reference between its
 * parts (display conditions, slug sources, top fields, reference and blocks targets) pointing at
 * something, and blocks nesting at most MAX_BLOCK_DEPTH levels.
 */
import { LOCALES_KEY } from '../locales/locales';
import type { BlockType, FieldDef, FieldValidator, SchemaType } from '../schemas/types';
import { FIELD_TYPES, timezoneKey } from '../schemas/types';
import { isReservedName } from '../text/reserved-names';
import { previewUrlProblems } from '../preview/preview-urls';
import type { ContentModelDoc, ModelDomain } from './types';
import { allFields } from './find';
import { MAX_BLOCK_DEPTH } from './types';

export const MAX_FIELDS_PER_SCHEMA = 1000;
export const MAX_SCHEMAS = 2000;
export const MAX_BLOCK_TYPES = 500;
const MAX_EXPRESSION_LENGTH = 500;
const MAX_NAME_LENGTH = 64;

const KEY_PATTERN = new RegExp(`^[A-Za-z][A-Za-z0-9_-]{0,${MAX_NAME_LENGTH - 1}}$`);
const SLUG_PATTERN = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
/** Keys item data already uses for itself, or that plain objects answer to. */
const RESERVED_KEYS: ReadonlySet<string> = new Set(['id', LOCALES_KEY, 'prototype']);
/** Properties the registry sets on the schemas it answers; never stored in the model. */
const DERIVED_SCHEMA_PROPERTIES = ['blockTypes', 'locales'] as const;

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';
const isWholeNumber = (value: unknown, least: number) =>
  typeof value === 'number' && Number.isInteger(value) && value >= least;

const isReservedKey = (key: string) => RESERVED_KEYS.has(key) || key.startsWith('_') || isReservedName(key);

/** The model's first problem as a message naming where it is, or undefined for a sound model. */
export function modelProblem(doc: ContentModelDoc): string | undefined {
  for (const problem of modelProblems(doc)) return problem;
  return undefined;
}

/** What the checks of one list of fields need to know about the rest of the model. */
interface Scope {
  schemaNames: ReadonlySet<string>;
  blockTypeNames: ReadonlySet<string>;
}

/** Where a list of fields sits: its owner as messages name it, and what it may hold. */
interface Place {
  owner: string;
  noun: 'field' | 'column';
  allowsCombinations: boolean;
}

function* modelProblems(doc: ContentModelDoc): Generator<string> {
  if (!isRecord(doc) || !Array.isArray(doc.domains) || !Array.isArray(doc.blockTypes)) {
    yield 'A content model needs a list of domains and a list of block types';
    return;
  }
  for (const domain of doc.domains) {
    if (!isRecord(domain) || !Array.isArray(domain.schemas)) {
      yield 'Every domain needs a name, a title and a list of schemas';
      return;
    }
  }
  const schemas = doc.domains.flatMap((domain) => domain.schemas);
  if (schemas.length > MAX_SCHEMAS) yield `A content model holds at most ${MAX_SCHEMAS} schemas`;
  if (doc.blockTypes.length > MAX_BLOCK_TYPES)
    yield `A content model holds at most ${MAX_BLOCK_TYPES} block types`;
  yield* nameProblems('Domain', doc.domains);
  yield* nameProblems('Schema', schemas);
  yield* nameProblems('Block type', doc.blockTypes);
  const scope: Scope = {
    schemaNames: new Set(schemas.map((schema) => schema.name)),
    blockTypeNames: new Set(doc.blockTypes.map((blockType) => blockType.name)),
  };
  for (const domain of doc.domains) yield* domainProblems(domain, scope);
  for (const blockType of doc.blockTypes) yield* blockTypeProblems(blockType, scope);
  yield* nestingProblems(doc.blockTypes);
}

function* nameProblems(kind: string, things: readonly unknown[]): Generator<string> {
  const seen = new Set<string>();
  for (const thing of things) {
    const name = isRecord(thing) ? thing.name : undefined;
    if (typeof name !== 'string' || !SLUG_PATTERN.test(name) || name.length > MAX_NAME_LENGTH) {
      yield `${kind} name ${JSON.stringify(name ?? '')} must be kebab-case (a-z, 0-9 and single dashes, starting with a letter, at most ${MAX_NAME_LENGTH} characters)`;
    } else if (isReservedName(name)) {
      yield `${kind} name "${name}" is reserved; choose another`;
    } else if (seen.has(name)) {
      yield `Two ${kind.toLowerCase()}s are named "${name}"`;
    }
    if (typeof name === 'string') seen.add(name);
    if (isRecord(thing) && !isText(thing.title)) yield `${kind} "${String(name)}" needs a title`;
  }
}

function* domainProblems(domain: ModelDomain, scope: Scope): Generator<string> {
  for (const schema of domain.schemas) yield* schemaProblems(schema, scope);
  const { landingSchema } = domain;
  if (landingSchema !== undefined && !domain.schemas.some((schema) => schema.name === landingSchema))
    yield `Domain "${domain.name}": landing schema "${String(landingSchema)}" is not one of its schemas`;
}

function* schemaProblems(schema: SchemaType, scope: Scope): Generator<string> {
  const owner = `Schema "${schema.name}"`;
  if (!Array.isArray(schema.fields) || !Array.isArray(schema.topFields)) {
    yield `${owner} needs a list of fields and a list of top fields`;
    return;
  }
  if (!isText(schema.pluralTitle)) yield `${owner} needs a plural title`;
  if (typeof schema.icon !== 'string') yield `${owner} needs an icon`;
  for (const property of DERIVED_SCHEMA_PROPERTIES)
    if (property in schema) yield `${owner}: "${property}" is not part of the model`;
  const place = {
    owner,
    noun: 'field',
    allowsCombinations: schema.allowCombinations === true,
  };
  yield* fieldListProblems(schema.fields, place as Place, scope);
  yield* combinationProblems(schema);
  const keys = new Set(schema.fields.map((field) => field.key));
  for (const key of schema.topFields)
    if (!keys.has(key)) yield `${owner}: top field "${String(key)}" names no field of the schema`;
  if (schema.thumbnail !== undefined) {
    const thumbnail = schema.fields.find((field) => field.key === schema.thumbnail);
    if (thumbnail?.type !== 'file') yield `${owner}: thumbnail "${schema.thumbnail}" names no file field`;
  }
  yield* previewUrlProblems(schema);
}

function* combinationProblems(schema: SchemaType): Generator<string> {
  const owner = `Schema "${schema.name}"`;
  const variations = schema.variations ?? [];
  if (!Array.isArray(variations)) {
    yield `${owner}: variations must be a list`;
    return;
  }
  if (schema.fields.filter((field) => field.type === 'combinations').length > 1)
    yield `${owner} has more than one combinations field`;
  if (schema.allowCombinations && variations.length === 0)
    yield `${owner} allows combinations but has no variations`;
  const names = new Set<string>();
  for (const variation of variations) {
    if (!isRecord(variation) || typeof variation.name !== 'string' || !KEY_PATTERN.test(variation.name)) {
      yield `${owner}: variation name ${JSON.stringify(isRecord(variation) ? variation.name : variation)} must be a key (letters, digits, _ or -, starting with a letter)`;
      continue;
    }
    if (names.has(variation.name)) yield `${owner}: two variations are named "${variation.name}"`;
    names.add(variation.name);
    yield* optionProblems(variation.options, `${owner}, variation "${variation.name}"`);
  }
}

function* blockTypeProblems(blockType: BlockType, scope: Scope): Generator<string> {
  const owner = `Block type "${blockType.name}"`;
  if (!Array.isArray(blockType.fields)) {
    yield `${owner} needs a list of fields`;
    return;
  }
  if (blockType.icon !== undefined && typeof blockType.icon !== 'string') yield `${owner}: icon must be text`;
  yield* fieldListProblems(blockType.fields, { owner, noun: 'field', allowsCombinations: false }, scope);
}

function* fieldListProblems(fields: readonly FieldDef[], place: Place, scope: Scope): Generator<string> {
  if (fields.length > MAX_FIELDS_PER_SCHEMA)
    yield `${place.owner} holds more than ${MAX_FIELDS_PER_SCHEMA} ${place.noun}s`;
  if (!fields.every((field) => isRecord(field) && typeof field.key === 'string')) {
    yield `${place.owner}: every ${place.noun} needs a key`;
    return;
  }
  const keys = new Set<string>();
  for (const { key } of fields) {
    if (isReservedKey(key)) yield `${place.owner}: ${place.noun} key "${key}" is reserved; choose another`;
    else if (!KEY_PATTERN.test(key))
      yield `${place.owner}: ${place.noun} key "${key}" must be letters, digits, _ or -, start with a letter and be at most ${MAX_NAME_LENGTH} characters`;
    if (keys.has(key)) yield `${place.owner}: two ${place.noun}s have the key "${key}"`;
    keys.add(key);
  }
  for (const field of fields) {
    if (field.type === 'datetime' && keys.has(timezoneKey(field.key)))
      yield `${place.owner}: ${place.noun} key "${timezoneKey(field.key)}" is the time zone of date-time ${place.noun} "${field.key}"; choose another`;
  }
  for (const field of fields) yield* fieldProblems(field, keys, place, scope);
}

function* fieldProblems(
  field: FieldDef,
  siblings: ReadonlySet<string>,
  place: Place,
  scope: Scope,
): Generator<string> {
  const where = `${place.owner}, ${place.noun} "${field.key}"`;
  if (!(FIELD_TYPES as readonly string[]).includes(field.type)) {
    yield `${where}: unknown field type ${JSON.stringify(field.type)}`;
    return;
  }
  if (!isText(field.label)) yield `${where} needs a label`;
  if (field.labelWidth !== undefined && !(isWholeNumber(field.labelWidth, 1) && field.labelWidth <= 12))
    yield `${where}: label width must be a whole number from 1 to 12`;
  const condition = conditionProblem(field.displayIf, field.key, siblings, place.noun);
  if (condition) yield `${where}: ${condition}`;
  for (const [index, validator] of (field.validators ?? []).entries()) {
    const problem = validatorProblem(validator);
    if (problem) yield `${where}: validator ${index + 1} ${problem}`;
  }
  yield* typeProblems(field, where, siblings, place, scope);
}

function conditionProblem(
  condition: unknown,
  key: string,
  siblings: ReadonlySet<string>,
  noun: string,
): string | undefined {
  if (condition === undefined) return undefined;
  if (
    !isRecord(condition) ||
    !('equals' in condition || Array.isArray(condition.in) || condition.notEmpty === true)
  )
    return 'a display condition needs equals, in or notEmpty';
  if (condition.field === key || typeof condition.field !== 'string' || !siblings.has(condition.field))
    return `display condition names no other ${noun} "${String(condition.field)}"`;
  return undefined;
}

function validatorProblem(validator: FieldValidator): string | undefined {
  if (!isRecord(validator) || !('expression' in validator) || typeof validator.expression !== 'string')
    return 'needs a regular expression';
  if (!isText(validator.message)) return 'needs a message';
  if (validator.expression.length > MAX_EXPRESSION_LENGTH)
    return `is longer than ${MAX_EXPRESSION_LENGTH} characters`;
  try {
    new RegExp(validator.expression, validator.flags);
    return undefined;
  } catch (error) {
    return `does not compile: ${(error as Error).message}`;
  }
}

function* typeProblems(
  field: FieldDef,
  where: string,
  siblings: ReadonlySet<string>,
  place: Place,
  scope: Scope,
): Generator<string> {
  switch (field.type) {
    case 'name-slug':
      if (field.from === field.key || !siblings.has(field.from))
        yield `${where}: slug source "${String(field.from)}" names no other ${place.noun}`;
      break;
    case 'generatable':
      if (!isWholeNumber(field.generateLength, 1))
        yield `${where}: generate length must be a whole number above 0`;
      break;
    case 'number':
    case 'range':
    case 'date':
    case 'datetime':
      yield* limitProblems(field, where);
      break;
    case 'select':
      yield* optionProblems(field.options, where);
      break;
    case 'reference':
    case 'reference-list':
      yield* targetProblems(field.schemaTypes, scope.schemaNames, where, 'schema');
      break;
    case 'blocks':
      yield* targetProblems(field.blockTypes, scope.blockTypeNames, where, 'block type');
      if (field.maxBlocks !== undefined && !isWholeNumber(field.maxBlocks, 1))
        yield `${where}: max blocks must be a whole number above 0`;
      break;
    case 'table':
      yield* tableProblems(field, where, scope);
      break;
    case 'code':
      if (![field.beginBlock, field.endBlock, field.defaultCode].every((text) => typeof text === 'string'))
        yield `${where}: code needs a begin block, an end block and default code`;
      break;
    case 'combinations':
      if (!place.allowsCombinations)
        yield `${where}: only a schema that allows combinations holds combinations`;
      break;
  }
}

function* limitProblems(
  field: Extract<FieldDef, { type: 'number' | 'range' | 'date' | 'datetime' }>,
  where: string,
): Generator<string> {
  const { min, max } = field;
  const isNumeric = field.type === 'number' || field.type === 'range';
  const isLimit = (value: unknown) =>
    value === undefined ||
    (isNumeric
      ? typeof value === 'number' && Number.isFinite(value)
      : typeof value === 'string' && !Number.isNaN(Date.parse(value)));
  if (!isLimit(min) || !isLimit(max))
    yield `${where}: min and max must be ${isNumeric ? 'numbers' : 'dates'}`;
  else if (field.type === 'range' && (min === undefined || max === undefined))
    yield `${where}: a range needs a min and a max`;
  else if (min !== undefined && max !== undefined) {
    const isAbove = isNumeric ? min > max : Date.parse(min as string) > Date.parse(max as string);
    if (isAbove) yield `${where}: min ${min} is above max ${max}`;
  }
}

function* optionProblems(options: unknown, where: string): Generator<string> {
  if (!Array.isArray(options) || options.length === 0) {
    yield `${where} needs at least one option`;
    return;
  }
  const values = new Set<string>();
  for (const option of options) {
    if (!isRecord(option) || typeof option.value !== 'string' || typeof option.label !== 'string')
      yield `${where}: every option needs a value and a label`;
    else if (values.has(option.value)) yield `${where}: two options have the value "${option.value}"`;
    else values.add(option.value);
  }
}

function* targetProblems(
  targets: unknown,
  names: ReadonlySet<string>,
  where: string,
  kind: string,
): Generator<string> {
  if (!Array.isArray(targets) || targets.length === 0) {
    yield `${where}: choose at least one ${kind}`;
    return;
  }
  for (const target of targets)
    if (typeof target !== 'string' || !names.has(target))
      yield `${where}: no ${kind} is named "${String(target)}"`;
}

function* tableProblems(
  field: Extract<FieldDef, { type: 'table' }>,
  where: string,
  scope: Scope,
): Generator<string> {
  if (!Array.isArray(field.columns) || field.columns.length === 0) {
    yield `${where}: a table needs at least one column`;
    return;
  }
  if (field.maxRows !== undefined && !isWholeNumber(field.maxRows, 1))
    yield `${where}: max rows must be a whole number above 0`;
  yield* fieldListProblems(field.columns, { owner: where, noun: 'column', allowsCombinations: false }, scope);
}

/**
 * Blocks inside blocks: a block type's depth is 1 plus the deepest block type its blocks fields allow.
 * A block type that holds itself, directly or through others, is infinitely deep.
 */
function* nestingProblems(blockTypes: readonly BlockType[]): Generator<string> {
  const children = new Map(blockTypes.map((blockType) => [blockType.name, childTypes(blockType.fields)]));
  const depths = new Map<string, number>();
  const depthOf = (name: string, visiting: Set<string>): number => {
    const known = depths.get(name);
    if (known !== undefined) return known;
    if (visiting.has(name)) return Infinity;
    visiting.add(name);
    const below = [...(children.get(name) ?? [])].map((child) => depthOf(child, visiting));
    visiting.delete(name);
    const depth = 1 + Math.max(0, ...below);
    depths.set(name, depth);
    return depth;
  };
  for (const { name } of blockTypes) {
    if (depthOf(name, new Set()) <= MAX_BLOCK_DEPTH) continue;
    const chain = [name];
    while (chain.length <= MAX_BLOCK_DEPTH) {
      const deepest = [...children.get(chain.at(-1)!)!].sort((a, b) => depths.get(b)! - depths.get(a)!)[0];
      chain.push(deepest);
    }
    yield `Block type "${name}" nests blocks more than ${MAX_BLOCK_DEPTH} levels deep: ${chain.join(' → ')} → …`;
    return;
  }
}

/** The block types the blocks fields of a list of fields (and of its tables) allow. */
const childTypes = (fields: readonly FieldDef[]): Set<string> =>
  new Set(
    allFields(fields).flatMap((field) =>
      field.type === 'blocks' && Array.isArray(field.blockTypes) ? field.blockTypes : [],
    ),
  );

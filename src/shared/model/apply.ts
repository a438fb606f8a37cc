/**
 * Applying a change set to a content model. Each operation either names what it acts on and applies,
 * or is refused with a 400 message naming it; the resulting model must be sound (`modelProblem`).
 */
import { renamePlaceholder } from '../preview/preview-urls';
import type { BlockType, FieldDef, SchemaType } from '../schemas/types';
import { isReservedName } from '../text/reserved-names';
import {
  allFields,
  allowsBlockType,
  type FieldOp,
  isFieldOp,
  findBlockType,
  findDomain,
  findField,
  findOwner,
  findSchema,
  OpRefusal,
  refuse,
} from './find';
import type { ContentModelDoc, FieldOwner, FieldPatch, ModelOp } from './types';
import { isRecord, modelProblem } from './validate';

/** A change set that cannot apply; the message is meant for the person who made it (400). */
export class ModelChangeError extends Error {}

/** The model with the operations applied in order; the input is never changed. */
export function applyOps(doc: ContentModelDoc, ops: readonly ModelOp[]): ContentModelDoc {
  const model = structuredClone(doc);
  ops.forEach((op, index) => applyOp(model, op, index));
  const problem = removedTargetProblem(model, ops) ?? modelProblem(model);
  if (problem) throw new ModelChangeError(problem);
  return model;
}

/**
 * Applies one operation to a working copy, in place and without checking the whole model (a change set
 * may pass through unsound states). A refusal names the operation by its index in the change set.
 */
export function applyOp(model: ContentModelDoc, op: ModelOp, index: number): void {
  try {
    applyInPlace(model, op);
  } catch (error) {
    if (!(error instanceof OpRefusal)) throw error;
    throw new ModelChangeError(`ops.${index} (${String(op?.op)}): ${error.message}`);
  }
}

/** The object each adding operation carries (a schema, a field definition…). */
const PAYLOADS: Partial<Record<ModelOp['op'], string>> = {
  addDomain: 'domain',
  addSchema: 'schema',
  addBlockType: 'blockType',
  addField: 'field',
  retypeField: 'field',
};

function applyInPlace(model: ContentModelDoc, op: ModelOp): void {
  if (!isRecord(op)) refuse('An operation must be an object');
  const payload = PAYLOADS[op.op];
  if (payload && !isRecord((op as Record<string, unknown>)[payload])) refuse(`It needs a ${payload} object`);
  if (isFieldOp(op)) return applyFieldOp(model, op);
  switch (op.op) {
    case 'addDomain':
    case 'updateDomain':
    case 'removeDomain':
    case 'moveDomain':
      return applyDomainOp(model, op);
    case 'addSchema':
    case 'updateSchema':
    case 'removeSchema':
    case 'moveSchema':
      return applySchemaOp(model, op);
    case 'addBlockType':
    case 'updateBlockType':
    case 'removeBlockType':
    case 'moveBlockType':
      return applyBlockTypeOp(model, op);
    default:
      refuse(`Unknown operation ${JSON.stringify((op as { op: unknown }).op)}`);
  }
}

type OpOf<Name extends ModelOp['op']> = Extract<ModelOp, { op: Name }>;

const DOMAIN_PATCHABLE = ['title', 'admin', 'landingSchema'];
const SCHEMA_PATCHABLE = [
  'title',
  'pluralTitle',
  'icon',
  'thumbnail',
  'variations',
  'topFields',
  'allowCombinations',
  'allowSaveWithErrors',
  'previewUrls',
];
const BLOCK_TYPE_PATCHABLE = ['title', 'icon'];

function applyDomainOp(
  model: ContentModelDoc,
  op: OpOf<'addDomain' | 'updateDomain' | 'removeDomain' | 'moveDomain'>,
) {
  if (op.op === 'addDomain') {
    const { name } = op.domain;
    if (model.domains.some((domain) => domain.name === name)) refuse(`There is already a domain "${name}"`);
    if ('schemas' in op.domain) refuse('Add the schemas of a new domain with addSchema');
    model.domains = insertAt(model.domains, { ...structuredClone(op.domain), schemas: [] }, op.index);
    return;
  }
  const { domain, index } = findDomain(model, op.domain);
  if (op.op === 'updateDomain') {
    model.domains[index] = patched(domain, op.patch, onlyThese(DOMAIN_PATCHABLE, 'a domain'));
  } else if (op.op === 'moveDomain') {
    model.domains = moved(model.domains, domain, op.index);
  } else if (domain.schemas.length > 0) {
    refuse(`Domain "${op.domain}" still has schemas; move or remove them first`);
  } else {
    model.domains.splice(index, 1);
  }
}

function applySchemaOp(
  model: ContentModelDoc,
  op: OpOf<'addSchema' | 'updateSchema' | 'removeSchema' | 'moveSchema'>,
) {
  if (op.op === 'addSchema') {
    const { name } = op.schema;
    if (model.domains.some((domain) => domain.schemas.some((schema) => schema.name === name)))
      refuse(`There is already a schema "${name}"`);
    refuseLocked(op.schema.fields, `Schema "${name}"`);
    const { domain } = findDomain(model, op.domain);
    domain.schemas = insertAt(domain.schemas, structuredClone(op.schema), op.index);
    return;
  }
  const { domain, schema, index } = findSchema(model, op.schema);
  if (op.op === 'updateSchema') {
    domain.schemas[index] = patched(schema, op.patch, onlyThese(SCHEMA_PATCHABLE, 'a schema'));
    return;
  }
  if (op.op === 'removeSchema') {
    // Every item's name is read by lists and the audit log: that alone keeps no schema in.
    const locked = schema.fields.find((field) => field.locked && field.key !== 'name');
    if (locked)
      refuse(`Schema "${schema.name}" cannot be removed: Marquee relies on its field "${locked.key}"`);
    domain.schemas.splice(index, 1);
    return;
  }
  const target = findDomain(model, op.domain).domain;
  const remaining = target === domain ? domain.schemas.filter((other) => other !== schema) : target.schemas;
  const moved = insertAt(remaining, schema, op.index);
  domain.schemas = domain.schemas.filter((other) => other !== schema);
  target.schemas = moved;
}

function applyBlockTypeOp(
  model: ContentModelDoc,
  op: OpOf<'addBlockType' | 'updateBlockType' | 'removeBlockType' | 'moveBlockType'>,
) {
  if (op.op === 'addBlockType') {
    const { name } = op.blockType;
    if (model.blockTypes.some((blockType) => blockType.name === name))
      refuse(`There is already a block type "${name}"`);
    refuseLocked(op.blockType.fields, `Block type "${name}"`);
    model.blockTypes = insertAt(model.blockTypes, structuredClone(op.blockType), op.index);
    return;
  }
  const { blockType, index } = findBlockType(model, op.blockType);
  if (op.op === 'updateBlockType') {
    model.blockTypes[index] = patched(blockType, op.patch, onlyThese(BLOCK_TYPE_PATCHABLE, 'a block type'));
    return;
  }
  if (op.op === 'moveBlockType')
    return void (model.blockTypes = moved(model.blockTypes, blockType, op.index));
  const user = blocksFieldUsing(model, blockType.name);
  if (user) refuse(`Block type "${blockType.name}" is used by ${user}; remove it there first`);
  model.blockTypes.splice(index, 1);
}

/** How messages name the first blocks field (of a schema or another block type) allowing the block type. */
const blocksFieldUsing = (model: ContentModelDoc, name: string) =>
  firstFieldWhere(model, (field) => allowsBlockType(field, name), name);

/**
 * How messages name the first field (a table's columns included) of a schema or a block type (but
 * `exceptBlockType`) that `matches`.
 */
function firstFieldWhere(
  model: ContentModelDoc,
  matches: (field: FieldDef) => boolean,
  exceptBlockType?: string,
): string | undefined {
  const owners: { fields: readonly FieldDef[]; where: string }[] = [
    ...model.domains.flatMap((domain) =>
      domain.schemas.map((schema) => ({ fields: schema.fields, where: `schema "${schema.name}"` })),
    ),
    ...model.blockTypes
      .filter((blockType) => blockType.name !== exceptBlockType)
      .map((blockType) => ({ fields: blockType.fields, where: `block type "${blockType.name}"` })),
  ];
  for (const { fields, where } of owners) {
    const field = allFields(fields).find(matches);
    if (field) return `field "${field.key}" of ${where}`;
  }
  return undefined;
}

/** A schema the change set removes that a reference field of the resulting model still targets. */
function removedTargetProblem(model: ContentModelDoc, ops: readonly ModelOp[]): string | undefined {
  const names = new Set(model.domains.flatMap((domain) => domain.schemas.map((schema) => schema.name)));
  for (const [index, op] of ops.entries()) {
    if (op.op !== 'removeSchema' || names.has(op.schema)) continue;
    const user = firstFieldWhere(
      model,
      (field) =>
        (field.type === 'reference' || field.type === 'reference-list') &&
        Array.isArray(field.schemaTypes) &&
        field.schemaTypes.includes(op.schema),
    );
    if (user)
      return (
        `ops.${index} (removeSchema): Schema "${op.schema}" cannot be removed: ${user} refers to it; ` +
        `remove that field or take "${op.schema}" out of its schemas first`
      );
  }
  return undefined;
}

/** Only Marquee's built-in fields are locked: a change set never adds one. */
function refuseLocked(fields: readonly FieldDef[], where: string) {
  // A schema brought back (the revert of its removal) comes with its locked name.
  const locked = allFields(fields).find((field) => field.locked && field.key !== 'name');
  if (locked) refuse(`${where}: field "${locked.key}" cannot be added locked; only built-in fields are`);
}

function applyFieldOp(model: ContentModelDoc, op: FieldOp) {
  const { holder, where } = findOwner(model, op as FieldOwner);
  if (op.op === 'addField') {
    if (holder.fields.some((field) => field.key === op.field.key))
      refuse(`${where} already has a field "${op.field.key}"`);
    refuseLocked([op.field], where);
    holder.fields = insertAt(holder.fields, structuredClone(op.field), op.index);
    return;
  }
  const { field, index } = findField(holder, op.op === 'renameField' ? op.from : op.key, where);
  const isChange = op.op === 'renameField' || op.op === 'retypeField' || op.op === 'removeField';
  if (isChange && field.locked) refuse(`${where}: field "${field.key}" is locked (Marquee relies on it)`);
  const others = holder.fields.filter((other) => other !== field);
  switch (op.op) {
    case 'updateField':
      return void (holder.fields = holder.fields.with(index, patchedField(field, op.patch, where)));
    case 'renameField':
      return renameField(holder, field, op.to, where);
    case 'retypeField':
      if (op.field?.key !== field.key)
        refuse(`${where}: the new definition of "${field.key}" has another key; rename the field instead`);
      refuseLocked([op.field], where);
      return void (holder.fields = holder.fields.with(index, structuredClone(op.field)));
    case 'removeField':
      return void (holder.fields = others);
    case 'moveField':
      return void (holder.fields = moved(holder.fields, field, op.index));
  }
}

/** Properties that fix what a field's values are: server code reading a locked field relies on them. */
const LOCKED_PROPERTIES = new Set([
  'options',
  'schemaTypes',
  'columns',
  'from',
  'keepsDataKeys',
  'blockTypes',
  'accept',
  'beginBlock',
  'endBlock',
  'language',
]);

function patchedField(field: FieldDef, patch: FieldPatch, where: string): FieldDef {
  return patched(field, patch, (key) => {
    if (key === 'key') return "A field's key cannot be patched; use renameField";
    if (key === 'type') return "A field's type cannot be patched; use retypeField";
    if (key === 'multiple')
      return 'Whether a select holds several values changes its values; use retypeField';
    if (key === 'locked') return 'Only built-in fields are locked';
    if (isReservedName(key)) return `"${key}" is not a field property`;
    if (field.locked && LOCKED_PROPERTIES.has(key))
      return `${where}: field "${field.key}" is locked (Marquee relies on it); its ${key} cannot change`;
    return undefined;
  });
}

function renameField(holder: SchemaType | BlockType, field: FieldDef, to: string, where: string) {
  if (typeof to !== 'string') refuse('A field needs a new key to be renamed to');
  if (holder.fields.some((other) => other.key === to)) refuse(`${where} already has a field "${to}"`);
  const from = field.key;
  holder.fields = holder.fields.map((other) => {
    let next: FieldDef = other === field ? { ...other, key: to } : other;
    if (next.displayIf?.field === from) next = { ...next, displayIf: { ...next.displayIf, field: to } };
    if (next.type === 'name-slug' && next.from === from) next = { ...next, from: to };
    return next;
  });
  if ('topFields' in holder) {
    holder.topFields = holder.topFields.map((key) => (key === from ? to : key));
    if (holder.thumbnail === from) holder.thumbnail = to;
    if (Array.isArray(holder.previewUrls))
      holder.previewUrls = holder.previewUrls.map((url) => renamePlaceholder(url, from, to));
  }
}

function insertAt<T>(list: readonly T[], item: T, index: number | undefined): T[] {
  const at = index ?? list.length;
  if (!Number.isInteger(at) || at < 0 || at > list.length)
    refuse(`Index ${String(index)} is outside 0–${list.length}`);
  return [...list.slice(0, at), item, ...list.slice(at)];
}

/** The list with `item` moved to `index` of the others. */
function moved<T>(list: readonly T[], item: T, index: number | undefined): T[] {
  if (index === undefined) refuse('A move needs the index to move to');
  return insertAt(
    list.filter((other) => other !== item),
    item,
    index,
  );
}

const onlyThese = (keys: readonly string[], what: string) => (key: string) =>
  keys.includes(key) ? undefined : `"${key}" is not a property of ${what} that a patch may change`;

/** The target with the patch's properties set (deep copies) and those patched to null removed. */
function patched<T extends object>(
  target: T,
  patch: Readonly<Record<string, unknown>>,
  problemOf: (key: string) => string | undefined,
): T {
  if (!isRecord(patch)) refuse('A patch must be an object');
  const next = { ...target } as Record<string, unknown>;
  for (const [key, value] of Object.entries(patch)) {
    const problem = problemOf(key);
    if (problem) refuse(problem);
    if (value === null || value === undefined) delete next[key];
    else next[key] = structuredClone(value);
  }
  return next as T;
}

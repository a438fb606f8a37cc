/**
 * "Model as code": the change set turning one content model into another, so a model document can be
 * applied to a workspace. A field of the document may carry `renamedFrom: "oldKey"`, a hint that it is
 * an existing field under a new key (its values move with it) rather than a new field.
 */
import { sameValue } from '../schemas/compare';
import type { BlockType, FieldDef, SchemaType } from '../schemas/types';
import { applyOp } from './apply';
import { allFields, allowsBlockType, findOwner } from './find';
import type { ContentModelDoc, FieldOwner, ModelOp } from './types';

/** Marquee's own: a document can neither lock a field nor unlock one. */
const IGNORED_FIELD_PROPERTIES = ['key', 'type', 'locked'];

type Emit = (op: ModelOp) => void;

/**
 * The operations turning `from` into `to`, in this order: domains, block types and schemas added;
 * fields of the kept schemas and block types renamed, added, retyped and updated; domains, schemas and
 * block types updated; fields removed and moved; schemas removed, then moved; block types removed, then
 * moved; domains removed, then moved. The columns of a kept table change by operations on its columns
 * (a column may carry `renamedFrom` too), so their values follow. A document applied twice gives no
 * operations the second time. Throws `ModelChangeError` when `to` asks for
 * something no operation may do (remove a locked field…).
 */
export function diffModels(from: ContentModelDoc, to: ContentModelDoc): ModelOp[] {
  const work = structuredClone(from);
  const target = withoutHints(to);
  const ops: ModelOp[] = [];
  const emit: Emit = (op) => {
    applyOp(work, op, ops.length);
    ops.push(op);
  };
  const keptSchemas = schemasOf(to).filter((schema) =>
    schemasOf(from).some((old) => old.name === schema.name),
  );
  const keptBlockTypes = to.blockTypes.filter((blockType) =>
    from.blockTypes.some((old) => old.name === blockType.name),
  );
  const fieldOwners = [
    ...keptSchemas.map((schema) => ({ owner: { schema: schema.name }, fields: schema.fields })),
    ...keptBlockTypes.map((blockType) => ({
      owner: { blockType: blockType.name },
      fields: blockType.fields,
    })),
  ];
  addDomainsAndTypes(work, target, emit);
  for (const { owner, fields } of fieldOwners) changeFields(work, owner, fields, emit);
  updateProperties(work, target, emit);
  for (const { owner, fields } of fieldOwners)
    removeAndMoveFields(work, owner, fields.map(withoutHint), emit);
  removeAndMoveSchemas(work, target, emit);
  removeBlockTypes(work, target, emit);
  for (const domain of work.domains.filter((old) => !target.domains.some((d) => d.name === old.name)))
    emit({ op: 'removeDomain', domain: domain.name });
  target.domains.forEach(({ name }, index) => {
    if (work.domains[index].name !== name) emit({ op: 'moveDomain', domain: name, index });
  });
  return ops;
}

const schemasOf = (doc: ContentModelDoc): SchemaType[] => doc.domains.flatMap((domain) => domain.schemas);

function withoutHint(field: FieldDef): FieldDef {
  const { renamedFrom: _hint, ...rest } = field as FieldDef & { renamedFrom?: unknown };
  return (rest.type === 'table' ? { ...rest, columns: rest.columns.map(withoutHint) } : rest) as FieldDef;
}

/** A table field kept a table whose columns its own operations change (those of a locked one cannot). */
const columnsFollow = (owner: FieldOwner, old: FieldDef | undefined, next: FieldDef) =>
  owner.table === undefined && old?.type === 'table' && next.type === 'table' && !old.locked;

function withoutHints(doc: ContentModelDoc): ContentModelDoc {
  const strip = <T extends SchemaType | BlockType>(holder: T): T => ({
    ...holder,
    fields: holder.fields.map(withoutHint),
  });
  return structuredClone({
    domains: doc.domains.map((domain) => ({ ...domain, schemas: domain.schemas.map(strip) })),
    blockTypes: doc.blockTypes.map(strip),
  });
}

/** The properties of `to` that differ from `from` (null for those `to` lacks), all but `ignored`. */
function changes(from: object, to: object, ignored: readonly string[]): Record<string, unknown> {
  const old = from as Record<string, unknown>;
  const next = to as Record<string, unknown>;
  const keys = new Set([...Object.keys(old), ...Object.keys(next)].filter((key) => !ignored.includes(key)));
  return Object.fromEntries(
    [...keys].filter((key) => !sameValue(old[key], next[key])).map((key) => [key, next[key] ?? null]),
  );
}

const isEmpty = (patch: object) => Object.keys(patch).length === 0;

/**
 * Where a new thing goes so that it follows what precedes it in `to`: just after the nearest earlier
 * one that `work` has, else first.
 */
function indexAfter(
  work: readonly { name: string }[],
  target: readonly { name: string }[],
  index: number,
): number {
  for (let before = index - 1; before >= 0; before--) {
    const at = work.findIndex((thing) => thing.name === target[before].name);
    if (at >= 0) return at + 1;
  }
  return 0;
}

function addDomainsAndTypes(work: ContentModelDoc, target: ContentModelDoc, emit: Emit) {
  target.domains.forEach(({ schemas: _schemas, ...domain }, index) => {
    if (!work.domains.some((old) => old.name === domain.name))
      emit({ op: 'addDomain', domain, index: indexAfter(work.domains, target.domains, index) });
  });
  target.blockTypes.forEach((blockType, index) => {
    if (!work.blockTypes.some((old) => old.name === blockType.name))
      emit({ op: 'addBlockType', blockType, index: indexAfter(work.blockTypes, target.blockTypes, index) });
  });
  const existing = new Set(schemasOf(work).map((schema) => schema.name));
  for (const domain of target.domains) {
    domain.schemas.forEach((schema, index) => {
      const { schemas } = work.domains.find((d) => d.name === domain.name)!;
      if (!existing.has(schema.name))
        emit({
          op: 'addSchema',
          domain: domain.name,
          schema,
          index: indexAfter(schemas, domain.schemas, index),
        });
    });
  }
}

const needsRetype = (old: FieldDef, next: FieldDef) =>
  old.type !== next.type ||
  (old.type === 'select' && next.type === 'select' && !old.multiple !== !next.multiple);

/**
 * Renames the hinted fields, then adds, retypes or updates each field of the owner as `to` has it; the
 * columns of a kept table likewise, by operations on its columns.
 */
function changeFields(work: ContentModelDoc, owner: FieldOwner, hinted: readonly FieldDef[], emit: Emit) {
  const current = () => findOwner(work, owner).holder.fields;
  const keys = () => current().map((field) => field.key);
  for (const field of hinted) {
    const old = (field as { renamedFrom?: unknown }).renamedFrom;
    if (typeof old === 'string' && keys().includes(old) && !keys().includes(field.key))
      emit({ op: 'renameField', ...owner, from: old, to: field.key });
  }
  hinted.forEach((hintedField, index) => {
    const field = withoutHint(hintedField);
    const old = current().find((f) => f.key === field.key);
    if (!old) emit({ op: 'addField', ...owner, field, index: Math.min(index, current().length) });
    else if (needsRetype(old, field)) emit({ op: 'retypeField', ...owner, key: field.key, field });
    else {
      const follow = columnsFollow(owner, old, field);
      if (follow)
        changeFields(
          work,
          { ...owner, table: field.key },
          (hintedField as typeof field & { columns: FieldDef[] }).columns,
          emit,
        );
      const now = current().find((f) => f.key === field.key)!;
      const patch = changes(
        now,
        field,
        follow ? [...IGNORED_FIELD_PROPERTIES, 'columns'] : IGNORED_FIELD_PROPERTIES,
      );
      if (!isEmpty(patch)) emit({ op: 'updateField', ...owner, key: field.key, patch });
    }
  });
}

function removeAndMoveFields(
  work: ContentModelDoc,
  owner: FieldOwner,
  fields: readonly FieldDef[],
  emit: Emit,
) {
  const current = () => findOwner(work, owner).holder.fields;
  for (const old of current())
    if (!fields.some((field) => field.key === old.key)) emit({ op: 'removeField', ...owner, key: old.key });
  fields.forEach(({ key }, index) => {
    if (current()[index].key !== key) emit({ op: 'moveField', ...owner, key, index });
  });
  for (const field of fields) {
    const old = current().find((f) => f.key === field.key);
    if (field.type === 'table' && columnsFollow(owner, old, field))
      removeAndMoveFields(work, { ...owner, table: field.key }, field.columns, emit);
  }
}

function updateProperties(work: ContentModelDoc, target: ContentModelDoc, emit: Emit) {
  for (const domain of target.domains) {
    const old = work.domains.find((d) => d.name === domain.name)!;
    const patch = changes(old, domain, ['name', 'schemas']);
    if (!isEmpty(patch)) emit({ op: 'updateDomain', domain: domain.name, patch });
  }
  for (const schema of schemasOf(target)) {
    const patch = changes(
      schemasOf(work).find((s) => s.name === schema.name)!,
      schema,
      ['name', 'fields'],
    );
    if (!isEmpty(patch)) emit({ op: 'updateSchema', schema: schema.name, patch });
  }
  for (const blockType of target.blockTypes) {
    const patch = changes(
      work.blockTypes.find((b) => b.name === blockType.name)!,
      blockType,
      ['name', 'fields'],
    );
    if (!isEmpty(patch)) emit({ op: 'updateBlockType', blockType: blockType.name, patch });
  }
}

function removeAndMoveSchemas(work: ContentModelDoc, target: ContentModelDoc, emit: Emit) {
  const kept = new Set(schemasOf(target).map((schema) => schema.name));
  for (const schema of schemasOf(work))
    if (!kept.has(schema.name)) emit({ op: 'removeSchema', schema: schema.name });
  for (const domain of target.domains) {
    domain.schemas.forEach(({ name }, index) => {
      const { schemas } = work.domains.find((d) => d.name === domain.name)!;
      if (schemas[index]?.name !== name) emit({ op: 'moveSchema', schema: name, domain: domain.name, index });
    });
  }
}

/** Removes the block types `to` lacks, each after those whose blocks fields allow it, then orders the others as `to` does. */
function removeBlockTypes(work: ContentModelDoc, target: ContentModelDoc, emit: Emit) {
  const removing = work.blockTypes.filter((old) => !target.blockTypes.some((b) => b.name === old.name));
  while (removing.length > 0) {
    const isUsed = (name: string) =>
      removing.some(
        (other) => other.name !== name && allFields(other.fields).some((f) => allowsBlockType(f, name)),
      );
    const next = removing.find((blockType) => !isUsed(blockType.name)) ?? removing[0];
    emit({ op: 'removeBlockType', blockType: next.name });
    removing.splice(removing.indexOf(next), 1);
  }
  target.blockTypes.forEach(({ name }, index) => {
    if (work.blockTypes[index].name !== name) emit({ op: 'moveBlockType', blockType: name, index });
  });
}

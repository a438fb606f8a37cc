/**
 * Undoing a change set: the operations that take the model it produced back to the one it was made on.
 */
import { applyOp } from './apply';
import {
  type FieldOp,
  findBlockType,
  isFieldOp,
  findDomain,
  findField,
  findOwner,
  findSchema,
  ownerOf,
} from './find';
import type { ContentModelDoc, ModelOp } from './types';

/**
 * The change set that undoes `ops` applied to `before`, in reverse order. Throws `ModelChangeError`
 * when `ops` do not apply to `before`.
 */
export function invertOps(before: ContentModelDoc, ops: readonly ModelOp[]): ModelOp[] {
  const model = structuredClone(before);
  const inverse: ModelOp[] = [];
  ops.forEach((op, index) => {
    const undo = attempt(() => inverseOf(model, op));
    // An operation whose inverse cannot be found names nothing: applying it says so, naming it.
    applyOp(model, op, index);
    if (!undo) throw new Error(`No inverse of ops.${index}`);
    inverse.push(undo);
  });
  return inverse.reverse();
}

function attempt<T>(make: () => T): T | undefined {
  try {
    return make();
  } catch {
    return undefined;
  }
}

/** The old values of the patched properties; null where a property was absent. */
function oldValues(target: object, patch: object): Record<string, unknown> {
  const old = target as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(patch).map((key) => [key, Object.hasOwn(old, key) ? structuredClone(old[key]) : null]),
  );
}

/** The operation undoing `op` on `model`, the model as it is before `op`. */
function inverseOf(model: ContentModelDoc, op: ModelOp): ModelOp {
  if (isFieldOp(op)) return inverseOfFieldOp(model, op);
  switch (op.op) {
    case 'addDomain':
      return { op: 'removeDomain', domain: op.domain.name };
    case 'updateDomain':
      return {
        op: 'updateDomain',
        domain: op.domain,
        patch: oldValues(findDomain(model, op.domain).domain, op.patch),
      };
    case 'removeDomain': {
      const { domain, index } = findDomain(model, op.domain);
      const { schemas: _schemas, ...rest } = structuredClone(domain);
      return { op: 'addDomain', domain: rest, index };
    }
    case 'moveDomain':
      return { op: 'moveDomain', domain: op.domain, index: findDomain(model, op.domain).index };
    case 'addSchema':
      return { op: 'removeSchema', schema: op.schema.name };
    case 'updateSchema':
      return {
        op: 'updateSchema',
        schema: op.schema,
        patch: oldValues(findSchema(model, op.schema).schema, op.patch),
      };
    case 'removeSchema': {
      const { domain, schema, index } = findSchema(model, op.schema);
      return { op: 'addSchema', domain: domain.name, schema: structuredClone(schema), index };
    }
    case 'moveSchema': {
      const { domain, index } = findSchema(model, op.schema);
      return { op: 'moveSchema', schema: op.schema, domain: domain.name, index };
    }
    case 'addBlockType':
      return { op: 'removeBlockType', blockType: op.blockType.name };
    case 'updateBlockType': {
      const { blockType } = findBlockType(model, op.blockType);
      return { op: 'updateBlockType', blockType: op.blockType, patch: oldValues(blockType, op.patch) };
    }
    case 'moveBlockType':
      return {
        op: 'moveBlockType',
        blockType: op.blockType,
        index: findBlockType(model, op.blockType).index,
      };
    case 'removeBlockType': {
      const { blockType, index } = findBlockType(model, op.blockType);
      return { op: 'addBlockType', blockType: structuredClone(blockType), index };
    }
  }
}

function inverseOfFieldOp(model: ContentModelDoc, op: FieldOp): ModelOp {
  const owner = ownerOf(op);
  if (op.op === 'addField') return { op: 'removeField', ...owner, key: op.field.key };
  if (op.op === 'renameField') return { op: 'renameField', ...owner, from: op.to, to: op.from };
  const { holder, where } = findOwner(model, owner);
  const { field, index } = findField(holder, op.key, where);
  switch (op.op) {
    case 'updateField':
      return { op: 'updateField', ...owner, key: op.key, patch: oldValues(field, op.patch) };
    case 'retypeField':
      return { op: 'retypeField', ...owner, key: op.key, field: structuredClone(field) };
    case 'removeField':
      return { op: 'addField', ...owner, field: structuredClone(field), index };
    case 'moveField':
      return { op: 'moveField', ...owner, key: op.key, index };
  }
}

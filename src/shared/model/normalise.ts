import { applyOp } from './apply';
import type { ContentModelDoc, ModelOp } from './types';

/**
 * The change set as applied: a field removed while its schema lists it among its top fields or as its
 * thumbnail is first taken out of them (an `updateSchema` before the removal), and a schema removed
 * while it is its domain's landing schema is first no longer that (an `updateDomain`), so a removal
 * needs no separate edit and its revert puts both back. Operations that do not apply are left for
 * `applyOps` to refuse, naming them.
 */
export function withReferencesFollowing(doc: ContentModelDoc, ops: readonly ModelOp[]): ModelOp[] {
  const model = structuredClone(doc);
  const result: ModelOp[] = [];
  for (const op of ops) {
    if (op.op === 'removeField' && op.schema !== undefined) {
      const schema = model.domains.flatMap((domain) => domain.schemas).find((s) => s.name === op.schema);
      const listed = schema?.topFields.includes(op.key) ?? false;
      const thumbnail = schema?.thumbnail === op.key;
      if (schema && (listed || thumbnail)) {
        const patch = {
          ...(listed ? { topFields: schema.topFields.filter((key) => key !== op.key) } : {}),
          ...(thumbnail ? { thumbnail: null } : {}),
        };
        const trim: ModelOp = { op: 'updateSchema', schema: op.schema, patch };
        result.push(trim);
        applyOp(model, trim, result.length - 1);
      }
    }
    if (op.op === 'removeSchema') {
      const domain = model.domains.find((d) => d.landingSchema === op.schema);
      if (domain) {
        const trim: ModelOp = { op: 'updateDomain', domain: domain.name, patch: { landingSchema: null } };
        result.push(trim);
        applyOp(model, trim, result.length - 1);
      }
    }
    result.push(op);
    try {
      applyOp(model, op, result.length - 1);
    } catch {
      return [...result, ...ops.slice(ops.indexOf(op) + 1)];
    }
  }
  return result;
}

import type { ModelOp } from './types';

const ownerOf = (op: { schema?: string; blockType?: string; table?: string }) =>
  (op.table !== undefined ? `table "${op.table}" of ` : '') +
  (op.schema !== undefined ? `"${op.schema}"` : `block type "${op.blockType}"`);

/** One operation of a change set in words, as the plan and the history show it. */
export function describeOp(op: ModelOp): string {
  switch (op.op) {
    case 'addDomain':
      return `Add domain "${op.domain.name}"`;
    case 'updateDomain':
      return `Change domain "${op.domain}" (${Object.keys(op.patch).join(', ')})`;
    case 'removeDomain':
      return `Remove domain "${op.domain}"`;
    case 'moveDomain':
      return `Move domain "${op.domain}" to position ${op.index + 1}`;
    case 'addSchema':
      return `Add schema "${op.schema.name}" to "${op.domain}"`;
    case 'updateSchema':
      return `Change schema "${op.schema}" (${Object.keys(op.patch).join(', ')})`;
    case 'removeSchema':
      return `Remove schema "${op.schema}"`;
    case 'moveSchema':
      return `Move schema "${op.schema}" to "${op.domain}"`;
    case 'addField':
      return `Add field "${op.field.key}" (${op.field.type}) to ${ownerOf(op)}`;
    case 'updateField':
      return `Change field "${op.key}" of ${ownerOf(op)} (${Object.keys(op.patch).join(', ')})`;
    case 'renameField':
      return `Rename field "${op.from}" of ${ownerOf(op)} to "${op.to}"`;
    case 'retypeField':
      return `Change the type of field "${op.key}" of ${ownerOf(op)} to ${op.field.type}`;
    case 'removeField':
      return `Remove field "${op.key}" from ${ownerOf(op)}`;
    case 'moveField':
      return `Move field "${op.key}" of ${ownerOf(op)} to position ${op.index + 1}`;
    case 'addBlockType':
      return `Add block type "${op.blockType.name}"`;
    case 'updateBlockType':
      return `Change block type "${op.blockType}" (${Object.keys(op.patch).join(', ')})`;
    case 'removeBlockType':
      return `Remove block type "${op.blockType}"`;
    case 'moveBlockType':
      return `Move block type "${op.blockType}" to position ${op.index + 1}`;
  }
}

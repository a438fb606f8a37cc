/**
 * Random change sets for property tests: a list of seeds read against the model as it evolves, each
 * becoming an operation that applies to it and leaves it sound (seeds whose operation would not are
 * skipped). Test support only.
 */
import type { FieldDef, SchemaType } from '../schemas/types';
import { applyOps } from './apply';
import type { ContentModelDoc, FieldOwner, ModelOp } from './types';

/** Four numbers choosing an operation and what it acts on. */
export type OpSeed = readonly [number, number, number, number];

/** One of the list; odd seeds favour its last three (what the change set added), which may be removed. */
function pick<T>(list: readonly T[], seed: number): T | undefined {
  if (list.length === 0) return undefined;
  const rest = Math.floor(seed / 2);
  return seed % 2 ? list[list.length - 1 - (rest % Math.min(3, list.length))] : list[rest % list.length];
}
const at = (length: number, seed: number) => seed % (length + 1);

const simpleFields = (key: string, seed: number): FieldDef =>
  pick<FieldDef>(
    [
      { key, label: 'Text', type: 'text' },
      { key, label: 'Notes', type: 'multiline', rows: 3 },
      { key, label: 'Count', type: 'number', min: 0 },
      { key, label: 'Flag', type: 'boolean', description: 'Yes or no' },
      { key, label: 'Day', type: 'date' },
      { key, label: 'When', type: 'datetime' },
      { key, label: 'Tags', type: 'tags', required: true },
      { key, label: 'Kind', type: 'select', options: [{ value: 'a', label: 'A' }] },
      { key, label: 'Link', type: 'reference', schemaTypes: ['blog-post'] },
    ],
    seed,
  )!;

interface Owner {
  owner: FieldOwner;
  fields: readonly FieldDef[];
}

function ownersOf(model: ContentModelDoc): Owner[] {
  return [
    ...model.domains.flatMap((domain) =>
      domain.schemas.map((schema) => ({ owner: { schema: schema.name }, fields: schema.fields })),
    ),
    ...model.blockTypes.map((blockType) => ({
      owner: { blockType: blockType.name },
      fields: blockType.fields,
    })),
  ];
}

function newSchema(name: string): SchemaType {
  return {
    name,
    title: 'Page',
    pluralTitle: 'Pages',
    icon: 'file',
    fields: [{ key: 'name', label: 'Name', type: 'text' }],
    topFields: ['name'],
  };
}

/** The operation a seed stands for in `model`, or undefined when it finds nothing to act on. */
function opOf(model: ContentModelDoc, [kind, a, b, c]: OpSeed, serial: number): ModelOp | undefined {
  const domain = pick(model.domains, a);
  const schemas = model.domains.flatMap((d) => d.schemas);
  const schema = pick(schemas, a);
  const blockType = pick(model.blockTypes, b);
  const target = pick(ownersOf(model), a);
  const field = target && pick(target.fields, b);
  const owner = target?.owner;
  const ops: (() => ModelOp | undefined)[] = [
    () => ({
      op: 'addDomain',
      domain: { name: `d${serial}`, title: 'New' },
      index: at(model.domains.length, b),
    }),
    () =>
      domain && {
        op: 'updateDomain',
        domain: domain.name,
        patch: { title: `T${c}`, admin: c % 2 ? true : null },
      },
    () => domain && { op: 'removeDomain', domain: domain.name },
    () =>
      domain && {
        op: 'addSchema',
        domain: domain.name,
        schema: newSchema(`s${serial}`),
        index: at(domain.schemas.length, c),
      },
    () =>
      schema && {
        op: 'updateSchema',
        schema: schema.name,
        patch: {
          title: `T${c}`,
          allowSaveWithErrors: c % 2 ? true : null,
          topFields: schema.fields.slice(0, 1 + (c % 2)).map((f) => f.key),
        },
      },
    () => schema && { op: 'removeSchema', schema: schema.name },
    () =>
      schema &&
      domain && { op: 'moveSchema', schema: schema.name, domain: pick(model.domains, b)!.name, index: c % 3 },
    () =>
      owner && {
        op: 'addField',
        ...owner,
        field: simpleFields(`f${serial}`, c),
        index: at(target.fields.length, b),
      },
    () =>
      owner &&
      field && {
        op: 'updateField',
        ...owner,
        key: field.key,
        patch: { label: `L${c}`, description: c % 2 ? 'About' : null, required: c % 3 ? null : true },
      },
    () => owner && field && { op: 'renameField', ...owner, from: field.key, to: `r${serial}` },
    () =>
      owner && field && { op: 'retypeField', ...owner, key: field.key, field: simpleFields(field.key, c) },
    () => owner && field && { op: 'removeField', ...owner, key: field.key },
    () => owner && field && { op: 'moveField', ...owner, key: field.key, index: c % target.fields.length },
    () => ({
      op: 'addBlockType',
      blockType: { name: `b${serial}`, title: 'Block', fields: [simpleFields('title', c)] },
      index: at(model.blockTypes.length, c),
    }),
    () =>
      blockType && {
        op: 'updateBlockType',
        blockType: blockType.name,
        patch: { title: `T${c}`, icon: c % 2 ? 'star' : null },
      },
    () => blockType && { op: 'removeBlockType', blockType: blockType.name },
    () =>
      owner &&
      blockType && {
        op: 'addField',
        ...owner,
        field: { key: `k${serial}`, label: 'Body', type: 'blocks', blockTypes: [blockType.name] },
      },
    () => domain && { op: 'moveDomain', domain: domain.name, index: c % model.domains.length },
    () => blockType && { op: 'moveBlockType', blockType: blockType.name, index: c % model.blockTypes.length },
  ];
  return ops[kind % ops.length]();
}

/** The operations the seeds stand for, each applying to the model the ones before it left. */
export function opsFromSeeds(model: ContentModelDoc, seeds: readonly OpSeed[]): ModelOp[] {
  const ops: ModelOp[] = [];
  let current = model;
  seeds.forEach((seed, serial) => {
    const op = opOf(current, seed, serial);
    if (!op) return;
    try {
      current = applyOps(current, [op]);
      ops.push(op);
    } catch {
      // Refused (a locked field, a domain with schemas, a dangling name): the seed stands for nothing.
    }
  });
  return ops;
}

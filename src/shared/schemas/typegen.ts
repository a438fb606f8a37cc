import { allowedBlockTypes, type BlockTypes } from './blocks';
import type { BlockType, FieldDef, SchemaType } from './types';
import { timezoneKey, VARIATION_KEY } from './types';

/**
 * Spec §7 `GET /items/generate-types/{id}`: the TypeScript definition of a schema's item data, for
 * developers who read items through the API. Shapes the fields share (references, files, …) and the
 * interfaces of the block types its blocks fields hold are emitted once, before the item's interface,
 * when a field uses them.
 */

const SHARED_SHAPES: Record<string, string> = {
  Reference: `export interface Reference {
  id: string;
  schemaType: string;
  label?: string;
  thumbId?: string;
  altText?: string;
}`,
  FileValue: `export interface FileValue {
  name: string;
  size: number;
  contentType: string;
  storageName: string;
  /**
   * Members: the file's URL in the app. Delivery API: its absolute signed link, loading without a
   * session; add w, h, fit, format or q for a variant.
   */
  publicUrl: string;
  /** Delivery API: the signed link 400 px wide. */
  thumbnailUrl?: string;
  /** Delivery API: the signed link 1200 px wide. */
  imageUrl?: string;
  md5Hash?: string;
  /** Focal point, 0 to 1 from the left. */
  focusX?: number;
  /** Focal point, 0 to 1 from the top. */
  focusY?: number;
  sanityResults?: unknown;
}`,
  CombinationRow: `export interface CombinationRow {
  /** Unique name of the combination. */
  _slug: string;
  variations: Record<string, string>;
  overrides: Record<string, unknown>;
}`,
  Address: `export interface Address {
  rawAddress?: string;
  streetNumber?: string;
  streetAddress?: string;
  unit?: string;
  city?: string;
  state?: string;
  county?: string;
  neighborhood?: string;
  country?: string;
  postal_code?: string;
  latitude?: number;
  longitude?: number;
  google_place?: unknown;
  /** Keys p_1 to p_12: the geohash at every prefix length. */
  geohash?: Record<string, string>;
  geohashes?: string[];
}`,
  EmailTemplate: `export interface EmailTemplate {
  'gjs-nl-html'?: string;
  'gjs-nl-css'?: string;
  'gjs-nl-styles'?: string;
  'gjs-nl-components'?: string;
  'gjs-nl-assets'?: string;
  combinedMarkup?: string;
}`,
  CriteriaNode: `export interface CriteriaNode {
  label?: string;
  predicate?: unknown;
  story?: string;
  type?: 'attribute' | 'audience' | 'event';
  children?: CriteriaNode[];
  [key: string]: unknown;
}`,
  ServiceConnection: `export interface ServiceConnection {
  provider: string;
  encTokens?: string;
  profile?: unknown;
  serviceStatus?: string;
  serviceDetails?: Record<string, unknown>;
}`,
  Interest: `export interface Interest {
  id?: string;
  name: string;
  type?: string;
}`,
  CampaignExperiment: `export interface CampaignExperiment {
  variants: Array<{ subject?: string | null; email?: Reference | null; fromName?: string | null }>;
  testPercent: number;
  holdoutPercent?: number;
  waitHours: number;
  winnerBy: 'opens' | 'clicks' | 'conversion';
  conversionEvent?: string | null;
  windowHours?: number | null;
}`,
};

const quote = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const isIdentifier = (key: string) => /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key);
const propertyName = (key: string) => (isIdentifier(key) ? key : quote(key));

/** PascalCase type name of a schema: 'marquee-assets-image-set' → 'MarqueeAssetsImageSet'. */
export const typeNameOf = (schemaName: string) =>
  schemaName
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('') || 'Item';

/** What generating a schema's types gathers: the shared shapes used, and the block interfaces written. */
interface Emitted {
  uses: Set<string>;
  blockTypes: BlockTypes | undefined;
  /** Interface name per block type written (or being written: a block type may hold itself). */
  blockNames: Map<string, string>;
  /** Names taken: the item's, the shared shapes' and the block interfaces'. */
  taken: Set<string>;
  blockInterfaces: string[];
}

/** The interface of a block type, written once: `_type` its name, `_key` and its fields. */
function blockInterface(blockType: BlockType, emitted: Emitted): string {
  const known = emitted.blockNames.get(blockType.name);
  if (known) return known;
  const pascal = typeNameOf(blockType.name);
  const base = `${/^\d/.test(pascal) ? '_' : ''}${pascal}Block`;
  let name = base;
  for (let n = 2; emitted.taken.has(name); n++) name = `${base}${n}`;
  emitted.taken.add(name);
  emitted.blockNames.set(blockType.name, name);
  const head = [
    `  /** The block type. */`,
    `  _type: ${quote(blockType.name)};`,
    `  /** Unique among the blocks of its list. */`,
    `  _key: string;`,
  ];
  const body = objectOf(blockType.fields, emitted, '', head);
  const doc = `${blockType.title} block (${blockType.name}).`.replace(/\*\//g, '*\\/');
  emitted.blockInterfaces.push(`/** ${doc} */\nexport interface ${name} ${body}`);
  return name;
}

function typeOf(field: FieldDef, emitted: Emitted, indent: string): string {
  const { uses } = emitted;
  switch (field.type) {
    case 'number':
    case 'range':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'select': {
      const union =
        field.options.length > 0 ? field.options.map((o) => quote(String(o.value))).join(' | ') : 'string';
      return field.multiple ? `Array<${union}>` : union;
    }
    case 'tags':
      return 'string[]';
    case 'reference':
      uses.add('Reference');
      return 'Reference';
    case 'reference-list':
      uses.add('Reference');
      return 'Reference[]';
    case 'table':
      return `Array<${objectOf(field.columns, emitted, `${indent}  `)}>`;
    case 'blocks': {
      const blocks = allowedBlockTypes(field, emitted.blockTypes).map((type) =>
        blockInterface(type, emitted),
      );
      return blocks.length > 0 ? `Array<${blocks.join(' | ')}>` : 'never[]';
    }
    case 'combinations':
      uses.add('CombinationRow');
      return 'CombinationRow[]';
    case 'file':
      uses.add('FileValue');
      return 'FileValue';
    case 'address':
      uses.add('Address');
      return 'Address';
    case 'email-template':
      uses.add('EmailTemplate');
      return 'EmailTemplate';
    case 'criteria':
      uses.add('CriteriaNode');
      return 'CriteriaNode';
    case 'service-connection':
      uses.add('ServiceConnection');
      return 'ServiceConnection';
    case 'social-interests':
      uses.add('Interest');
      return 'Interest[]';
    case 'experiment':
      uses.add('Reference');
      uses.add('CampaignExperiment');
      return 'CampaignExperiment';
    default:
      // text, multiline, name-slug, generatable, date ('YYYY-MM-DD'), datetime (ISO), code,
      // schema-selector, country (ISO code) and rich-text (sanitised HTML) are strings.
      return 'string';
  }
}

function objectOf(
  fields: readonly FieldDef[],
  emitted: Emitted,
  indent: string,
  head: string[] = [],
): string {
  const lines = ['{', ...head];
  for (const field of fields) {
    const doc = field.description ? `${field.label}: ${field.description}` : field.label;
    lines.push(`${indent}  /** ${doc.replace(/\*\//g, '*\\/')} */`);
    lines.push(
      `${indent}  ${propertyName(field.key)}${field.required ? '' : '?'}: ${typeOf(field, emitted, indent)};`,
    );
    if (field.type === 'datetime') {
      lines.push(`${indent}  /** Time zone of ${field.label} (IANA name). */`);
      lines.push(`${indent}  ${propertyName(timezoneKey(field.key))}?: string;`);
    }
  }
  lines.push(`${indent}}`);
  return lines.join('\n');
}

function newEmitted(schemas: readonly SchemaType[]): Emitted {
  return {
    uses: new Set(),
    blockTypes: schemas.find((schema) => schema.blockTypes)?.blockTypes,
    blockNames: new Map(),
    taken: new Set([...schemas.map((schema) => typeNameOf(schema.name)), ...Object.keys(SHARED_SHAPES)]),
    blockInterfaces: [],
  };
}

/** The interface of a schema's item data, with what it uses noted in `emitted`. */
function itemInterface(schema: SchemaType, emitted: Emitted): string {
  let body = objectOf([...schema.fields], emitted, '');
  if (schema.variations?.length) {
    const variation = schema.variations
      .map(
        (v) =>
          `  ${propertyName(v.name)}?: ${v.options.map((o) => quote(String(o.value))).join(' | ') || 'string'};`,
      )
      .join('\n');
    body = body.replace(
      /\n}$/,
      `\n  /** The item's own variation values. */\n  ${VARIATION_KEY}?: {\n${variation.replace(/^/gm, '  ')}\n  };\n}`,
    );
  }
  const header = `/** ${schema.title} (${schema.name}): item data, generated by Marquee. */`;
  return `${header}\nexport interface ${typeNameOf(schema.name)} ${body}`;
}

const sharedShapesOf = (emitted: Emitted) =>
  Object.keys(SHARED_SHAPES)
    .filter((name) => emitted.uses.has(name))
    .map((name) => SHARED_SHAPES[name]);

/** The TypeScript definition of a schema's item data. */
export function generateTypes(schema: SchemaType): string {
  const emitted = newEmitted([schema]);
  const item = itemInterface(schema, emitted);
  return [...sharedShapesOf(emitted), ...emitted.blockInterfaces, item].join('\n\n') + '\n';
}

/**
 * The types of a whole delivered model, for a website: every schema's item data (shapes and block
 * types written once), `Items` mapping schema names to them, and the delivery API's envelope.
 */
export function generateModelTypes(schemas: readonly SchemaType[]): string {
  const emitted = newEmitted(schemas);
  const items = schemas.map((schema) => itemInterface(schema, emitted));
  const map = [
    '/** Schema name → its item data. */',
    'export interface Items {',
    ...schemas.map((schema) => `  ${quote(schema.name)}: ${typeNameOf(schema.name)};`),
    '}',
  ].join('\n');
  const envelope = `/** One published item as the delivery API answers it. */
export interface DeliveredItem<S extends keyof Items = keyof Items> {
  id: string;
  schema: S;
  version: number;
  publishedAt: string;
  data: Items[S];
  previousSlugs?: string[];
  refs?: Record<string, DeliveredItem | null>;
  locale?: string;
  _locale?: Record<string, string>;
  _deprecated?: Record<string, { renamedTo: string; until: string }>;
}`;
  return (
    [...sharedShapesOf(emitted), ...emitted.blockInterfaces, ...items, map, envelope].join('\n\n') + '\n'
  );
}

import sanitizeHtml from 'sanitize-html';
import { LOCALES_KEY } from '@shared/locales/locales';
import { mapNestedEntries, type BlockTypes } from '@shared/schemas/blocks';
import type { FieldDef, SchemaType } from '@shared/schemas/types';
import { parseOwnImageUrl } from '@shared/media/urls';
import type { ItemSaveHook } from '../items/save-hooks';
import { isPlainRichText } from './plain-html';
import { BLOCKS, HEADINGS, TABLES, TEXT } from './tags';

/**
 * Server-side HTML sanitising of rich-text fields: an allow-list per field type, so no script,
 * event handler, style or javascript: URL is ever stored or served. Inline images must be our own files
 * (a file URL or an imageResize URL) and carry their reference in data-ref-* attributes.
 */

export interface SanitizeOptions {
  /** When set, inline images must be files of this workspace. */
  workspaceId?: string;
  /** The app's public origin: absolute image URLs under it count as our own, like relative ones. */
  publicUrl?: string;
}

/** Attributes that tie an inline image or link to a referenced item (for `_references` and the change log). */
const REFERENCE_ATTRIBUTES = ['data-ref-id', 'data-ref-schema-type'] as const;

export function richTextPolicy(options: SanitizeOptions): sanitizeHtml.IOptions {
  return {
    allowedTags: [...HEADINGS, ...TEXT, ...BLOCKS, ...TABLES, 'a', 'img'],
    allowedAttributes: {
      a: ['href', 'title', 'target', 'rel', ...REFERENCE_ATTRIBUTES],
      img: ['src', 'alt', 'title', 'width', 'height', ...REFERENCE_ATTRIBUTES],
      ol: ['start'],
      th: ['colspan', 'rowspan', 'colwidth'],
      td: ['colspan', 'rowspan', 'colwidth'],
      col: ['span'],
      code: ['class'],
      pre: ['class'],
    },
    allowedClasses: { code: ['language-*'], pre: ['language-*'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: ['http', 'https'] },
    allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
    allowProtocolRelative: false,
    allowedStyles: {},
    disallowedTagsMode: 'discard',
    transformTags: {
      a: (tagName, attribs) => {
        // Only new-tab links keep a target, and those never hand the opener to the other page.
        const { rel: _rel, target, ...rest } = attribs;
        return {
          tagName,
          attribs: target === '_blank' ? { ...rest, target, rel: 'noopener noreferrer' } : rest,
        };
      },
    },
    // Inline images may only show our own files (of this workspace, when known).
    exclusiveFilter: (frame) => {
      if (frame.tag !== 'img') return false;
      const own = parseOwnImageUrl(frame.attribs.src ?? '', options.publicUrl);
      return !own || (options.workspaceId !== undefined && own.workspaceId !== options.workspaceId);
    },
  };
}

/** Thrown for a schema or field that has no HTML to sanitise; the message names which. */
export class NotHtmlFieldError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotHtmlFieldError';
  }
}

/** The field at a path: `body`, or `table.column` for a column of a table field. */
function fieldAt(schema: SchemaType, path: string): FieldDef | undefined {
  const [head, ...rest] = path.split('.');
  let field = schema.fields.find((f) => f.key === head);
  for (const key of rest) {
    field = field?.type === 'table' ? field.columns.find((c) => c.key === key) : undefined;
  }
  return field;
}

/** Sanitises HTML under a rich-text field's allow-list (plain rich text is already what it would answer). */
function sanitizeRichTextHtml(html: string, options: SanitizeOptions = {}): string {
  return isPlainRichText(html) ? html : sanitizeHtml(html, richTextPolicy(options));
}

/**
 * Spec §7 /sanitizeHtml/: the HTML as the field `field` (a key, or `table.column`) of `schemaType` may
 * store it. Throws NotHtmlFieldError for an unknown schema or field, or one that holds no HTML.
 */
export function sanitizeRichText(
  schema: SchemaType | undefined,
  schemaType: string,
  field: string,
  html: string,
  options: SanitizeOptions = {},
): string {
  if (!schema) throw new NotHtmlFieldError(`Unknown schema "${schemaType}"`);
  const def = fieldAt(schema, field);
  if (!def) throw new NotHtmlFieldError(`Schema "${schemaType}" has no field "${field}"`);
  if (def.type !== 'rich-text')
    throw new NotHtmlFieldError(`Field "${field}" of "${schemaType}" is not a rich-text field`);
  return sanitizeRichTextHtml(html, options);
}

function sanitizeFields(
  fields: readonly FieldDef[],
  data: Readonly<Record<string, unknown>>,
  options: SanitizeOptions,
  blockTypes: BlockTypes | undefined,
) {
  const out: Record<string, unknown> = { ...data };
  for (const field of fields) {
    const value = data[field.key];
    if (field.type === 'rich-text' && typeof value === 'string')
      out[field.key] = sanitizeRichTextHtml(value, options);
    const rows = mapNestedEntries(field, value, blockTypes, (entry) =>
      sanitizeFields(entry.fields, entry.data, options, blockTypes),
    );
    if (rows !== value) out[field.key] = rows;
  }
  return out;
}

/**
 * For the item-save path: a copy of the item data with every rich-text field (also inside table rows
 * and blocks) sanitised. Other values are returned as they are.
 */
export function sanitizeItemData<T extends Readonly<Record<string, unknown>>>(
  schema: Pick<SchemaType, 'fields' | 'blockTypes'>,
  data: T,
  options: SanitizeOptions = {},
): T {
  const { blockTypes } = schema;
  const out = sanitizeFields(schema.fields, data, options, blockTypes);
  const locales = data[LOCALES_KEY];
  // A localised rich-text field's other locales are HTML too.
  if (typeof locales === 'object' && locales !== null && !Array.isArray(locales)) {
    out[LOCALES_KEY] = Object.fromEntries(
      Object.entries(locales).map(([tag, values]) => [
        tag,
        values && typeof values === 'object'
          ? sanitizeFields(schema.fields, values as Record<string, unknown>, options, blockTypes)
          : values,
      ]),
    );
  }
  return out as T;
}

/** The item save hook of rich text: it is stored only as the sanitiser lets it through. */
export const sanitizeRichTextOnSave: ItemSaveHook = (ctx, scope, data) =>
  sanitizeItemData(scope.schema, data, { workspaceId: scope.workspace.id, publicUrl: ctx.config.publicUrl });

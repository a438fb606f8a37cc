import type { Item } from '@shared/api/items';
import type { FileRecord } from '@shared/media/contract';
import { imageResizeUrl, parseOwnImageUrl } from '@shared/media/urls';
import { IMAGE_SET_SCHEMA } from '@shared/schemas/assets';

/**
 * An image inside rich text. Its src is one of the workspace's own files (the only images the server's
 * sanitiser keeps) and, when it comes from an image set, data-ref-id and data-ref-schema-type name that
 * item so `_references` and the change log can know it (src/server/sanitize/rich-text.ts).
 */
export interface InlineImage {
  src: string;
  alt: string;
  title?: string;
  refId?: string | null;
  refSchemaType?: string | null;
}

/** Inline images show at the editor's size, w=600 (spec §7). */
const INLINE_IMAGE_WIDTH = 600;

const asFile = (value: unknown): FileRecord | null =>
  value && typeof value === 'object' && typeof (value as FileRecord).storageName === 'string'
    ? (value as FileRecord)
    : null;

/** The master image of an image-set item, or null when it has none. */
export const masterImageOf = (item: Pick<Item, 'data'>) => asFile(item.data.masterImage);

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** The inline image of an image-set item, referencing it; null when the set has no master image. */
export function inlineImageOfSet(workspaceId: string, item: Pick<Item, 'id' | 'data'>): InlineImage | null {
  const file = masterImageOf(item);
  if (!file) return null;
  const owner = parseOwnImageUrl(file.publicUrl)?.workspaceId ?? workspaceId;
  const name = text(item.data.name);
  return {
    src: imageResizeUrl(owner, file.storageName, { w: INLINE_IMAGE_WIDTH }),
    alt: text(item.data.altText) || name,
    title: name || undefined,
    refId: item.id,
    refSchemaType: IMAGE_SET_SCHEMA,
  };
}

/** The inline image of a bare upload (no image set could be made for it): kept, but references nothing. */
export function inlineImageOfFile(workspaceId: string, file: FileRecord, alt: string): InlineImage {
  return {
    src: imageResizeUrl(workspaceId, file.storageName, { w: INLINE_IMAGE_WIDTH }),
    alt,
    title: alt || undefined,
  };
}

/** A picker's text search over image sets: name, alt text and labels, case-insensitive. */
export function matchesImageSearch(item: Pick<Item, 'data'>, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const labels = Array.isArray(item.data.labels)
    ? item.data.labels.filter((l): l is string => typeof l === 'string')
    : [];
  const haystack = [text(item.data.name), text(item.data.altText), ...labels].join(' ').toLowerCase();
  return words.every((word) => haystack.includes(word));
}

/**
 * The HTML a rich-text field stores: empty documents as '', and images still uploading (blob: sources
 * the server would drop) or whose upload failed left out.
 */
export function storedRichTextHtml(html: string, isEmpty: boolean): string {
  if (isEmpty) return '';
  if (!html.includes('data-upload')) return html;
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  doc.body.querySelectorAll('img[data-uploading], img[data-upload-error]').forEach((img) => img.remove());
  return doc.body.innerHTML;
}

/** The image sets a rich text's inline images reference, as the server would find them in data-ref-* attributes. */
export function inlineImageReferences(html: string): { id: string; schemaType: string; src: string }[] {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  return Array.from(doc.body.querySelectorAll('img[data-ref-id][data-ref-schema-type]')).map((img) => ({
    id: img.getAttribute('data-ref-id')!,
    schemaType: img.getAttribute('data-ref-schema-type')!,
    src: img.getAttribute('src') ?? '',
  }));
}

import sanitizeHtml from 'sanitize-html';
import { parseOwnImageUrl } from '@shared/media/urls';
import type { EmbeddedReference, ItemFieldReader } from '../items/field-readers';

/**
 * The references a rich text carries in data-ref-* attributes (kept by the sanitiser) for
 * `_references`: inline images (their own file as the thumbnail) and links to items.
 */
export function referencesInRichText(html: string): EmbeddedReference[] {
  const found: EmbeddedReference[] = [];
  // Most rich text carries none: without the attribute's name (which no entity can spell) in any case,
  // there is nothing to find, and the parse (about half the cost of sanitising) is skipped.
  if (!/data-ref-id/i.test(html)) return found;
  // Only images and links can carry references; every other tag is dropped with its children kept.
  sanitizeHtml(html, {
    allowedTags: ['img', 'a'],
    allowedAttributes: false,
    exclusiveFilter: (frame) => {
      const id = frame.attribs['data-ref-id'];
      const schemaType = frame.attribs['data-ref-schema-type'];
      if ((frame.tag === 'img' || frame.tag === 'a') && id && schemaType) {
        const thumbId =
          frame.tag === 'img' ? parseOwnImageUrl(frame.attribs.src ?? '')?.storageName : undefined;
        // What the reader sees of it: an image's alt text or title, a link's text.
        const label = (frame.tag === 'img' ? frame.attribs.alt || frame.attribs.title : frame.text) ?? '';
        found.push({ id, schemaType, label: label.trim(), ...(thumbId ? { thumbId } : {}) });
      }
      return false;
    },
  });
  return found;
}

/** Rich text as items reads it: the references inside it. */
export const richTextReader: ItemFieldReader = {
  references: (value) => (typeof value === 'string' ? referencesInRichText(value) : []),
};

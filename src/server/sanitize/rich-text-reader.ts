import sanitizeHtml from 'sanitize-html';
import { parseOwnImageUrl } from '@shared/media/urls';
import type { EmbeddedReference, ItemFieldReader } from '../items/field-readers';
import { isPlainRichText } from './plain-html';
import { BLOCKS, HEADINGS, TABLES } from './tags';

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

/** Tags that end a run of words: their text never runs on into the text beside them (code is inline). */
const WORD_BREAKS = new Set([
  ...['p', 'br', 'hr', 'div'],
  ...HEADINGS,
  ...BLOCKS.filter((tag) => tag !== 'code'),
  ...TABLES,
]);

const ESCAPED: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&amp;': '&' };

/**
 * The text a reader sees in rich text: no tags or attributes, character references decoded, blocks
 * and line breaks apart by a space and inline markup joined (`Sum<b>mer</b>` reads Summer).
 */
export function richTextWords(html: string): string {
  if (!/[<&]/.test(html)) return html.replace(/\s+/g, ' ').trim();
  // Plain rich text (no attributes, no references, no entities) reads the same without the parse.
  if (isPlainRichText(html)) return plainWords(html);
  return parsedWords(html);
}

const TAG = /<\/?([a-z][a-z0-9]*)(?: \/)?>/g;

function plainWords(html: string) {
  return html
    .replace(TAG, (_tag, name: string) => (WORD_BREAKS.has(name) ? ' ' : ''))
    .replace(/\s+/g, ' ')
    .trim();
}

/** The words of any rich text, read by the parser. */
export function parsedWords(html: string) {
  let text = '';
  let isAtBreak = false;
  const mark = (tag: string) => {
    if (WORD_BREAKS.has(tag)) isAtBreak = true;
  };
  sanitizeHtml(html, {
    allowedTags: [],
    allowedAttributes: {},
    onOpenTag: mark,
    onCloseTag: mark,
    // Text arrives decoded and then escaped (&, < and >) for HTML output: collected, not output.
    textFilter: (escaped) => {
      text += (isAtBreak ? ' ' : '') + escaped;
      isAtBreak = false;
      return '';
    },
  });
  return text
    .replace(/&(?:lt|gt|amp);/g, (entity) => ESCAPED[entity])
    .replace(/\s+/g, ' ')
    .trim();
}

/** Rich text as items reads it: the references inside it and its words. */
export const richTextReader: ItemFieldReader = {
  references: (value) => (typeof value === 'string' ? referencesInRichText(value) : []),
  text: (value) => (typeof value === 'string' ? richTextWords(value) : ''),
};

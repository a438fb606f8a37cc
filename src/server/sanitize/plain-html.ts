import { HEADINGS, TEXT } from './tags';

/**
 * Rich text the sanitiser would answer unchanged, recognised without parsing it: paragraphs, headings,
 * lists and quotes of plain text and attribute-free inline tags, written the way the sanitiser writes
 * them. Most saved rich text is that (what the editor writes before anyone adds a link or an image), and
 * a full parse costs about 20 µs a paragraph. Anything else (an attribute, an entity, a stray bracket,
 * a tag closed out of order, a tag the parser would close by itself) goes through the sanitiser.
 */

/** Phrasing tags: text blocks' own tags are not, nor the void ones (the sanitiser writes `<br />` itself). */
const INLINE = new Set([...TEXT.filter((tag) => !['p', 'br', 'hr'].includes(tag)), 'code']);
const TEXT_BLOCKS = new Set(['p', ...HEADINGS]);
const LISTS = new Set(['ul', 'ol']);
/** Where a block may open without the parser closing something first: the top, a quote, a list item. */
const BLOCK_PARENTS = new Set([undefined, 'blockquote', 'li']);

/** A tag without attributes (`<p>`, `</p>`), the sanitiser's own `<br />`, or text without `<`, `>` or `&`. */
const TOKEN = /<(\/?)([a-z][a-z0-9]*)>|(<br \/>)|([^<>&]+)/y;

function mayOpen(tag: string, parent: string | undefined) {
  if (INLINE.has(tag)) return true;
  if (tag === 'li') return parent !== undefined && LISTS.has(parent);
  if (TEXT_BLOCKS.has(tag) || LISTS.has(tag) || tag === 'blockquote') return BLOCK_PARENTS.has(parent);
  return false;
}

/** Whether sanitising `html` under the rich-text policy would answer it as it is (see above). */
export function isPlainRichText(html: string): boolean {
  const open: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < html.length) {
    const match = TOKEN.exec(html);
    if (!match) return false;
    const [, closing, tag, lineBreak, text] = match;
    const parent = open.at(-1);
    if (text !== undefined || lineBreak !== undefined) {
      // Text between list items is whitespace only, or the parser may move it.
      if (parent !== undefined && LISTS.has(parent) && (lineBreak || text.trim())) return false;
    } else if (closing) {
      if (open.pop() !== tag) return false;
    } else {
      if (!mayOpen(tag, parent)) return false;
      open.push(tag);
    }
  }
  return open.length === 0;
}

/** Plain text ↔ rich text (HTML), for retyping fields between the two. */
import { decodeEntities } from '../email/safe-url';

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Text as HTML paragraphs: one `<p>` per run of lines between blank lines, `<br>` between its lines. */
export function textToHtml(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[^\S\n]*\n\s*/)
    .map((paragraph) => paragraph.replace(/^\n+|\n+$/g, ''))
    .filter((paragraph) => paragraph.trim() !== '')
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

const BLOCK_END = /<\/(?:p|div|h[1-6]|blockquote|pre|ul|ol|table|section|article|header|footer|figure)\s*>/gi;
const LINE_END = /<br\s*\/?>|<\/(?:li|tr|dt|dd)\s*>/gi;

/** HTML as text: tags stripped, entities decoded, a blank line after each block, a line break for `<br>`. */
export function htmlToText(html: string): string {
  return decodeEntities(
    html
      .replace(BLOCK_END, '\n\n')
      .replace(LINE_END, '\n')
      .replace(/<[^>]*>/g, ''),
  )
    .replace(/\u00a0/g, ' ')
    .replace(/[^\S\n]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

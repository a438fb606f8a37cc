import { GMAIL_CLIP_BYTES } from '../api/email';

/**
 * The document a mail client receives, built from a sanitised message body: fluid on phones, with the
 * preview text inboxes show after the subject, and its size against Gmail's clipping limit. The server
 * sends it; the editor's preview shows the same document.
 *
 * This post-processes the sanitised, inlined HTML (always well-formed, attributes double-quoted and
 * escaped, no comments) rather than converting the editor's markup to MJML: see docs/architecture.md.
 */

/** The widest the content gets; narrower screens get all of their width. */
const CONTENT_WIDTH = 600;
/** Below this width the columns of a multi-column row stack. */
const STACK_BELOW = 480;
/** The narrowest phone screen: a table fixed wider than this shrinks to the screen. */
const PHONE_WIDTH = 320;

/** Cells that stack on phones, and fixed-width tables that shrink to the screen. */
const STACK_CLASS = 'marquee-stack';
const FLUID_CLASS = 'marquee-fluid';

const RESPONSIVE_CSS =
  `img{max-width:100%;height:auto}` +
  `@media only screen and (max-width:${STACK_BELOW}px){` +
  `.${STACK_CLASS}{display:block!important;width:100%!important;max-width:100%!important;box-sizing:border-box!important}` +
  `.${FLUID_CLASS}{width:100%!important;max-width:100%!important}}`;

/** Hidden preview text: inboxes show it after the subject; the padding keeps the body's words out. */
const PREHEADER_PADDING = '&zwnj;&nbsp;'.repeat(90);
const PREHEADER_STYLE =
  'display:none;font-size:1px;line-height:1px;max-height:0;max-width:0;opacity:0;overflow:hidden;mso-hide:all;color:transparent';

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The value of one attribute of an open tag (as sanitize-html writes them: double-quoted). */
const attributeOf = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(tag)?.[1];

/** The open tag with the attribute set (replaced when present, appended otherwise). */
function withAttribute(tag: string, name: string, value: string) {
  const pattern = new RegExp(`\\s${name}="[^"]*"`, 'i');
  const attribute = ` ${name}="${value}"`;
  if (pattern.test(tag)) return tag.replace(pattern, attribute);
  return tag.replace(/\s*\/?>$/, (end) => `${attribute}${end.trim() === '/>' ? ' />' : '>'}`);
}

const withClass = (tag: string, name: string) => {
  const classes = (attributeOf(tag, 'class') ?? '').split(/\s+/).filter(Boolean);
  return classes.includes(name) ? tag : withAttribute(tag, 'class', [...classes, name].join(' '));
};

/** Inline declarations added after the existing ones (later ones win, so they hold). */
function withStyle(tag: string, declarations: string) {
  const style = (attributeOf(tag, 'style') ?? '').trim().replace(/;?$/, '');
  return withAttribute(tag, 'style', style ? `${style};${declarations}` : declarations);
}

/** A fixed width (a width attribute or an inline `width` in pixels) wider than a phone. */
function isFixedWide(tag: string) {
  const attribute = attributeOf(tag, 'width');
  const inline = /(?:^|;)\s*width\s*:\s*(\d+(?:\.\d+)?)px/i.exec(attributeOf(tag, 'style') ?? '')?.[1];
  const px = inline ?? (attribute && /^\d+$/.test(attribute.trim()) ? attribute : undefined);
  return px !== undefined && Number(px) > PHONE_WIDTH;
}

interface Cell {
  start: number;
  tag: string;
}
interface Table {
  /** Cells of its rows with two or more cells. */
  columns: Cell[];
  hasHeader: boolean;
}

const TAG = /<(\/?)(table|tr|td|th|img)\b[^>]*>/gi;

/**
 * Images scale down (`max-width:100%; height:auto`), fixed-width tables shrink to the screen, and the
 * cells of a row with two or more cells (the newsletter's column sections, grids and lists) stack
 * below ~480px. Inline styles stay as they are for clients that drop <style>; a table with header
 * cells (a data table) never stacks.
 */
export function responsiveBody(html: string): string {
  const edits = new Map<number, { length: number; tag: string }>();
  const tables: Table[] = [];
  /** The direct cells of the open rows, innermost last (a cell's own tables have rows of their own). */
  const rows: Cell[][] = [];
  for (const match of html.matchAll(TAG)) {
    const [tag, closing, rawName] = match;
    const name = rawName.toLowerCase();
    const start = match.index;
    if (name === 'img') {
      edits.set(start, { length: tag.length, tag: withStyle(tag, 'max-width:100%;height:auto') });
    } else if (name === 'table' && !closing) {
      tables.push({ columns: [], hasHeader: false });
      if (isFixedWide(tag)) edits.set(start, { length: tag.length, tag: withClass(tag, FLUID_CLASS) });
    } else if (name === 'table') {
      const table = tables.pop();
      if (table && !table.hasHeader)
        for (const cell of table.columns)
          edits.set(cell.start, { length: cell.tag.length, tag: withClass(cell.tag, STACK_CLASS) });
    } else if (name === 'tr' && !closing) {
      rows.push([]);
    } else if (name === 'tr') {
      const cells = rows.pop() ?? [];
      if (cells.length >= 2) tables.at(-1)?.columns.push(...cells);
    } else if (!closing && name === 'th') {
      const table = tables.at(-1);
      if (table) table.hasHeader = true;
    } else if (!closing && rows.length) {
      rows[rows.length - 1].push({ start, tag });
    }
  }
  let out = '';
  let at = 0;
  for (const start of [...edits.keys()].sort((a, b) => a - b)) {
    const edit = edits.get(start)!;
    out += html.slice(at, start) + edit.tag;
    at = start + edit.length;
  }
  return out + html.slice(at);
}

/** The hidden preview text at the top of the body, or nothing. */
export function preheaderHtml(preheader: string | undefined): string {
  const text = (preheader ?? '').replace(/\s+/g, ' ').trim();
  return text ? `<span style="${PREHEADER_STYLE}">${escapeHtml(text)}${PREHEADER_PADDING}</span>` : '';
}

/**
 * A sanitised body as the whole document mail clients expect: the viewport, the responsive rules (and
 * the template's own @media rules) in the head, the preview text first, and the content in a
 * container at most {@link CONTENT_WIDTH}px wide and fluid below it (a fixed table for Outlook).
 */
export function emailDocument(body: string, options: { preheader?: string } = {}): string {
  const sheet = /^\s*<style>([\s\S]*?)<\/style>/.exec(body);
  const content = responsiveBody(sheet ? body.slice(sheet[0].length) : body);
  return (
    '<!DOCTYPE html><html><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<meta name="x-apple-disable-message-reformatting">' +
    // The template's own rules in a sheet of their own: Gmail drops a whole <style> it cannot parse.
    `<style>${RESPONSIVE_CSS}</style>${sheet ? sheet[0].trim() : ''}</head>` +
    '<body style="margin:0;padding:0;-webkit-text-size-adjust:100%;-ms-text-size-adjust:100%">' +
    preheaderHtml(options.preheader) +
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"><tr><td align="center">' +
    `<!--[if mso]><table role="presentation" width="${CONTENT_WIDTH}" cellpadding="0" cellspacing="0" border="0"><tr><td><![endif]-->` +
    `<div style="max-width:${CONTENT_WIDTH}px;margin:0 auto;text-align:left">${content}</div>` +
    '<!--[if mso]></td></tr></table><![endif]-->' +
    '</td></tr></table></body></html>'
  );
}

/** The size of the HTML as sent, and whether Gmail clips it. */
export function htmlSize(html: string) {
  const htmlBytes = new TextEncoder().encode(html).byteLength;
  return { htmlBytes, clipped: htmlBytes > GMAIL_CLIP_BYTES };
}

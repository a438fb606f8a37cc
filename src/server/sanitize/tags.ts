/** The tags of rich text, by kind (the sanitiser's allow-list is built from them). */
export const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];
export const TEXT = [
  'p',
  'br',
  'hr',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'strike',
  'del',
  'ins',
  'sub',
  'sup',
  'mark',
  'small',
  'span',
];
export const BLOCKS = ['blockquote', 'code', 'pre', 'ul', 'ol', 'li', 'figure', 'figcaption'];
export const TABLES = ['table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption', 'colgroup', 'col'];

/**
 * A small allow-list HTML cleaner for read-only displays of stored rich text and email markup. The
 * server sanitises on save as well; this keeps a display safe even for data that bypassed it.
 */
const ALLOWED_TAGS = new Set([
  'P',
  'BR',
  'HR',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'STRONG',
  'B',
  'EM',
  'I',
  'U',
  'S',
  'MARK',
  'CODE',
  'PRE',
  'BLOCKQUOTE',
  'UL',
  'OL',
  'LI',
  'A',
  'IMG',
  'SPAN',
  'DIV',
  'TABLE',
  'THEAD',
  'TBODY',
  'TR',
  'TH',
  'TD',
  'SUB',
  'SUP',
  'FIGURE',
  'FIGCAPTION',
]);
const ALLOWED_ATTRIBUTES: Record<string, readonly string[]> = {
  A: ['href', 'title'],
  IMG: ['src', 'alt', 'title', 'width', 'height'],
};
const SAFE_URL = /^(https?:|mailto:|\/(?!\/)|#)/i;

function clean(node: Element) {
  for (const child of Array.from(node.children)) {
    if (!ALLOWED_TAGS.has(child.tagName)) {
      if (['SCRIPT', 'STYLE', 'IFRAME', 'OBJECT', 'EMBED', 'TEMPLATE', 'NOSCRIPT'].includes(child.tagName))
        child.remove();
      else {
        clean(child);
        child.replaceWith(...Array.from(child.childNodes));
      }
      continue;
    }
    for (const attribute of Array.from(child.attributes)) {
      const allowed = ALLOWED_ATTRIBUTES[child.tagName]?.includes(attribute.name) ?? false;
      const isUrl = attribute.name === 'href' || attribute.name === 'src';
      if (!allowed || (isUrl && !SAFE_URL.test(attribute.value.trim())))
        child.removeAttribute(attribute.name);
    }
    if (child.tagName === 'A') {
      child.setAttribute('target', '_blank');
      child.setAttribute('rel', 'noopener noreferrer');
    }
    clean(child);
  }
}

export function safeHtml(html: string): string {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  clean(doc.body);
  return doc.body.innerHTML;
}

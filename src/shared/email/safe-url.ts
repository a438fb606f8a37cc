/**
 * The URLs an email may hold, for the template's own links (checked when it is saved) and for the
 * values merge tags put into URL attributes (checked as each message is filled): links go to http(s),
 * mail or a phone number, and whatever a message loads (an image, a background) comes over http(s).
 */

export type UrlKind = 'link' | 'image';

export const URL_SCHEMES: Record<UrlKind, readonly string[]> = {
  link: ['http', 'https', 'mailto', 'tel'],
  image: ['http', 'https'],
};

/** Attributes whose value is a URL a reader follows or a client loads; `srcset` is a list of them. */
const URL_ATTRIBUTES: Record<string, UrlKind> = {
  href: 'link',
  'xlink:href': 'link',
  action: 'link',
  formaction: 'link',
  cite: 'link',
  longdesc: 'link',
  usemap: 'link',
  ping: 'link',
  src: 'image',
  srcset: 'image',
  background: 'image',
  poster: 'image',
  lowsrc: 'image',
  dynsrc: 'image',
  data: 'image',
  codebase: 'image',
  manifest: 'image',
  icon: 'image',
};

/** What a URL attribute holds, or undefined for an attribute that is not a URL. */
export const urlKindOf = (attribute: string): UrlKind | undefined =>
  Object.hasOwn(URL_ATTRIBUTES, attribute.toLowerCase())
    ? URL_ATTRIBUTES[attribute.toLowerCase()]
    : undefined;

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  colon: ':',
  sol: '/',
  tab: '\t',
  newline: '\n',
  period: '.',
  num: '#',
  lpar: '(',
  rpar: ')',
  nbsp: '\u00a0',
};

/**
 * An attribute value as the browser reads it: character references decoded. A named one this does not
 * know stays as written, so a scheme spelled with it reads as no scheme and is refused.
 */
export function decodeEntities(value: string): string {
  return value.replace(/&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|([a-z]{2,8}));?/gi, (whole, dec, hex, name) => {
    if (name) return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
    const code = dec ? Number(dec) : parseInt(hex, 16);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
  });
}

/**
 * Whether a URL (decoded, as the browser reads it) has a scheme `kind` allows. Browsers drop leading
 * control characters and spaces and every tab and line break before they read the scheme, so this
 * reads it the same way; a URL without a scheme is refused too (relative to what, in a mail client?).
 */
export function hasSafeScheme(url: string, kind: UrlKind): boolean {
  // eslint-disable-next-line no-control-regex
  const text = url.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+/, '');
  const candidates = kind === 'image' && /,\s/.test(text) ? text.split(/,\s+/) : [text];
  return candidates.every((candidate) => {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(candidate.trim())?.[1]?.toLowerCase();
    if (!scheme || !URL_SCHEMES[kind].includes(scheme)) return false;
    return !scheme.startsWith('http') || /^https?:\/\/[^/\\]/i.test(candidate.trim());
  });
}

import crypto from 'node:crypto';
import { WORKSPACE_QUERY_PARAM } from '@shared/media/contract';
import { parseOwnImageUrl } from '@shared/media/urls';

/**
 * Images for readers who are not members: the workspace's file and thumbnail URLs need a signed-in
 * member, which the recipient of a sent email or a website reading the delivery API is not. They get
 * `/fun/emailImage/` links instead, signed with MARQUEE_SECRET for exactly that workspace and file (and,
 * for delivered content, the published item they were delivered in), so the holder can load that image
 * and no other. What the link shows of it — size, fit, format, quality — stays outside the signature,
 * so a page may ask for the widths of its srcset.
 */
const EMAIL_IMAGE_PATH = '/fun/emailImage/';
/** File URLs (full size) are sent as thumbnails this wide, the usual email width ×2 for sharp screens. */
const FULL_WIDTH = 1200;

/** The published item a delivered image link was delivered in: it loads while that item is published there. */
export interface DeliveredIn {
  stage: string;
  schema: string;
  id: string;
}

/** What a signed image link may show: one file of a workspace, for delivered content while its item is published. */
export interface ImageLink {
  workspaceId: string;
  storageName: string;
  item?: DeliveredIn;
}

export interface ImageSize {
  w?: number;
  h?: number;
}

const itemPart = (link: ImageLink) => (link.item ? [link.item.stage, link.item.schema, link.item.id] : []);

const hmac = (key: string, payload: string[]) =>
  crypto.createHmac('sha256', key).update(payload.join('\n')).digest('base64url');

const signImageLink = (secret: string, link: ImageLink) =>
  hmac(`image-link:${secret}`, [link.workspaceId, link.storageName, ...itemPart(link)]);

/**
 * The form links were signed in while the signature named their size too: links of emails already sent
 * and pages sites cached still carry it, and load at exactly that size.
 */
const signSizedImageLink = (secret: string, link: ImageLink, size: ImageSize) =>
  hmac(`email-image:${secret}`, [
    link.workspaceId,
    link.storageName,
    String(size.w ?? ''),
    String(size.h ?? ''),
    ...itemPart(link),
  ]);

const sameSignature = (expected: string, sig: string) => {
  const a = Buffer.from(expected);
  const b = Buffer.from(sig);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
};

/** Whether `sig` signs the link, at any size, or in the older sized form at exactly `size`. */
export function isSignedImageLink(secret: string, link: ImageLink, size: ImageSize, sig: string) {
  return (
    sameSignature(signImageLink(secret, link), sig) ||
    sameSignature(signSizedImageLink(secret, link, size), sig)
  );
}

/**
 * The signed links of one image, by size: signed once, since the signature does not name the size
 * (a delivered file value carries three of them).
 */
export function imageLinks(secret: string, link: ImageLink): (size?: ImageSize) => string {
  const sig = signImageLink(secret, link);
  return (size = {}) => {
    const query = new URLSearchParams({ id: link.storageName });
    if (size.w !== undefined) query.set('w', String(size.w));
    if (size.h !== undefined) query.set('h', String(size.h));
    query.set(WORKSPACE_QUERY_PARAM, link.workspaceId);
    if (link.item) {
      query.set('stage', link.item.stage);
      query.set('schema', link.item.schema);
      query.set('item', link.item.id);
    }
    query.set('sig', sig);
    return `${EMAIL_IMAGE_PATH}?${query}`;
  };
}

const dimension = (value: string | null) => (value && /^\d{1,4}$/.test(value) ? Number(value) : undefined);

export interface SignOptions {
  publicUrl: string;
  secret: string;
  workspaceId: string;
  /** For delivered content: the published item the HTML belongs to. */
  item?: DeliveredIn;
}

/** The signed absolute link for an own image URL of the workspace, or undefined for any other URL. */
function signedOwnImage(src: string, options: SignOptions) {
  const own = parseOwnImageUrl(src, options.publicUrl);
  if (!own || own.workspaceId !== options.workspaceId) return undefined;
  const url = new URL(src, 'http://own.invalid');
  const w = dimension(url.searchParams.get('w'));
  const h = dimension(url.searchParams.get('h'));
  const size = w || h ? { w, h } : { w: FULL_WIDTH };
  return `${options.publicUrl}${imageLinks(options.secret, { ...own, item: options.item })(size)}`;
}

/** A CSS url() in a style attribute's (entity-encoded) text, unquoted or quoted. */
const CSS_URL = /(url\(\s*)(&quot;|'|&#39;|)([^"'()<>\s]*?)\2(\s*\))/g;

const encodeAmpersands = (url: string) => url.replace(/&/g, '&amp;');

/**
 * Every src, background and CSS url() of the workspace's own images (relative or under `publicUrl`)
 * as an absolute signed image link; other URLs stay as they are. `html` is sanitised markup, so
 * attribute values are double-quoted with `&amp;` for ampersands.
 */
export function signOwnImages(html: string, options: SignOptions) {
  return html
    .replace(/(\s(?:src|background)=")([^"]*)"/g, (whole, head: string, raw: string) => {
      const signed = signedOwnImage(raw.replace(/&amp;/g, '&'), options);
      return signed ? `${head}${encodeAmpersands(signed)}"` : whole;
    })
    .replace(/(\sstyle=")([^"]*)"/g, (whole, head: string, style: string) => {
      if (!style.includes('url(')) return whole;
      const signedStyle = style.replace(
        CSS_URL,
        (urlWhole, open: string, quote: string, raw: string, close: string) => {
          const signed = signedOwnImage(raw.replace(/&amp;/g, '&'), options);
          return signed ? `${open}${quote}${encodeAmpersands(signed)}${quote}${close}` : urlWhole;
        },
      );
      return `${head}${signedStyle}"`;
    });
}

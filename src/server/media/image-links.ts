import crypto from 'node:crypto';
import { WORKSPACE_QUERY_PARAM } from '@shared/media/contract';
import { parseOwnImageUrl } from '@shared/media/urls';

/**
 * Images for readers who are not members: the workspace's file and thumbnail URLs need a signed-in
 * member, which the recipient of a sent email or a website reading the delivery API is not. They get
 * `/fun/emailImage/` links instead, signed with MARQUEE_SECRET for exactly that workspace, file and
 * size (and, for delivered content, the published item they were delivered in), so the holder can load
 * that image and no other. The output format (`format=webp`) stays outside the signature, so a website
 * may ask for another encoding of the same image.
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

export interface ImageLink {
  workspaceId: string;
  storageName: string;
  w?: number;
  h?: number;
  item?: DeliveredIn;
}

/** Email links (no item) keep the payload they were first signed with, so links already sent still load. */
const payloadOf = (link: ImageLink) =>
  [
    link.workspaceId,
    link.storageName,
    link.w ?? '',
    link.h ?? '',
    ...(link.item ? [link.item.stage, link.item.schema, link.item.id] : []),
  ].join('\n');

const signImageLink = (secret: string, link: ImageLink) =>
  crypto.createHmac('sha256', `email-image:${secret}`).update(payloadOf(link)).digest('base64url');

export function isSignedImageLink(secret: string, link: ImageLink, sig: string) {
  const expected = Buffer.from(signImageLink(secret, link));
  const given = Buffer.from(sig);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}

export function imageLinkUrl(secret: string, link: ImageLink) {
  const query = new URLSearchParams({ id: link.storageName });
  if (link.w !== undefined) query.set('w', String(link.w));
  if (link.h !== undefined) query.set('h', String(link.h));
  query.set(WORKSPACE_QUERY_PARAM, link.workspaceId);
  if (link.item) {
    query.set('stage', link.item.stage);
    query.set('schema', link.item.schema);
    query.set('item', link.item.id);
  }
  query.set('sig', signImageLink(secret, link));
  return `${EMAIL_IMAGE_PATH}?${query}`;
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
  const link = { ...own, ...(w || h ? { w, h } : { w: FULL_WIDTH }), item: options.item };
  return `${options.publicUrl}${imageLinkUrl(options.secret, link)}`;
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

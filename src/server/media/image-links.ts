import crypto from 'node:crypto';
import { WORKSPACE_QUERY_PARAM } from '@shared/media/contract';
import { parseOwnImageUrl } from '@shared/media/urls';

/**
 * Images for readers who are not members: the workspace's file and thumbnail URLs need a signed-in
 * member, which the recipient of a sent email or a website reading the delivery API is not. They get
 * `/fun/emailImage/` links instead, signed with MARQUEE_SECRET for exactly that workspace, file and
 * size, so the holder can load that image and no other.
 */
const EMAIL_IMAGE_PATH = '/fun/emailImage/';
/** File URLs (full size) are sent as thumbnails this wide, the usual email width ×2 for sharp screens. */
const FULL_WIDTH = 1200;

export interface ImageLink {
  workspaceId: string;
  storageName: string;
  w?: number;
  h?: number;
}

const payloadOf = (link: ImageLink) =>
  [link.workspaceId, link.storageName, link.w ?? '', link.h ?? ''].join('\n');

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
  query.set('sig', signImageLink(secret, link));
  return `${EMAIL_IMAGE_PATH}?${query}`;
}

const dimension = (value: string | null) => (value && /^\d{1,4}$/.test(value) ? Number(value) : undefined);

/**
 * Every src and background of the workspace's own images (relative or under `publicUrl`) as an
 * absolute signed email image link; other URLs stay as they are. `html` is sanitised markup, so
 * attribute values are double-quoted with `&amp;` for ampersands.
 */
export function signOwnImages(
  html: string,
  options: { publicUrl: string; secret: string; workspaceId: string },
) {
  return html.replace(/(\s(?:src|background)=")([^"]*)"/g, (whole, head: string, raw: string) => {
    const src = raw.replace(/&amp;/g, '&');
    const own = parseOwnImageUrl(src, options.publicUrl);
    if (!own || own.workspaceId !== options.workspaceId) return whole;
    const url = new URL(src, 'http://own.invalid');
    const w = dimension(url.searchParams.get('w'));
    const h = dimension(url.searchParams.get('h'));
    const link = { ...own, ...(w || h ? { w, h } : { w: FULL_WIDTH }) };
    const signed = `${options.publicUrl}${imageLinkUrl(options.secret, link)}`;
    return `${head}${signed.replace(/&/g, '&amp;')}"`;
  });
}

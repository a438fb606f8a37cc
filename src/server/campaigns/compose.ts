import { convert as htmlToText } from 'html-to-text';
import MailComposer from 'nodemailer/lib/mail-composer';
import DKIM from 'nodemailer/lib/dkim';
import { encodeWord, encodeWords, foldLines, quoteString } from 'nodemailer/lib/mime-funcs';
import { encode as qpEncode, wrap as qpWrap } from 'nodemailer/lib/qp';
import { PUBLIC_EMAIL_PATHS } from '@shared/api/campaigns';
import { emailDocument } from '@shared/email/email-document';
import { fillMergeTags, fillMergeUrl, type MergeAttributes } from '@shared/email/merge-tags';
import { decodeEntities } from '@shared/email/safe-url';
import type { SendContent } from '../db/schema';
import { signOwnImages } from '../media/image-links';
import { absoluteImageUrls, sanitizeMessageHtml } from '../email/sanitize';
import type { DkimOptions } from '../senders/service';
import { randomId } from '../lib/ids';
import { signToken } from './tokens';

/**
 * A campaign's message in two steps: `freezeContent` once per send (sanitised HTML, own images signed,
 * links numbered, the footer, the open pixel), `personalise` once per recipient (merge tags, the
 * recipient's signed links and headers). Markers stand where a recipient's own URLs go:
 * `%%mq:c:N%%` the click link of link N, `%%mq:o%%` the open pixel, `%%mq:u%%` the unsubscribe page.
 */
const MARKER = /%%mq:([cou])(?::(\d+))?%%/g;
const HREF = /(<a\b[^>]*?\shref=")([^"]*)"/gi;

export interface EmailSource {
  subject: string;
  preheader: string;
  html: string;
  textBody: string;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

function footerHtml(postalAddress: string) {
  const lines = postalAddress.split(/\r?\n/).map(escapeHtml).join('<br>');
  return (
    '<div style="padding:24px 16px;color:#6b7280;font:12px/1.5 Arial,sans-serif;text-align:center">' +
    `${lines}<br><a href="%%mq:u%%" style="color:#6b7280;text-decoration:underline">Unsubscribe</a></div>`
  );
}

/**
 * The send's content with its links: each http(s) link, and each link whose URL starts with a merge
 * tag, becomes a numbered click link when tracking is on (`links[N-1]` is link N's URL as written, its
 * merge tags filled for each recipient when they click: `clickTarget`); the footer with the postal
 * address and the unsubscribe link, and the open pixel when tracking is on, are added.
 */
export function freezeContent(
  source: EmailSource,
  options: {
    workspaceId: string;
    publicUrl: string;
    secret: string;
    tracking: boolean;
    postalAddress: string;
  },
): { html: string; text: string; links: string[] } {
  const { publicUrl, secret, workspaceId } = options;
  let body = source.html.trim()
    ? absoluteImageUrls(
        signOwnImages(sanitizeMessageHtml(source.html), { publicUrl, secret, workspaceId }),
        publicUrl,
      )
    : `<p>${escapeHtml(source.textBody).replace(/\r?\n/g, '<br>')}</p>`;
  const links: string[] = [];
  if (options.tracking) {
    body = body.replace(HREF, (whole, head: string, href: string) => {
      const url = decodeEntities(href);
      if (!/^(?:https?:\/\/|\{\{)/i.test(url.trim())) return whole;
      let index = links.indexOf(url);
      if (index < 0) index = links.push(url) - 1;
      return `${head}%%mq:c:${index + 1}%%"`;
    });
  }
  const pixel = options.tracking
    ? '<img src="%%mq:o%%" width="1" height="1" alt="" style="display:block;border:0;width:1px;height:1px">'
    : '';
  const html = emailDocument(body + footerHtml(options.postalAddress) + pixel, {
    preheader: source.preheader,
  });
  const ownText = source.textBody.trim()
    ? source.textBody
    : htmlToText(body, { wordwrap: 100, selectors: [{ selector: 'img', format: 'skip' }] });
  const text = `${ownText.trim()}\n\n--\n${options.postalAddress.trim()}\nUnsubscribe: %%mq:u%%\n`;
  return { html, text, links };
}

/**
 * Where click link `url` (as `freezeContent` numbered it) takes a recipient with these attributes: its
 * merge tags filled, and only ever to an http(s) URL; undefined when it makes none.
 */
export function clickTarget(url: string, attributes: MergeAttributes): string | undefined {
  const filled = fillMergeUrl(url, attributes, 'link');
  return filled !== undefined && /^https?:/i.test(filled.trim()) ? filled : undefined;
}

export interface Recipient {
  n: number;
  email: string;
  attributes: MergeAttributes;
}

export interface PersonalMessage {
  from: { name: string; address: string };
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  headers: Record<string, string>;
  /** The recipient's unsubscribe token (SendGrid carries it back in its events). */
  unsubscribeToken: string;
}

/** One recipient's message: merge tags filled, their own signed links, List-Unsubscribe (RFC 8058). */
export function personalise(
  content: SendContent,
  send: { workspaceId: string; id: string },
  recipient: Recipient,
  options: { publicUrl: string; secret: string; unsubscribeMailto: string },
): PersonalMessage {
  const token = (kind: 'c' | 'o' | 'u', link = 0) =>
    signToken({ kind, workspaceId: send.workspaceId, sendId: send.id, n: recipient.n, link }, options.secret);
  const unsubscribeToken = token('u');
  const unsubscribeUrl = options.publicUrl + PUBLIC_EMAIL_PATHS.unsubscribe(unsubscribeToken);
  const urlOf = (kind: string, link?: string) =>
    kind === 'u'
      ? unsubscribeUrl
      : options.publicUrl +
        (kind === 'o'
          ? PUBLIC_EMAIL_PATHS.open(token('o'))
          : PUBLIC_EMAIL_PATHS.click(token('c', Number(link))));
  const fill = (text: string, html: boolean) =>
    fillMergeTags(text, recipient.attributes, { html }).replace(MARKER, (_, kind: string, link?: string) =>
      urlOf(kind, link),
    );
  const domain = content.fromAddress.split('@')[1] ?? 'marquee.local';
  return {
    from: { name: content.fromName, address: content.fromAddress },
    to: recipient.email,
    ...(content.replyTo ? { replyTo: content.replyTo } : {}),
    subject: fillMergeTags(content.subject, recipient.attributes)
      .replace(/[\r\n]+/g, ' ')
      .trim(),
    text: fill(content.text, false),
    html: fill(content.html, true),
    messageId: `<${send.id}.${recipient.n}.${send.workspaceId}@${domain}>`,
    headers: {
      'List-Unsubscribe': `<${unsubscribeUrl}>, <mailto:${options.unsubscribeMailto}?subject=unsubscribe%20${unsubscribeToken}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
    unsubscribeToken,
  };
}

/** An address MIME carries as it is: printable ASCII, one @, nothing to quote or punycode. */
const PLAIN_ADDRESS = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9.-]+$/;

/** A display name as nodemailer writes it: bare, quoted, or an encoded word. */
const addressName = (name: string) =>
  /^[\w ]*$/.test(name) ? name : /^[\x20-\x7e]*$/.test(name) ? quoteString(name) : encodeWord(name, 'Q', 52);

const header = (key: string, value: string) => foldLines(`${key}: ${value}`, 76);

/** A text part in quoted-printable with CRLF line ends. */
const qpPart = (type: string, content: string) =>
  `Content-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n` +
  qpWrap(qpEncode(content.replace(/\r?\n/g, '\r\n')), 76);

/**
 * A campaign message is always the same shape (text and HTML alternatives, a few headers), so it is
 * written directly: MailComposer's streams and address parsing cost several times the encoding
 * itself, once per recipient. Messages with an address that is not plain ASCII go through it.
 */
function plainMime(message: PersonalMessage): Buffer | undefined {
  const { from, replyTo } = message;
  if (![message.to, from.address, replyTo ?? 'a@b'].every((address) => PLAIN_ADDRESS.test(address))) return;
  const boundary = `--_mq-${randomId(24)}`;
  const lines = [
    header('From', from.name ? `${addressName(from.name)} <${from.address}>` : from.address),
    header('To', message.to),
    ...(replyTo ? [header('Reply-To', replyTo)] : []),
    header('Subject', encodeWords(message.subject.replace(/\r?\n|\r/g, ' '), 'Q', 52, true)),
    header('Message-ID', message.messageId),
    ...Object.entries(message.headers).map(([key, value]) => header(key, encodeWords(value, 'Q', 52, true))),
    header('Date', new Date().toUTCString().replace(/GMT/, '+0000')),
    'MIME-Version: 1.0',
    `Content-Type: multipart/alternative;\r\n boundary="${boundary}"`,
    '',
    `--${boundary}`,
    qpPart('text/plain', message.text),
    `--${boundary}`,
    qpPart('text/html', message.html),
    `--${boundary}--`,
    '',
  ];
  return Buffer.from(lines.join('\r\n'));
}

/** The message as MIME bytes, DKIM-signed when the sender's domain is verified. */
export async function mimeOf(message: PersonalMessage, dkim: DkimOptions | undefined): Promise<Buffer> {
  const raw = plainMime(message) ?? (await composed(message));
  if (!dkim) return raw;
  const signed = new DKIM(dkim).sign(raw);
  const chunks: Buffer[] = [];
  for await (const chunk of signed) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function composed(message: PersonalMessage): Promise<Buffer> {
  return new MailComposer({
    from: message.from,
    to: message.to,
    ...(message.replyTo ? { replyTo: message.replyTo } : {}),
    subject: message.subject,
    text: message.text,
    html: message.html,
    messageId: message.messageId,
    headers: message.headers,
  })
    .compile()
    .build();
}

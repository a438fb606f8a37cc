import fs from 'node:fs';
import path from 'node:path';

export interface OutboxMail {
  file: string;
  to: string;
  subject: string;
  text: string;
}

/** Undoes the quoted-printable soft breaks and escapes nodemailer uses for long lines. */
function decodeQuotedPrintable(body: string) {
  return body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The mails written to DATA_DIR/outbox, oldest first. */
export function readOutbox(dataDir: string): OutboxMail[] {
  const dir = path.join(dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((f) => {
      const raw = fs.readFileSync(path.join(dir, f), 'utf8');
      const header = (name: string) => raw.match(new RegExp(`^${name}: (.*)$`, 'mi'))?.[1]?.trim() ?? '';
      return { file: f, to: header('To'), subject: header('Subject'), text: decodeQuotedPrintable(raw) };
    });
}

/** The link of the newest mail to an address whose link path matches. */
export function lastLink(dataDir: string, to: string, pathPart: string): string {
  const mails = readOutbox(dataDir).filter((m) => m.to.toLowerCase().includes(to.toLowerCase()));
  for (const mail of mails.reverse()) {
    const link = mail.text.match(new RegExp(`https?://[^\\s"<>]*${pathPart}[^\\s"<>]*`))?.[0];
    if (link) return link;
  }
  throw new Error(`No mail to ${to} with a ${pathPart} link`);
}

export const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

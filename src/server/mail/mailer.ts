import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import { randomId } from '../lib/ids';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The link the mail exists for; logged when writing to the outbox so a laptop user can follow it. */
  link?: string;
  /** The sender; MAIL_FROM when absent. */
  from?: { name: string; address: string };
  replyTo?: string;
  /** nodemailer's DKIM signing options (senders/service.ts dkimOptionsFor). */
  dkim?: { domainName: string; keySelector: string; privateKey: string };
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** nodemailer (about 13 MB resident) loads with the first mail, not at start. */
const loadNodemailer = () => import('nodemailer').then((m) => m.default);

/** SMTP when SMTP_URL is set; otherwise each message becomes an .eml file under DATA_DIR/outbox/. */
export function createMailer(options: {
  smtpUrl?: string;
  from: string;
  outboxDir: string;
  log: FastifyBaseLogger;
}): Mailer {
  if (options.smtpUrl) {
    const smtpUrl = options.smtpUrl;
    let transport: Promise<Transporter> | undefined;
    return {
      async send(mail) {
        transport ??= loadNodemailer().then((nodemailer) => nodemailer.createTransport(smtpUrl));
        await (
          await transport
        ).sendMail({
          from: mail.from ?? options.from,
          replyTo: mail.replyTo,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          dkim: mail.dkim,
        });
      },
    };
  }
  let transport: Promise<Transporter> | undefined;
  return {
    async send(mail) {
      transport ??= loadNodemailer().then((nodemailer) =>
        nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
      );
      const info = await (
        await transport
      ).sendMail({
        from: mail.from ?? options.from,
        replyTo: mail.replyTo,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        dkim: mail.dkim,
      });
      await fs.mkdir(options.outboxDir, { recursive: true });
      const file = path.join(
        options.outboxDir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomId(6)}.eml`,
      );
      await fs.writeFile(file, info.message as Buffer);
      options.log.info(
        { to: mail.to, subject: mail.subject, link: mail.link, file },
        'mail written to outbox',
      );
    },
  };
}

import fs from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { randomId } from '../lib/ids';
import type { PersonalMessage } from './compose';
import { SmtpError, smtpPool } from './smtp-client';

/**
 * How a campaign message reaches a provider at most once. `hold` hands the provider the whole message
 * but its last part: SMTP gets everything up to the final `.` of DATA, the HTTP API everything but the
 * body's last byte, so the provider cannot accept it yet. The caller then records the recipient as in
 * flight and calls `release`, which writes the last part at once, in the same step as the COMMIT, and
 * records it as sent once the provider accepts it. A process that dies before that step leaves an
 * unfinished message the provider drops, and the recipient pending for whoever takes the chunk over;
 * one that dies after it leaves the recipient in flight, which the takeover marks unconfirmed.
 */
export interface HeldMessage {
  /** Writes the last part before it answers; resolves once the provider accepted the message. */
  release(): Promise<void>;
  /** Drops the message: the provider never accepts it. */
  abort(): void;
}

export interface CampaignTransport {
  hold(message: PersonalMessage, mime: () => Promise<Buffer>): Promise<HeldMessage>;
  close(): void;
}

/** A provider's refusal: `permanent` for this recipient (5xx), else worth trying again later. */
export class ProviderRefusal extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    /** The provider asked for this much quiet (429 Retry-After), if it said. */
    readonly retryAfterMs?: number,
    /** Nothing will get through (bad credentials): the send stops instead of failing every recipient. */
    readonly fatal = false,
    /** The receiving server refused the address itself: a hard bounce. */
    readonly bounce = false,
    /**
     * No answer came (the connection broke or timed out): after the last part, the provider may have
     * taken the message (RFC 5321 §6.1), so it is not sent again.
     */
    readonly unanswered = false,
  ) {
    super(message);
    this.name = 'ProviderRefusal';
  }
}

function smtpRefusal(err: unknown): ProviderRefusal {
  if (!(err instanceof SmtpError) || err.code === undefined) {
    return new ProviderRefusal((err as Error).message ?? String(err), false, undefined, false, false, true);
  }
  if (err.auth) return new ProviderRefusal(err.message, false, undefined, true);
  if (err.code >= 500) return new ProviderRefusal(err.message, true, undefined, false, true);
  return new ProviderRefusal(err.message, false);
}

/** SMTP_URL through a pool of `connections` connections, each kept for any number of messages. */
export function smtpTransport(smtpUrl: string, connections: number): CampaignTransport {
  const pool = smtpPool(smtpUrl, connections);
  return {
    async hold(message, mime) {
      const raw = await mime();
      const held = await pool.hold(message.from.address, message.to, raw).catch((err: unknown) => {
        throw smtpRefusal(err);
      });
      return {
        release: () =>
          held.release().catch((err: unknown) => {
            throw smtpRefusal(err);
          }),
        abort: () => held.abort(),
      };
    },
    close: () => pool.close(),
  };
}

/** Without SMTP_URL: each message becomes an .eml file under DATA_DIR/outbox/ once released. */
export function outboxTransport(outboxDir: string): CampaignTransport {
  return {
    async hold(message, mime) {
      const raw = await mime();
      return {
        async release() {
          await fs.mkdir(outboxDir, { recursive: true });
          const stamp = new Date().toISOString().replace(/[:.]/g, '-');
          await fs.writeFile(path.join(outboxDir, `${stamp}-${randomId(6)}.eml`), raw);
        },
        abort() {},
      };
    },
    close() {},
  };
}

/** The SendGrid v3 Mail Send body of one message: our own tracking, so SendGrid's is off. */
function sendGridBody(message: PersonalMessage) {
  return JSON.stringify({
    personalizations: [
      { to: [{ email: message.to }], custom_args: { marquee_token: message.unsubscribeToken } },
    ],
    from: { email: message.from.address, name: message.from.name },
    ...(message.replyTo ? { reply_to: { email: message.replyTo } } : {}),
    subject: message.subject,
    content: [
      { type: 'text/plain', value: message.text || ' ' },
      ...(message.html ? [{ type: 'text/html', value: message.html }] : []),
    ],
    headers: { ...message.headers, 'Message-ID': message.messageId },
    tracking_settings: { click_tracking: { enable: false }, open_tracking: { enable: false } },
  });
}

function retryAfterMs(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** SendGrid's v3 Mail Send API (or a compatible one at `baseUrl`), one request per message. */
export function sendGridTransport(apiKey: string, baseUrl: string): CampaignTransport {
  const endpoint = new URL(`${baseUrl.replace(/\/+$/, '')}/v3/mail/send`);
  const client = endpoint.protocol === 'https:' ? https : http;
  const agent = new client.Agent({ keepAlive: true, maxSockets: 16 });
  return {
    async hold(message) {
      const body = Buffer.from(sendGridBody(message));
      const request = client.request(endpoint, {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${apiKey}`,
          'content-type': 'application/json',
          'content-length': body.length,
        },
        timeout: 20_000,
      });
      const answered = new Promise<void>((resolve, reject) => {
        request.on('response', (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk.slice(0, 2000)));
          response.on('end', () => {
            const status = response.statusCode ?? 0;
            if (status >= 200 && status < 300) return resolve();
            const detail = (() => {
              try {
                return (JSON.parse(text) as { errors?: { message?: string }[] }).errors?.[0]?.message;
              } catch {
                return undefined;
              }
            })();
            const words = `The email provider refused the message: ${detail ?? `HTTP ${status}`}`;
            if (status === 401 || status === 403)
              return reject(new ProviderRefusal(words, false, undefined, true));
            if (status === 429)
              return reject(new ProviderRefusal(words, false, retryAfterMs(response.headers['retry-after'])));
            reject(new ProviderRefusal(words, status >= 400 && status < 500));
          });
        });
        request.on('timeout', () => request.destroy(new Error('timed out')));
        request.on('error', (err) =>
          reject(
            new ProviderRefusal(
              `The email provider could not be reached: ${err.message}`,
              false,
              undefined,
              false,
              false,
              true,
            ),
          ),
        );
      });
      answered.catch(() => undefined);
      await new Promise<void>((resolve, reject) => {
        request.write(body.subarray(0, body.length - 1), (err) => (err ? reject(err) : resolve()));
      }).catch(async () => {
        await answered;
      });
      return {
        async release() {
          request.end(body.subarray(body.length - 1));
          await answered;
        },
        abort() {
          request.destroy();
        },
      };
    },
    close() {
      agent.destroy();
    },
  };
}

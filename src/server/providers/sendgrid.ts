/**
 * SendGrid's v3 Mail Send API (`POST /v3/mail/send`, https://www.twilio.com/docs/sendgrid/api-reference/mail-send)
 * at a configurable base URL, so any SendGrid-compatible service (or a local fake in tests) can serve.
 */
export interface SendGridConfig {
  apiKey: string;
  baseUrl: string;
  timeoutMs?: number;
}

export interface SendGridMessage {
  from: { email: string; name?: string };
  to: string[];
  subject: string;
  text: string;
  html: string;
}

class SendGridError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SendGridError';
  }
}

/** 'Marquee <no-reply@marquee.local>' → { name, email }. */
export function parseFrom(from: string): { email: string; name?: string } {
  const match = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(from);
  return match ? { email: match[2].trim(), ...(match[1] ? { name: match[1] } : {}) } : { email: from.trim() };
}

export function createSendGrid(config: SendGridConfig) {
  const endpoint = `${config.baseUrl.replace(/\/+$/, '')}/v3/mail/send`;
  return {
    /** Hands one message to the provider (one personalization: the recipients see each other, as a test). */
    async send(message: SendGridMessage): Promise<void> {
      const content = [{ type: 'text/plain', value: message.text || ' ' }];
      if (message.html) content.push({ type: 'text/html', value: message.html });
      let response: Response;
      try {
        response = await fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${config.apiKey}` },
          body: JSON.stringify({
            personalizations: [{ to: message.to.map((email) => ({ email })) }],
            from: message.from,
            subject: message.subject,
            content,
          }),
          signal: AbortSignal.timeout(config.timeoutMs ?? 20_000),
        });
      } catch (err) {
        throw new SendGridError(`The email provider could not be reached: ${(err as Error).message}`);
      }
      if (response.ok) return;
      const body = (await response.json().catch(() => null)) as {
        errors?: { message?: string; field?: string | null }[];
      } | null;
      const first = body?.errors?.[0];
      const detail = first?.message
        ? `${first.message}${first.field ? ` (${first.field})` : ''}`
        : `HTTP ${response.status}`;
      throw new SendGridError(`The email provider refused the message: ${detail}`);
    },
  };
}

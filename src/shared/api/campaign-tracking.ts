import { z } from 'zod';

/**
 * The HTTP contract of what recipients' mail clients and email providers call, at the root (no
 * session): `/u/{token}` (unsubscribe page, one-click unsubscribe, resubscribe), `/t/o/{token}` (open
 * pixel), `/t/c/{token}` (click redirect) and `/hooks/email/{provider}` (bounces and complaints).
 */

/** The setting without which SendGrid's Event Webhook is refused (its events are taken only signed). */
export const SENDGRID_WEBHOOK_SETTING = 'SENDGRID_WEBHOOK_PUBLIC_KEY';

export const TRACKING_MESSAGES = {
  unknownProvider: (provider: string) => `Unknown email provider "${provider}": use sendgrid or smtp`,
  badSignature: 'The event webhook signature is missing or not valid',
  webhookNotConfigured: 'Service not configured',
  notJson: 'The body is not JSON',
  notEvents: 'The body must be a JSON array of events',
  unsubscribeTitle: 'Unsubscribe',
  unsubscribeQuestion: (workspace: string) => `Stop receiving campaign emails from ${workspace}?`,
  unsubscribeButton: 'Unsubscribe',
  resubscribeButton: 'Resubscribe',
  unsubscribedDetail: (workspace: string) =>
    `You will no longer receive campaign emails from ${workspace}. Changed your mind?`,
  resubscribedDetail: (workspace: string) => `You will receive campaign emails from ${workspace} again.`,
} as const;

/** What `POST /u/{token}` and `POST /u/{token}/resubscribe` answer a client that does not ask for HTML. */
export const UnsubscribeAnswer = z.object({
  message: z.string(),
  unsubscribed: z.boolean().describe("The address's state after the request"),
});
export type UnsubscribeAnswer = z.infer<typeof UnsubscribeAnswer>;

/** `POST /hooks/email/{provider}`: how many events came, how many changed something, how many were ignored. */
export const EmailHookAnswer = z.object({
  received: z.number(),
  recorded: z
    .number()
    .describe('Hard bounces, complaints and unsubscribes recorded (a repeat counts, changing nothing)'),
  ignored: z
    .number()
    .describe(
      'Events without a valid marquee_token, of an unknown send or recipient, or of a kind not recorded (soft bounces, deliveries)',
    ),
});
export type EmailHookAnswer = z.infer<typeof EmailHookAnswer>;

/**
 * `POST /hooks/email/smtp`: one bounce an SMTP sender's bounce processor read from a delivery status
 * notification. `token` is the message's unsubscribe token, or its List-Unsubscribe URL (the returned
 * headers carry it); a 5.x.x status is a hard bounce, anything else is ignored.
 */
export const SmtpBounceBody = z
  .object({
    token: z.string().min(1).max(2000).describe('The `u` token, or the List-Unsubscribe URL holding it'),
    recipient: z.string().trim().min(3).max(320).describe('The address that bounced'),
    status: z
      .string()
      .regex(/^[245]\.\d{1,3}\.\d{1,3}$/, { error: 'an enhanced status code such as 5.1.1' })
      .describe('Enhanced status code (RFC 3463), e.g. 5.1.1'),
    diagnostic: z.string().max(1000).optional().describe("The receiving server's reply"),
  })
  .strict();
export type SmtpBounceBody = z.infer<typeof SmtpBounceBody>;

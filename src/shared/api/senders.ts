import { z } from 'zod';

/** The HTTP contract of Settings › Sending: senders, their domains' DNS records and the postal address. */

export const SENDER_MESSAGES = {
  notFound: 'Sender not found',
  likelySpam: 'Mail from this domain will likely land in spam until its SPF and DKIM records are published.',
  spfMissing: (domain: string) => `SPF: ${domain} has no TXT record starting with v=spf1`,
  spfSeveral: (domain: string, count: number) =>
    `SPF: ${domain} has ${count} records starting with v=spf1; keep exactly one`,
  spfInclude: (domain: string, include: string) =>
    `SPF: the record of ${domain} does not name include:${include}`,
  dkimMissing: (name: string) => `DKIM: ${name} has no TXT record starting with v=DKIM1`,
  dkimWrongKey: (name: string) => `DKIM: the record at ${name} does not carry the public key shown here`,
  lookupFailed: (name: string, code: string) => `DNS: looking up ${name} failed (${code})`,
} as const;

/**
 * How the DKIM selectors of Marquee's keys begin (`{selector}._domainkey.{domain}`). Each workspace's
 * key for a domain gets a selector of its own, so two workspaces sending from one domain publish two
 * records side by side instead of one overwriting the other.
 */
export const DKIM_SELECTOR_PREFIX = 'marquee-';

const Address = z
  .string()
  .trim()
  .max(320, { error: 'at most 320 characters' })
  .pipe(z.email({ error: 'Enter a valid email address' }));

export const SenderBody = z
  .object({
    fromName: z
      .string()
      .trim()
      .min(1, { error: 'fromName: From name is required' })
      .max(100, { error: 'fromName: at most 100 characters' })
      .describe('The name recipients see, e.g. "Acme News"'),
    fromAddress: Address.describe('The From address; its domain gets the SPF and DKIM records'),
    replyTo: z
      .union([Address, z.literal('')])
      .nullable()
      .optional()
      .transform((value) => value || null)
      .describe('Where replies go; empty or null: to the From address'),
  })
  .strict();
export type SenderBody = z.input<typeof SenderBody>;

export const PatchSenderBody = SenderBody.partial()
  .strict()
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), {
    error: 'Send at least one of fromName, fromAddress and replyTo',
  });
export type PatchSenderBody = z.input<typeof PatchSenderBody>;

export const Sender = z.object({
  id: z.string(),
  fromName: z.string(),
  fromAddress: z.string(),
  replyTo: z.string().nullable(),
  domain: z.string().describe('The domain of fromAddress, lower case'),
  createdAt: z.string(),
});
export type Sender = z.infer<typeof Sender>;

export const DnsRecord = z.object({
  kind: z.enum(['spf', 'dkim']),
  type: z.literal('TXT'),
  name: z.string().describe('The host name the record is published at'),
  value: z.string(),
});
export type DnsRecord = z.infer<typeof DnsRecord>;

export const SendingDomain = z.object({
  domain: z.string(),
  selector: z.string(),
  verified: z.boolean().describe('Its SPF and DKIM records were found as shown at the last check'),
  verifiedAt: z.string().nullable(),
  checkedAt: z.string().nullable(),
  problems: z.array(z.string()).describe('What the last check found missing or wrong'),
  records: z.array(DnsRecord).describe('What to publish in the domain’s DNS'),
});
export type SendingDomain = z.infer<typeof SendingDomain>;

export const PostalAddressBody = z
  .object({
    postalAddress: z
      .string()
      .trim()
      .max(500, { error: 'postalAddress: at most 500 characters' })
      .describe('The postal address in the footer of every campaign (several lines)'),
  })
  .strict();
export type PostalAddressBody = z.input<typeof PostalAddressBody>;

/**
 * Who campaigns go to: the attribute each profile's address is read from, and whether profiles whose
 * consent is unknown (never set) are mailed. A new workspace reads `email` and mails only those
 * subscribed; workspaces made before the setting existed keep mailing unknown consent.
 */
export const RecipientSettings = z
  .object({
    emailAttribute: z
      .string()
      .trim()
      .min(1, { error: 'emailAttribute: choose the attribute addresses are read from' })
      .max(100)
      .describe("The key of the customer profile attribute that holds each profile's address"),
    mailUnknownConsent: z
      .boolean()
      .describe('Campaigns go to profiles whose email consent is unknown (never set), not only subscribed'),
  })
  .strict();
export type RecipientSettings = z.infer<typeof RecipientSettings>;
/** What a workspace that never saved its sending settings has. */
export const RECIPIENT_DEFAULTS: RecipientSettings = { emailAttribute: 'email', mailUnknownConsent: false };
export const RecipientSettingsBody = RecipientSettings.partial().strict();
export type RecipientSettingsBody = z.input<typeof RecipientSettingsBody>;

export const SENDING_MESSAGES = {
  unknownAttribute: (key: string) => `emailAttribute: no customer profile attribute has the key "${key}"`,
} as const;

export const SendingSettings = z.object({
  senders: z.array(Sender),
  domains: z.array(SendingDomain).describe('One per domain of the senders'),
  postalAddress: z.string(),
  recipients: RecipientSettings,
  canManage: z.boolean().describe('Whether the caller may add, change and verify senders'),
});
export type SendingSettings = z.infer<typeof SendingSettings>;

/** The domain part of an address, lower case (`Name <a@Example.com>` and `a@example.com` alike). */
export function domainOf(address: string): string {
  const bare = /<([^>]*)>/.exec(address)?.[1] ?? address;
  return bare
    .slice(bare.lastIndexOf('@') + 1)
    .trim()
    .toLowerCase();
}

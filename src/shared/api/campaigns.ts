import { z } from 'zod';
import { ProfileId, Recipients, TestSendAnswer, TestSendProvider } from './email';

/**
 * The HTTP contract of campaigns: sends (`POST …/campaigns/{id}/send`, their state, pause, resume,
 * cancel), what a send would reach now, a preview as a profile, a test send, and the results; plus the
 * public unsubscribe and tracking routes a recipient's mail client calls.
 */

export const CAMPAIGN_MESSAGES = {
  notFound: 'Campaign not found',
  sendNotFound: 'Send not found',
  needsApproval: 'This version of the campaign needs every approval before it can be sent',
  noEmail: 'Choose the email template to send',
  noAudience: 'Choose the audience to send to',
  noSender: 'Choose a sender',
  emailGone: "The campaign's email template no longer exists",
  audienceGone: "The campaign's audience no longer exists",
  senderGone: "The campaign's sender no longer exists; choose another in the campaign",
  noPostalAddress: 'Add the postal address for the footer in Settings › Sending before sending',
  notConfigured: 'Service not configured',
  alreadySending: 'This campaign already has a send under way: pause, resume or cancel it first',
  cannotPause: (state: string) => `Only a queued or sending send can be paused; this one is ${state}`,
  cannotResume: (state: string) => `Only a paused send can be resumed; this one is ${state}`,
  cannotCancel: (state: string) => `This send is ${state} already`,
  cannotResend: (state: string) =>
    `Only a finished send's unconfirmed recipients can be resent; this one is ${state}`,
  nothingUnconfirmed: 'This send has no unconfirmed recipients',
  resending: (count: number) =>
    `Resending to ${count.toLocaleString('en-US')} unconfirmed ${count === 1 ? 'recipient' : 'recipients'}`,
  sending: (recipients: number) =>
    `Sending to ${recipients.toLocaleString('en-US')} ${recipients === 1 ? 'recipient' : 'recipients'}`,
  queued: 'The send is queued: its audience is taken when it starts',
  likelySpam: 'Mail from this sender will likely land in spam until its domain is verified.',
  badToken: 'This link is not valid',
  unsubscribed: 'You are unsubscribed',
  resubscribed: 'You are subscribed again',
  experimentTesting:
    "This campaign's A/B test is waiting for its winner: cancel its test sends to send the campaign otherwise",
  experimentQueued: (variants: number) =>
    `The A/B test is queued: ${variants} variants go to their shares when it starts, the winner to the rest after the wait`,
  variantProblem: (key: string, problem: string) => `Variant ${key}: ${problem}`,
} as const;

const SEND_STATES = ['queued', 'sending', 'paused', 'done', 'cancelled'] as const;
export const SendState = z.enum(SEND_STATES);
export type SendState = z.infer<typeof SendState>;

/** The providers a campaign can send through: SMTP_URL (or the outbox) and the SendGrid-compatible API. */
const CampaignProvider = TestSendProvider;

/** `POST …/campaigns/{id}/send`: nothing, or the provider when the campaign does not name one. */
export const SendCampaignBody = z
  .object({
    /** Send now even when the campaign has a send time (otherwise the send waits for it). */
    now: z.boolean().optional(),
    everyone: z
      .boolean()
      .optional()
      .describe(
        'Send again to every member, those an earlier send of the campaign reached included; ' +
          'otherwise only members no earlier send reached get it',
      ),
  })
  .strict()
  .default({});
export type SendCampaignBody = z.input<typeof SendCampaignBody>;

const SendCounts = z.object({
  /** The audience's members at the snapshot. */
  audience: z.number(),
  /**
   * Those the send goes to: members minus suppressed, unsubscribed and those without an email, and
   * minus those an earlier send of the campaign reached unless it goes to everyone.
   */
  recipients: z.number(),
  /** Reachable members left out because an earlier send of the campaign reached them. */
  alreadyReceived: z.number(),
  /** Accepted by the provider (SMTP's 250 after the message, a 2xx from the API). */
  sent: z.number(),
  failed: z.number(),
  /**
   * Neither sent nor delivered: the message went out but the provider's acceptance never came (its
   * process died or the connection broke). Not sent again unless the sender chooses to resend them.
   */
  unconfirmed: z.number(),
  /** Not sent yet, in flight included. */
  pending: z.number(),
});

export const CampaignSend = z.object({
  id: z.string(),
  campaignId: z.string(),
  campaignVersion: z.number(),
  state: SendState,
  provider: z.string(),
  /** Sent again to every member, not only to those no earlier send reached. */
  everyone: z.boolean(),
  subject: z.string(),
  sendAt: z.string().describe('ISO time the snapshot is (or was) due'),
  snapshotAt: z.string().nullable(),
  counts: SendCounts,
  createdAt: z.string(),
  createdBy: z.string(),
  createdByName: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  error: z.string().nullable(),
  experiment: z
    .object({
      id: z.string(),
      variant: z.string().describe("The variant's letter for a test send, `winner` for the winner's send"),
    })
    .nullable()
    .describe("The A/B test the send belongs to, if it is one of a campaign's experiment"),
});
export type CampaignSend = z.infer<typeof CampaignSend>;

export const CampaignSendAnswer = z.object({ message: z.string(), send: CampaignSend });
export type CampaignSendAnswer = z.infer<typeof CampaignSendAnswer>;

export const CampaignSends = z.object({ sends: z.array(CampaignSend) });
export type CampaignSends = z.infer<typeof CampaignSends>;

/**
 * `GET …/campaigns/statuses`: where each campaign of the workspace stands. A campaign not listed is a
 * draft (never sent, or its only sends were cancelled before any went).
 */
export const CampaignStatus = z.object({
  campaignId: z.string(),
  status: z.enum(['draft', 'scheduled', 'sending', 'testing', 'sent']),
  /** The queued send's time, when scheduled. */
  sendAt: z.string().nullable(),
  /** While testing: an A/B test's variants went out and it picks its winner then. */
  decideAt: z.string().nullable(),
  /** Over every send that was not cancelled. */
  recipients: z.number(),
  sent: z.number(),
  unconfirmed: z.number(),
  /** Sends that finished. */
  sends: z.number(),
});
export type CampaignStatus = z.infer<typeof CampaignStatus>;
export const CampaignStatuses = z.object({ statuses: z.array(CampaignStatus) });
export type CampaignStatuses = z.infer<typeof CampaignStatuses>;

/** `GET …/campaigns/{id}/readiness`: who a send would reach now, and what stops it. */
export const CampaignReadiness = z.object({
  audienceSize: z.number(),
  /** Members a send would reach now: those no earlier send of the campaign reached. */
  recipients: z.number(),
  /** Reachable members an earlier send of the campaign reached: a send to everyone reaches them too. */
  alreadyReceived: z.number(),
  suppressed: z.number(),
  unsubscribed: z.number(),
  withoutEmail: z.number(),
  /** Members with an address whose consent is unknown, left out while the workspace does not mail them. */
  unknownConsent: z.number(),
  emailAttribute: z.string().describe("The attribute each profile's address is read from"),
  mailUnknownConsent: z.boolean().describe('Profiles whose consent is unknown are mailed'),
  addressAttributes: z
    .array(z.object({ key: z.string(), label: z.string() }))
    .describe('The text attributes addresses may be read from instead'),
  canChangeRecipients: z
    .boolean()
    .describe('The caller may change where addresses are read and whether unknown consent is mailed'),
  /** The campaign's version is fully approved (or its schema needs no approval). */
  approved: z.boolean(),
  canSend: z.boolean().describe('The caller may send (publish rights on campaign)'),
  /** What must change before a send: CAMPAIGN_MESSAGES texts. */
  problems: z.array(z.string()),
  /** Warnings that do not stop a send (an unverified sender, a clipped message). */
  warnings: z.array(z.string()),
  senderVerified: z.boolean(),
  htmlBytes: z.number(),
  clipped: z.boolean(),
  /** The send under way (queued, sending or paused), if any. */
  current: CampaignSend.nullable(),
});
export type CampaignReadiness = z.infer<typeof CampaignReadiness>;

/** `GET …/campaigns/{id}/preview?profileId=`: the message as that profile would get it. */
export const CampaignPreview = z.object({
  profileId: z.string().nullable(),
  subject: z.string(),
  html: z.string(),
  text: z.string(),
  htmlBytes: z.number(),
  clipped: z.boolean(),
});
export type CampaignPreview = z.infer<typeof CampaignPreview>;

/** `POST …/campaigns/{id}/test-send`: the campaign's message to test addresses, filled as a profile. */
export const CampaignTestSendBody = z
  .object({
    recipients: Recipients.optional().describe(
      "Addresses the test goes to; none: the email template's test addresses",
    ),
    profileId: ProfileId.optional(),
    provider: CampaignProvider.optional().describe("The campaign's provider unless given"),
  })
  .strict();
export type CampaignTestSendBody = z.input<typeof CampaignTestSendBody>;

/**
 * What `POST …/campaigns/{id}/test-send` answers: 'Test sent to …', the test send as recorded (its
 * item the campaign), and the sent HTML's size; the answer of an email item's test send.
 */
export const CampaignTestSendAnswer = TestSendAnswer;
export type CampaignTestSendAnswer = z.infer<typeof CampaignTestSendAnswer>;

const Rate = z.number().describe('A share of delivered, 0 to 1');

/** A rate with its 95% Wilson interval, each 0 to 1. */
const Interval = z.object({ rate: z.number(), low: z.number(), high: z.number() });

const VariantResult = z.object({
  key: z.string().describe("The variant's letter, or `winner` for the winner's send to the rest"),
  sendId: z.string(),
  subject: z.string(),
  fromName: z.string(),
  emailId: z.string(),
  recipients: z.number(),
  delivered: z.number(),
  opened: z.number(),
  clicked: z.number(),
  converted: z.number(),
  rates: z.object({
    opened: Interval.describe('Of delivered'),
    clicked: Interval.describe('Of delivered'),
    converted: Interval.describe('Of recipients, within the conversion window'),
  }),
  lift: z
    .number()
    .nullable()
    .describe(
      "The conversion rate less the holdout's (-1 to 1); null without a holdout or a conversion event",
    ),
});

/** A campaign A/B test's results: each variant with its intervals, the winner and why, and the holdout. */
export const ExperimentResults = z.object({
  id: z.string(),
  state: z.enum(['testing', 'decided', 'cancelled']),
  testPercent: z.number(),
  holdoutPercent: z.number(),
  waitHours: z.number(),
  winnerBy: z.enum(['opens', 'clicks', 'conversion']),
  conversionEvent: z.string().nullable(),
  windowHours: z.number().nullable(),
  testedAt: z.string().nullable(),
  decideAt: z.string().nullable().describe('When the winner is (or was) due to be picked'),
  decidedAt: z.string().nullable(),
  winner: z.string().nullable(),
  reason: z.string().nullable().describe('The rule and the figures the winner was picked by'),
  variants: z.array(VariantResult),
  winnerSend: VariantResult.nullable(),
  holdout: z
    .object({
      members: z.number(),
      converted: z.number(),
      rate: Interval,
    })
    .nullable()
    .describe('Members kept out of every send; their conversion is the baseline of the lift'),
});
export type ExperimentResults = z.infer<typeof ExperimentResults>;

/** `GET …/campaigns/{id}/sends/{sendId}/results`. */
export const CampaignResults = z.object({
  sendId: z.string(),
  counts: z.object({
    recipients: z.number(),
    delivered: z.number(),
    failed: z.number(),
    opened: z.number(),
    clicked: z.number(),
    bounced: z.number(),
    complained: z.number(),
    unsubscribed: z.number(),
  }),
  rates: z.object({
    opened: Rate,
    clicked: Rate,
    bounced: Rate,
    unsubscribed: Rate,
  }),
  /** Per hour since the send started (ISO hour): people whose first open, or a first click on a link, fell in it. */
  timeline: z.array(z.object({ at: z.string(), opens: z.number(), clicks: z.number() })),
  links: z.array(
    z.object({
      idx: z.number(),
      url: z.string(),
      people: z.number().describe('Recipients who clicked the link, each counted once'),
      totalClicks: z.number().describe("Every click on the link, a person's repeats included"),
    }),
  ),
  experiment: ExperimentResults.nullable().describe(
    "The A/B test's results when the send is one of its sends",
  ),
});
export type CampaignResults = z.infer<typeof CampaignResults>;

/** The email-* customer events a send records on each profile (its properties: campaign, send, and url for clicks). */
export const EMAIL_EVENTS = {
  delivered: 'email-delivered',
  opened: 'email-opened',
  clicked: 'email-clicked',
  bounced: 'email-bounced',
  unsubscribed: 'email-unsubscribed',
} as const;

/** Public paths a recipient's mail client calls (no session): unsubscribe, open pixel, click redirect. */
export const PUBLIC_EMAIL_PATHS = {
  unsubscribe: (token: string) => `/u/${token}`,
  open: (token: string) => `/t/o/${token}`,
  click: (token: string) => `/t/c/${token}`,
} as const;

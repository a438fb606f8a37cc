import {
  CAMPAIGN_MESSAGES,
  type CampaignPreview,
  type CampaignReadiness,
  type CampaignSend,
  type CampaignStatuses,
  type CampaignTestSendBody,
  type SendCampaignBody,
} from '@shared/api/campaigns';
import { EMAIL_MESSAGES, Recipients, SENDGRID_SETTING, type TestSendProvider } from '@shared/api/email';
import { splitEmailList } from '@shared/schemas/marketing';
import { CampaignExperiment, EXPERIMENT_MESSAGES, VARIANT_KEYS } from '@shared/campaigns/experiment';
import { htmlSize } from '@shared/email/email-document';
import { can } from '@shared/permissions/permissions';
import { isFullyApproved, remainingApprovals } from '@shared/publishing/approvals';
import type { AppContext } from '../context';
import type { AuditAction } from '@shared/api/delivery';
import type { Tx } from '../db/client';
import type { SendContent } from '../db/schema';
import { csvRow } from '../http/csv-output';
import { badRequest, conflict, forbidden, notConfigured, notFound } from '../http/errors';
import { compiledAudience } from '../audiences/service';
import { findProfile } from '../customers/profiles-repository';
import { requireItem } from '../items/service';
import { requireRight, schemaIn, type SchemaScope } from '../items/scope';
import { testSend as sendTestMessage } from '../email/service';
import type { ItemRow } from '../items/repository';
import { actorOf, itemLabel, journal } from '../journal/journal';
import { randomId } from '../lib/ids';
import * as senders from '../senders/repository';
import { listDefinitions } from '../customers/repository';
import { requireCustomerData, type WorkspaceAccess } from '../workspaces/access';
import { freezeContent, personalise } from './compose';
import { queueSendLanes } from './engine';
import { ensureRecordedEvents } from './email-events';
import * as experiments from './experiment-repository';
import { experimentResults } from './experiments';
import * as repo from './repository';

interface Reference {
  id?: string;
}
interface CampaignData {
  name?: string;
  email?: Reference | null;
  audience?: Reference | null;
  sender?: string | null;
  subject?: string | null;
  sendAt?: string | null;
  provider?: string | null;
  noTracking?: boolean | null;
  experiment?: unknown;
}
interface EmailData {
  subject?: string;
  preheader?: string;
  textBody?: string;
  template?: { combinedMarkup?: string };
}

function presentSend(row: repo.SendRow): CampaignSend {
  const iso = (at: Date | null) => (at ? at.toISOString() : null);
  return {
    id: row.id,
    campaignId: row.campaignId,
    campaignVersion: row.campaignVersion,
    state: row.state as CampaignSend['state'],
    provider: row.provider,
    everyone: row.everyone,
    subject: row.content.subject,
    sendAt: row.sendAt.toISOString(),
    snapshotAt: iso(row.snapshotAt),
    counts: {
      audience: row.audienceSize,
      recipients: row.recipients,
      alreadyReceived: row.alreadyReceived,
      sent: row.sent,
      failed: row.failed,
      unconfirmed: row.unconfirmed,
      pending: Math.max(0, row.recipients - row.sent - row.failed - row.unconfirmed),
    },
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    createdByName: row.createdByName,
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
    error: row.error,
    experiment: row.experimentId ? { id: row.experimentId, variant: row.variant ?? '' } : null,
  };
}

const campaignScope = (access: WorkspaceAccess) => schemaIn(access, 'campaign');

/**
 * Everything a send needs that the campaign names, or the first thing missing (400 with its message).
 * For a `preview` (and a test send, which sends the preview) the message carries no open pixel and no
 * tracked links: those answer only for a send's recipients, and a preview is nobody's.
 */
async function resolveCampaign(
  ctx: AppContext,
  scope: SchemaScope,
  item: ItemRow | { data: CampaignData },
  { preview = false, withAudience = true }: { preview?: boolean; withAudience?: boolean } = {},
) {
  const data = item.data as CampaignData;
  const problems: string[] = [];
  const emailId = data.email?.id;
  const audienceId = data.audience?.id;
  const email = emailId ? await requireItem(ctx, schemaIn(scope, 'email'), emailId).catch(() => null) : null;
  if (!emailId) problems.push(CAMPAIGN_MESSAGES.noEmail);
  else if (!email) problems.push(CAMPAIGN_MESSAGES.emailGone);
  const compiled = audienceId
    ? await compiledAudience(ctx, scope.workspace.id, audienceId, new Date())
    : null;
  if (withAudience && !audienceId) problems.push(CAMPAIGN_MESSAGES.noAudience);
  else if (withAudience && !compiled) problems.push(CAMPAIGN_MESSAGES.audienceGone);
  const sender = data.sender ? await senders.findSender(ctx.db, scope.workspace.id, data.sender) : undefined;
  if (!data.sender) problems.push(CAMPAIGN_MESSAGES.noSender);
  else if (!sender) problems.push(CAMPAIGN_MESSAGES.senderGone);
  const postal = await senders.findPostalAddress(ctx.db, scope.workspace.id);
  if (!postal?.trim()) problems.push(CAMPAIGN_MESSAGES.noPostalAddress);
  const provider: TestSendProvider = data.provider === 'sendgrid' ? 'sendgrid' : 'smtp';
  if (provider === 'sendgrid' && !ctx.config.sendgridApiKey) problems.push(CAMPAIGN_MESSAGES.notConfigured);
  const domain = sender ? await senders.findDomain(ctx.db, scope.workspace.id, sender.domain) : undefined;
  const emailData = (email?.data ?? {}) as EmailData;
  const tracking = data.noTracking !== true;
  const content: SendContent | null =
    email && sender && postal
      ? {
          subject: (data.subject?.trim() || emailData.subject || '').trim(),
          preheader: emailData.preheader ?? '',
          html: '',
          text: '',
          fromName: sender.fromName,
          fromAddress: sender.fromAddress,
          replyTo: sender.replyTo,
          postalAddress: postal,
          tracking,
        }
      : null;
  if (content && !content.subject) problems.push('subject: Subject is required');
  let links: string[] = [];
  if (content) {
    const frozen = freezeContent(
      {
        subject: content.subject,
        preheader: content.preheader,
        html: emailData.template?.combinedMarkup ?? '',
        textBody: emailData.textBody ?? '',
      },
      {
        workspaceId: scope.workspace.id,
        publicUrl: ctx.config.publicUrl,
        secret: ctx.config.secret,
        tracking: tracking && !preview,
        postalAddress: content.postalAddress,
      },
    );
    content.html = frozen.html;
    content.text = frozen.text;
    links = frozen.links;
  }
  return {
    data,
    email,
    audienceId,
    compiled,
    sender,
    senderVerified: !!domain?.verifiedAt,
    provider,
    content,
    links,
    problems,
  };
}

/** The campaign's A/B test as its version has it, or null; a 400 naming the first problem when it is not valid. */
function experimentOf(data: CampaignData): CampaignExperiment | null {
  if (data.experiment === undefined || data.experiment === null) return null;
  const parsed = CampaignExperiment.safeParse(data.experiment);
  if (!parsed.success) throw badRequest(EXPERIMENT_MESSAGES.badExperiment(parsed.error.issues[0].message));
  return parsed.data;
}

type Resolved = Awaited<ReturnType<typeof resolveCampaign>>;
type ResolvedSend = Resolved & {
  content: SendContent;
  email: ItemRow;
  sender: NonNullable<Resolved['sender']>;
};

/** Throws the first of a resolved campaign's problems: a 400, or 503 for a provider not configured. */
function requireResolved(resolved: Resolved, label = (problem: string) => problem): ResolvedSend {
  if (resolved.problems.length || !resolved.content || !resolved.email || !resolved.sender) {
    const [problem] = resolved.problems;
    if (problem === CAMPAIGN_MESSAGES.notConfigured) {
      throw notConfigured(EMAIL_MESSAGES.notConfigured, { setting: SENDGRID_SETTING });
    }
    throw badRequest(label(problem));
  }
  return resolved as ResolvedSend;
}

/**
 * Each variant of an experiment resolved as the campaign with its overrides: the subject, the email
 * template, the sender's name. The first problem of any is a 400 naming the variant.
 */
async function resolveVariants(
  ctx: AppContext,
  scope: SchemaScope,
  data: CampaignData,
  experiment: CampaignExperiment,
) {
  const variants: ResolvedSend[] = [];
  for (const [index, variant] of experiment.variants.entries()) {
    const key = VARIANT_KEYS[index];
    const resolved = requireResolved(
      await resolveCampaign(
        ctx,
        scope,
        {
          data: {
            ...data,
            subject: variant.subject?.trim() || data.subject,
            email: variant.email ?? data.email,
          },
        },
        { withAudience: false },
      ),
      (problem) => CAMPAIGN_MESSAGES.variantProblem(key, problem),
    );
    if (variant.fromName?.trim()) resolved.content.fromName = variant.fromName.trim();
    variants.push(resolved);
  }
  return variants;
}

function approvalOf(scope: SchemaScope, item: ItemRow) {
  return isFullyApproved(remainingApprovals(scope.workspace.roles, item.schema, item.approvedRoles));
}

const canSend = (scope: SchemaScope) => can(scope.permissions, 'publish', 'campaign');

/**
 * `POST …/campaigns/{id}/send`: publish rights on campaign, the current version fully approved, nothing
 * missing, no other send under way (409). The send is queued for the campaign's send time (or now) with
 * the content frozen; the job worker snapshots the audience then and sends. 202 with the send.
 */
export async function requestSend(
  ctx: AppContext,
  access: WorkspaceAccess,
  id: string,
  body: SendCampaignBody,
) {
  const scope = campaignScope(access);
  if (!canSend(scope)) throw forbidden('You do not have permission to send Campaigns');
  const item = await requireItem(ctx, scope, id);
  if (!approvalOf(scope, item)) throw conflict(CAMPAIGN_MESSAGES.needsApproval);
  const resolved = requireResolved(await resolveCampaign(ctx, scope, item));
  const experiment = experimentOf(resolved.data);
  const variants = experiment ? await resolveVariants(ctx, scope, resolved.data, experiment) : [resolved];
  const requestedAt = resolved.data.sendAt ? new Date(resolved.data.sendAt) : null;
  const sendAt = !body?.now && requestedAt && requestedAt.getTime() > Date.now() ? requestedAt : new Date();
  const row = await ctx.db.transaction(async (tx) => {
    if (await repo.currentSend(tx, scope.workspace.id, id)) throw conflict(CAMPAIGN_MESSAGES.alreadySending);
    if (await experiments.testingExperiment(tx, scope.workspace.id, id))
      throw conflict(CAMPAIGN_MESSAGES.experimentTesting);
    const experimentId = experiment ? randomId(16) : null;
    if (experiment)
      await experiments.insertExperiment(tx, {
        workspaceId: scope.workspace.id,
        id: experimentId!,
        campaignId: id,
        campaignVersion: item.version,
        settings: experiment,
      });
    const sends: repo.SendRow[] = [];
    for (const [index, variant] of variants.entries()) {
      const inserted = await repo.insertSend(
        tx,
        {
          workspaceId: scope.workspace.id,
          id: randomId(16),
          campaignId: id,
          campaignVersion: item.version,
          experimentId,
          variant: experiment ? VARIANT_KEYS[index] : null,
          emailId: variant.email.id,
          emailVersion: variant.email.version,
          audienceId: resolved.audienceId!,
          senderId: variant.sender.id,
          provider: variant.provider,
          everyone: body?.everyone === true,
          state: 'queued',
          content: variant.content,
          sendAt,
          createdBy: scope.user.id,
          createdByName: scope.member.displayName,
        },
        variant.links,
      );
      await queueSendLanes(tx, inserted, sendAt);
      sends.push(inserted);
    }
    const [send] = sends;
    await journal(tx, {
      audit: [
        {
          workspaceId: scope.workspace.id,
          user: actorOf(scope),
          action: 'campaign.send',
          targetType: 'campaign',
          targetId: id,
          label: resolved.data.name ?? id,
          schema: 'campaign',
          detail: {
            sendId: send.id,
            version: item.version,
            sendAt: sendAt.toISOString(),
            everyone: send.everyone,
            ...(experimentId && { experimentId, sendIds: sends.map((each) => each.id) }),
          },
        },
      ],
    });
    return send;
  });
  const message = experiment ? CAMPAIGN_MESSAGES.experimentQueued(variants.length) : CAMPAIGN_MESSAGES.queued;
  return { message, send: presentSend(row) };
}

/** An email step of a journey: what it sends, as a campaign would send it. */
export interface JourneyEmail {
  email: string;
  sender: string;
  subject?: string;
}

/**
 * The campaign send of a journey's email step, frozen when the journey starts and written in the
 * caller's transaction: recipients are added to it as profiles reach the step (`addJourneyRecipients`),
 * and the campaign engine sends them, once each, with consent, suppression, List-Unsubscribe and
 * tracking as for a campaign. The first thing missing is thrown as a 400 prefixed with `label`.
 */
export async function prepareJourneySend(
  ctx: AppContext,
  access: WorkspaceAccess,
  journey: { id: string; version: number; label: string },
  step: JourneyEmail,
) {
  const scope = schemaIn(access, 'journey');
  const resolved = requireResolved(
    await resolveCampaign(
      ctx,
      scope,
      { data: { email: { id: step.email }, sender: step.sender, subject: step.subject ?? null } },
      { withAudience: false },
    ),
    (problem) => `${journey.label}: ${problem.replace("The campaign's", 'The')}`,
  );
  const { content, email, sender, provider, links } = resolved;
  await ensureRecordedEvents(ctx, scope.workspace.id);
  return async (tx: Tx) => {
    const send = await repo.insertSend(
      tx,
      {
        workspaceId: scope.workspace.id,
        id: randomId(16),
        campaignId: journey.id,
        campaignVersion: journey.version,
        journeyId: journey.id,
        emailId: email.id,
        emailVersion: email.version,
        audienceId: '',
        senderId: sender.id,
        provider,
        state: 'sending',
        content,
        sendAt: new Date(),
        snapshotAt: new Date(),
        startedAt: new Date(),
        createdBy: scope.user.id,
        createdByName: scope.member.displayName,
      },
      links,
    );
    return send.id;
  };
}

async function requireSend(ctx: AppContext, access: WorkspaceAccess, campaignId: string, sendId: string) {
  const row = await repo.findSend(ctx.db, access.workspace.id, sendId);
  if (!row || row.campaignId !== campaignId) throw notFound(CAMPAIGN_MESSAGES.sendNotFound);
  return row;
}

/** A send's state and counts; any member may read, like the campaign. */
export async function getSend(ctx: AppContext, access: WorkspaceAccess, campaignId: string, sendId: string) {
  campaignScope(access);
  return presentSend(await requireSend(ctx, access, campaignId, sendId));
}

export async function listSends(ctx: AppContext, access: WorkspaceAccess, campaignId: string) {
  const scope = campaignScope(access);
  await requireItem(ctx, scope, campaignId);
  const rows = await repo.listSends(ctx.db, access.workspace.id, campaignId);
  return { sends: rows.map(presentSend) };
}

/** Where each campaign of the workspace stands (the campaign list); any member may read. */
export async function campaignStatuses(ctx: AppContext, access: WorkspaceAccess): Promise<CampaignStatuses> {
  campaignScope(access);
  const summaries = await repo.sendSummaries(ctx.db, access.workspace.id);
  return {
    statuses: summaries.map((summary) => ({
      campaignId: summary.campaignId,
      status: summary.sending
        ? 'sending'
        : summary.decideAt
          ? 'testing'
          : summary.queuedAt
            ? 'scheduled'
            : summary.done > 0
              ? 'sent'
              : 'draft',
      sendAt: summary.queuedAt?.toISOString() ?? null,
      decideAt: summary.decideAt?.toISOString() ?? null,
      recipients: summary.recipients,
      sent: summary.sent,
      unconfirmed: summary.unconfirmed,
      sends: summary.done,
    })),
  };
}

/**
 * Runs `change` on a send of the campaign, locked in a transaction, for a member who may send it
 * (403 otherwise, 404 for a send that is not the campaign's), and journals its audit row.
 */
async function changeLockedSend<T>(
  ctx: AppContext,
  access: WorkspaceAccess,
  campaignId: string,
  sendId: string,
  change: (tx: Tx, send: repo.SendRow) => Promise<{ result: T; action: AuditAction; detail?: object }>,
): Promise<T> {
  const scope = campaignScope(access);
  if (!canSend(scope)) throw forbidden('You do not have permission to send Campaigns');
  await requireSend(ctx, access, campaignId, sendId);
  return ctx.db.transaction(async (tx) => {
    const send = await repo.lockSend(tx, access.workspace.id, sendId);
    if (!send) throw notFound(CAMPAIGN_MESSAGES.sendNotFound);
    const { result, action, detail } = await change(tx, send);
    await journal(tx, {
      audit: [
        {
          workspaceId: send.workspaceId,
          user: actorOf(scope),
          action,
          targetType: 'campaign',
          targetId: campaignId,
          label: send.content.subject,
          schema: 'campaign',
          detail: { sendId, ...detail },
        },
      ],
    });
    return result;
  });
}

type SendAction = 'pause' | 'resume' | 'cancel';

/** Pause, resume or cancel a send (publish rights on campaign); 409 when its state does not allow it. */
export async function changeSend(
  ctx: AppContext,
  access: WorkspaceAccess,
  campaignId: string,
  sendId: string,
  action: SendAction,
) {
  const row = await changeLockedSend(ctx, access, campaignId, sendId, async (tx, send) => {
    let changed: repo.SendRow | undefined;
    if (action === 'pause') {
      if (send.state !== 'queued' && send.state !== 'sending') {
        throw conflict(CAMPAIGN_MESSAGES.cannotPause(send.state));
      }
      changed = await repo.setState(tx, send.workspaceId, send.id, 'paused');
    } else if (action === 'resume') {
      if (send.state !== 'paused') throw conflict(CAMPAIGN_MESSAGES.cannotResume(send.state));
      // A send paused before its time, or before its snapshot was taken, waits for them again.
      const state = send.startedAt || send.snapshotAt ? 'sending' : 'queued';
      await repo.setState(tx, send.workspaceId, send.id, state, { error: null });
      await repo.dropLeases(tx, send.workspaceId, send.id);
      await queueSendLanes(tx, send, state === 'queued' ? send.sendAt : undefined);
      await repo.finishIfDone(tx, send.workspaceId, send.id);
      changed = await repo.findSend(tx, send.workspaceId, send.id);
    } else {
      if (send.state === 'done' || send.state === 'cancelled') {
        throw conflict(CAMPAIGN_MESSAGES.cannotCancel(send.state));
      }
      changed = await repo.setState(tx, send.workspaceId, send.id, 'cancelled', { finishedAt: new Date() });
      // A test send cancelled ends its A/B test: the other variants stop, and no winner is picked.
      if (send.experimentId) await experiments.cancelExperiment(tx, send.workspaceId, send.experimentId);
    }
    return { result: changed!, action: `campaign.${action}` as const };
  });
  return presentSend(row);
}

/**
 * `POST …/sends/{sendId}/resend-unconfirmed` (publish rights on campaign): a done send's unconfirmed
 * recipients are sent again, at the risk that some get it twice; 409 when the send is not done, has
 * none, or another send of the campaign is under way.
 */
export async function resendUnconfirmed(
  ctx: AppContext,
  access: WorkspaceAccess,
  campaignId: string,
  sendId: string,
) {
  const row = await changeLockedSend(ctx, access, campaignId, sendId, async (tx, send) => {
    if (send.state !== 'done') throw conflict(CAMPAIGN_MESSAGES.cannotResend(send.state));
    if (await repo.currentSend(tx, send.workspaceId, campaignId)) {
      throw conflict(CAMPAIGN_MESSAGES.alreadySending);
    }
    const count = await repo.reopenUnconfirmed(tx, send.workspaceId, send.id);
    if (!count) throw conflict(CAMPAIGN_MESSAGES.nothingUnconfirmed);
    await queueSendLanes(tx, send);
    const resent = (await repo.findSend(tx, send.workspaceId, send.id))!;
    return {
      result: { count, send: resent },
      action: 'campaign.resend-unconfirmed',
      detail: { recipients: count },
    };
  });
  return { message: CAMPAIGN_MESSAGES.resending(row.count), send: presentSend(row.send) };
}

/** The workspace's text attributes, which campaigns may read addresses from. */
async function addressAttributes(ctx: AppContext, workspaceId: string) {
  return (await listDefinitions(ctx.db, workspaceId))
    .filter((row) => row.schema === 'customer-profile-attribute' && row.data.attributeType === 'string')
    .map((row) => ({ key: String(row.data.key), label: String(row.data.name ?? row.data.key) }))
    .sort((a, b) => a.key.localeCompare(b.key));
}

/** Who a send would reach now and what stands in its way; any member may read. */
export async function readiness(
  ctx: AppContext,
  access: WorkspaceAccess,
  id: string,
): Promise<CampaignReadiness> {
  const scope = campaignScope(access);
  const item = await requireItem(ctx, scope, id);
  const resolved = await resolveCampaign(ctx, scope, item);
  const rules = await senders.findRecipientSettings(ctx.db, access.workspace.id);
  const reach = resolved.compiled
    ? await repo.reachNow(ctx.db, access.workspace.id, id, resolved.compiled, rules)
    : {
        audience: 0,
        recipients: 0,
        alreadyReceived: 0,
        suppressed: 0,
        unsubscribed: 0,
        withoutEmail: 0,
        unknownConsent: 0,
      };
  const approved = approvalOf(scope, item);
  const problems = [...(approved ? [] : [CAMPAIGN_MESSAGES.needsApproval]), ...resolved.problems];
  const size = htmlSize(resolved.content?.html ?? '');
  const warnings = [
    ...(resolved.sender && !resolved.senderVerified ? [CAMPAIGN_MESSAGES.likelySpam] : []),
    ...(size.clipped ? [EMAIL_MESSAGES.clipped(size.htmlBytes)] : []),
  ];
  const current = await repo.currentSend(ctx.db, access.workspace.id, id);
  return {
    audienceSize: reach.audience,
    recipients: reach.recipients,
    alreadyReceived: reach.alreadyReceived,
    suppressed: reach.suppressed,
    unsubscribed: reach.unsubscribed,
    withoutEmail: reach.withoutEmail,
    unknownConsent: reach.unknownConsent,
    emailAttribute: rules.emailAttribute,
    mailUnknownConsent: rules.mailUnknownConsent,
    addressAttributes: await addressAttributes(ctx, access.workspace.id),
    canChangeRecipients: access.permissions.canManageWorkspace,
    approved,
    canSend: canSend(scope),
    problems,
    warnings,
    senderVerified: resolved.senderVerified,
    ...size,
    current: current ? presentSend(current) : null,
  };
}

/**
 * The message as a profile (members who may read customer data) or nobody (merge tags' defaults)
 * would get it.
 */
export async function preview(
  ctx: AppContext,
  access: WorkspaceAccess,
  id: string,
  profileId: string | undefined,
): Promise<CampaignPreview> {
  if (profileId) requireCustomerData(access, 'read');
  const scope = campaignScope(access);
  const item = await requireItem(ctx, scope, id);
  const resolved = await resolveCampaign(ctx, scope, item, { preview: true });
  if (!resolved.content) throw badRequest(resolved.problems[0] ?? CAMPAIGN_MESSAGES.noEmail);
  const profile = profileId ? await findProfile(ctx.db, access.workspace.id, profileId) : undefined;
  if (profileId && !profile) throw notFound(`profileId: Profile "${profileId}" not found`);
  const { emailAttribute } = await senders.findRecipientSettings(ctx.db, access.workspace.id);
  const message = personalise(
    resolved.content,
    { workspaceId: access.workspace.id, id: 'preview' },
    { n: 1, email: String(profile?.attributes[emailAttribute] ?? ''), attributes: profile?.attributes ?? {} },
    {
      publicUrl: ctx.config.publicUrl,
      secret: ctx.config.secret,
      unsubscribeMailto: resolved.content.fromAddress,
    },
  );
  return {
    profileId: profile?.id ?? null,
    subject: message.subject,
    html: message.html,
    text: message.text,
    ...htmlSize(message.html),
  };
}

/** The campaign's message, filled as a profile, to test addresses (edit rights on campaign). */
export async function sendCampaignTest(
  ctx: AppContext,
  access: WorkspaceAccess,
  id: string,
  body: CampaignTestSendBody,
) {
  const scope = campaignScope(access);
  requireRight(scope, 'edit');
  const item = await requireItem(ctx, scope, id);
  const resolved = await resolveCampaign(ctx, scope, item, { preview: true });
  if (!resolved.content) throw badRequest(resolved.problems[0] ?? CAMPAIGN_MESSAGES.noEmail);
  const emailData = (resolved.email?.data ?? {}) as { testAddresses?: string };
  const recipients = body.recipients ?? splitEmailList(emailData.testAddresses ?? '');
  const addresses = Recipients.safeParse(recipients);
  if (!addresses.success) throw badRequest(`recipients: ${addresses.error.issues[0].message}`);
  const shown = await preview(ctx, access, id, body.profileId);
  const { content, email } = resolved;
  return sendTestMessage(
    ctx,
    scope,
    body.provider ?? resolved.provider,
    {
      to: addresses.data,
      subject: shown.subject,
      text: shown.text,
      html: shown.html,
      from: { name: content.fromName, address: content.fromAddress },
      replyTo: content.replyTo,
    },
    id,
    email ? { id: email.id, title: itemLabel(email.data) } : null,
  );
}

/** Delivered, opened, clicked, bounced and unsubscribed, over time and per link; any member may read. */
export async function results(ctx: AppContext, access: WorkspaceAccess, campaignId: string, sendId: string) {
  campaignScope(access);
  const send = await requireSend(ctx, access, campaignId, sendId);
  const found = await repo.engagementOf(ctx.db, access.workspace.id, sendId);
  const delivered = send.sent;
  const rate = (count: number) => (delivered ? count / delivered : 0);
  return {
    sendId,
    counts: {
      recipients: send.recipients,
      delivered,
      failed: send.failed,
      ...found.counts,
    },
    rates: {
      opened: rate(found.counts.opened),
      clicked: rate(found.counts.clicked),
      bounced: rate(found.counts.bounced),
      unsubscribed: rate(found.counts.unsubscribed),
    },
    timeline: found.timeline,
    links: found.links,
    experiment: send.experimentId
      ? await experimentResults(ctx.db, access.workspace.id, send.experimentId)
      : null,
  };
}

/** Recipients read per statement of a send's results CSV. */
const RESULTS_CSV_PAGE = 5000;

const RESULTS_CSV_COLUMNS = [
  'email',
  'profileId',
  'status',
  'sentAt',
  'error',
  'openedAt',
  'clickedAt',
  'clicks',
  'bouncedAt',
  'complainedAt',
  'unsubscribedAt',
] as const;

/**
 * A send's results per recipient as CSV, in the send's order: the address and profile, what became of
 * the message (sent, failed, unconfirmed, pending) and when, and when they first opened, clicked,
 * bounced, complained and unsubscribed, with their clicks. Produced page by page, so no answer is held
 * whole. The addresses are personal data: the export right over customer data, asked first.
 */
export async function sendResultsCsv(
  ctx: AppContext,
  access: WorkspaceAccess,
  campaignId: string,
  sendId: string,
) {
  requireCustomerData(access, 'export');
  campaignScope(access);
  await requireSend(ctx, access, campaignId, sendId);
  const iso = (at: Date | null) => at?.toISOString();
  return (async function* () {
    yield csvRow(RESULTS_CSV_COLUMNS);
    for (let after = 0; ;) {
      const page = await repo.recipientResults(ctx.db, access.workspace.id, sendId, RESULTS_CSV_PAGE, after);
      yield page
        .map((r) =>
          csvRow([
            r.email,
            r.profileId,
            r.status,
            iso(r.sentAt),
            r.error,
            iso(r.openedAt),
            iso(r.clickedAt),
            r.clicks,
            iso(r.bouncedAt),
            iso(r.complainedAt),
            iso(r.unsubscribedAt),
          ]),
        )
        .join('');
      if (page.length < RESULTS_CSV_PAGE) return;
      after = page[page.length - 1].n;
    }
  })();
}

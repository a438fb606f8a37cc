import { convert as htmlToText } from 'html-to-text';
import {
  EMAIL_MESSAGES,
  SENDGRID_SETTING,
  Recipients,
  type EmailPreviewAnswer,
  type TestSendBody,
  type TestSendProvider,
  type TestSendRecord,
} from '@shared/api/email';
import { emailDocument, htmlSize } from '@shared/email/email-document';
import { fillMergeTags, type MergeAttributes } from '@shared/email/merge-tags';
import { StorageName, type ImageVariant } from '@shared/media/contract';
import { splitEmailList } from '@shared/schemas/marketing';
import type { AppContext } from '../context';
import { FILE_NOT_FOUND } from '../files/service';
import { badRequest, notConfigured, notFound, providerFailed, rateLimited } from '../http/errors';
import { findProfile } from '../customers/repository';
import { requireRight, schemaIn, type SchemaScope } from '../items/scope';
import { actorOf, itemLabel, journal } from '../journal/journal';
import { requireItem } from '../items/service';
import { dkimOptionsFor } from '../senders/service';
import { originalOf, thumbnailOf } from '../media/resize';
import { imageChecksOf } from '../media/image-checks';
import { createSendGrid, parseFrom } from '../providers/sendgrid';
import { requireCustomerData, type WorkspaceAccess } from '../workspaces/access';
import { isSignedImageLink, signOwnImages, type ImageLink } from '../media/image-links';
import * as repo from './repository';
import { absoluteImageUrls, sanitizeMessageHtml } from './sanitize';

export interface OutgoingMessage {
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** The sender a campaign's test shows, as its real send would; MAIL_FROM when absent. */
  from?: { name: string; address: string };
  replyTo?: string | null;
}

/** The email template a test send sent, named by its audit row. */
export interface SentTemplate {
  id: string;
  title: string | null;
}

/**
 * The message as sent: the HTML sanitised (whatever the caller sent) with the workspace's own images
 * as signed links under PUBLIC_URL that a recipient can load (other relative URLs made absolute there
 * too), then merge tags filled from the attributes (or their defaults), as a campaign fills them; made
 * a responsive document with the preheader as its hidden preview text, and a text part (the given
 * text, or text derived from the HTML).
 */
function composeMessage(
  ctx: AppContext,
  workspaceId: string,
  content: { recipients: string[]; subject: string; text: string; html: string; preheader?: string },
  attributes: MergeAttributes = {},
): OutgoingMessage {
  const { publicUrl, secret } = ctx.config;
  const body = content.html.trim()
    ? fillMergeTags(
        absoluteImageUrls(
          signOwnImages(sanitizeMessageHtml(content.html), { publicUrl, secret, workspaceId }),
          publicUrl,
        ),
        attributes,
        { html: true },
      )
    : '';
  const text = content.text.trim()
    ? fillMergeTags(content.text, attributes)
    : htmlToText(body, { wordwrap: 100, selectors: [{ selector: 'img', format: 'skip' }] });
  return {
    to: content.recipients,
    subject: fillMergeTags(content.subject, attributes)
      .replace(/[\r\n]+/g, ' ')
      .trim(),
    text,
    html: body ? emailDocument(body, { preheader: fillMergeTags(content.preheader ?? '', attributes) }) : '',
  };
}

const sendGridNotConfigured = () =>
  notConfigured(EMAIL_MESSAGES.notConfigured, { setting: SENDGRID_SETTING });

/** 'Service not configured' before anything is recorded or counted. */
function requireConfigured(ctx: AppContext, provider: TestSendProvider) {
  if (provider === 'sendgrid' && !ctx.config.sendgridApiKey) throw sendGridNotConfigured();
}

/** Hands the message to the provider; throws with the provider's own words when it refuses. */
async function deliver(
  ctx: AppContext,
  provider: TestSendProvider,
  message: OutgoingMessage,
  workspaceId: string,
) {
  if (provider === 'smtp') {
    // Signed with the workspace's DKIM key when MAIL_FROM's domain is one it has verified.
    const dkim = await dkimOptionsFor(ctx, workspaceId, message.from?.address ?? ctx.config.mailFrom);
    // SMTP_URL when set, else the outbox in DATA_DIR/outbox.
    try {
      await ctx.mailer.send({
        to: message.to.join(', '),
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
        ...(dkim ? { dkim } : {}),
        ...(message.from ? { from: message.from } : {}),
        ...(message.replyTo ? { replyTo: message.replyTo } : {}),
      });
    } catch (err) {
      throw new Error(`The mail server refused the message: ${(err as Error).message}`, { cause: err });
    }
    return;
  }
  const apiKey = ctx.config.sendgridApiKey;
  if (!apiKey) throw sendGridNotConfigured();
  await createSendGrid({ apiKey, baseUrl: ctx.config.sendgridUrl }).send({
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    from: message.from
      ? { email: message.from.address, name: message.from.name }
      : parseFrom(ctx.config.mailFrom),
  });
}

function presentTestSend(row: repo.TestSendRow): TestSendRecord {
  return {
    id: row.id,
    itemId: row.itemId,
    provider: row.provider,
    recipients: row.recipients,
    subject: row.subject,
    at: row.at.toISOString(),
    by: row.by,
    byName: row.byName,
    status: row.status as TestSendRecord['status'],
    error: row.error,
  };
}

/** Members who may edit email templates may send tests (the scope of the `email` schema). */
function emailScope(access: WorkspaceAccess): SchemaScope {
  const scope = schemaIn(access, 'email');
  requireRight(scope, 'edit');
  return scope;
}

/**
 * One test send: rights, the provider's configuration, the workspace's hourly limit (429), a record
 * of the attempt, the hand-over to the provider, and the record's result. 502 with the provider's
 * error when it refuses.
 */
export async function testSend(
  ctx: AppContext,
  scope: SchemaScope,
  provider: TestSendProvider,
  message: OutgoingMessage,
  itemId: string | null,
  template: SentTemplate | null = null,
) {
  requireConfigured(ctx, provider);
  const started = await repo.startTestSend(
    ctx.db,
    {
      workspaceId: scope.workspace.id,
      itemId,
      provider,
      recipients: message.to,
      subject: message.subject,
      by: scope.user.id,
      byName: scope.member.displayName,
    },
    ctx.config.testSendsPerHour,
  );
  if (!started) {
    throw rateLimited(EMAIL_MESSAGES.rateLimited(ctx.config.testSendsPerHour));
  }
  try {
    await deliver(ctx, provider, message, scope.workspace.id);
  } catch (err) {
    const error = (err as Error).message;
    ctx.log.warn({ provider, workspaceId: scope.workspace.id, error }, 'test send failed');
    await finishTestSend(ctx, scope, started, template, { status: 'failed', error });
    throw providerFailed(error);
  }
  const row = await finishTestSend(ctx, scope, started, template, { status: 'sent' });
  return {
    message: EMAIL_MESSAGES.sentTo(message.to),
    testSend: presentTestSend(row),
    ...htmlSize(message.html),
  };
}

/** Records how a test send ended, journaled (the template's title labels the audit row, else the subject). */
function finishTestSend(
  ctx: AppContext,
  scope: SchemaScope,
  started: repo.TestSendRow,
  template: SentTemplate | null,
  result: { status: 'sent' | 'failed'; error?: string },
) {
  return ctx.db.transaction(async (tx) => {
    const row = await repo.finishTestSend(tx, { workspaceId: started.workspaceId, id: started.id }, result);
    await journal(tx, {
      audit: [
        {
          workspaceId: started.workspaceId,
          user: actorOf(scope),
          action: result.status === 'sent' ? 'test-send.sent' : 'test-send.failed',
          targetType: 'test-send',
          targetId: String(started.id),
          label: template ? (template.title ?? template.id) : started.subject,
          schema: started.itemId ? scope.schema.name : null,
          detail: {
            provider: started.provider,
            recipients: started.recipients,
            itemId: started.itemId,
            subject: started.subject,
            ...(template ? { emailTemplate: template } : {}),
            ...(result.error ? { error: result.error } : {}),
          },
        },
      ],
    });
    return row;
  });
}

/** The merge tags' values: a stored customer profile's attributes when one is named, then those given. */
async function mergeAttributesOf(
  ctx: AppContext,
  access: WorkspaceAccess,
  options: { attributes?: MergeAttributes; profileId?: string },
): Promise<MergeAttributes> {
  if (!options.profileId) return options.attributes ?? {};
  // A message filled as a profile shows its attributes.
  requireCustomerData(access, 'read');
  const profile = await findProfile(ctx.db, access.workspace.id, options.profileId);
  if (!profile) throw notFound(`profileId: Profile "${options.profileId}" not found`);
  return { ...profile.attributes, ...options.attributes };
}

/** Spec §7 `POST /testSend/{provider}`: the given content, to the given recipients. */
export async function sendTest(
  ctx: AppContext,
  access: WorkspaceAccess,
  provider: TestSendProvider,
  body: TestSendBody,
) {
  const scope = emailScope(access);
  const attributes = await mergeAttributesOf(ctx, access, body);
  const message = composeMessage(ctx, access.workspace.id, body, attributes);
  return testSend(ctx, scope, provider, message, null);
}

interface StoredEmail {
  subject?: string;
  preheader?: string;
  textBody?: string;
  testAddresses?: string;
  template?: { combinedMarkup?: string };
}

/** An email item's stored content as a message to the given recipients. */
function itemMessage(
  ctx: AppContext,
  workspaceId: string,
  data: StoredEmail,
  recipients: string[],
  attributes: MergeAttributes,
) {
  return composeMessage(
    ctx,
    workspaceId,
    {
      recipients,
      subject: data.subject ?? '',
      preheader: data.preheader ?? '',
      text: data.textBody ?? '',
      html: data.template?.combinedMarkup ?? '',
    },
    attributes,
  );
}

/** An email item's stored content (sanitised on save), to its test addresses unless others are given. */
export async function sendItemTest(
  ctx: AppContext,
  access: WorkspaceAccess,
  id: string,
  options: {
    provider: TestSendProvider;
    recipients?: string[];
    attributes?: MergeAttributes;
    profileId?: string;
  },
) {
  const scope = emailScope(access);
  const item = await requireItem(ctx, scope, id);
  const data = item.data as StoredEmail;
  const addresses = Recipients.safeParse(options.recipients ?? splitEmailList(data.testAddresses ?? ''));
  if (!addresses.success) throw badRequest(`testAddresses: ${addresses.error.issues[0].message}`);
  const attributes = await mergeAttributesOf(ctx, access, options);
  const message = itemMessage(ctx, access.workspace.id, data, addresses.data, attributes);
  if (!message.subject) throw badRequest('subject: Subject is required');
  return testSend(ctx, scope, options.provider, message, id, { id, title: itemLabel(item.data) });
}

/**
 * The saved email as a test send would send it (merge tags filled from the profile, else their
 * defaults), with the HTML's size in bytes and whether Gmail clips it; any member may read it, like
 * the item.
 */
export async function previewItem(
  ctx: AppContext,
  access: WorkspaceAccess,
  id: string,
  options: { profileId?: string },
): Promise<EmailPreviewAnswer> {
  const scope = schemaIn(access, 'email');
  const item = await requireItem(ctx, scope, id);
  const data = item.data as StoredEmail;
  const attributes = await mergeAttributesOf(ctx, access, options);
  const message = itemMessage(ctx, access.workspace.id, data, [], attributes);
  return {
    subject: message.subject,
    preheader: fillMergeTags(data.preheader ?? '', attributes).trim(),
    html: message.html,
    text: message.text,
    ...htmlSize(message.html),
  };
}

/** The recent test sends of an email item; any member may read them, like the item. */
export async function listItemTestSends(ctx: AppContext, access: WorkspaceAccess, id: string) {
  const scope = schemaIn(access, 'email');
  await requireItem(ctx, scope, id);
  const rows = await repo.listTestSends(ctx.db, access.workspace.id, id);
  return { testSends: rows.map(presentTestSend) };
}

/** The merge tags an email may use: the keys of the workspace's customer profile attributes. */
export async function listMergeTags(ctx: AppContext, access: WorkspaceAccess) {
  schemaIn(access, 'email');
  const rows = await repo.listAttributeKeys(ctx.db, access.workspace.id);
  return {
    mergeTags: rows
      .filter((row): row is { key: string; name: string | null } => !!row.key)
      .map((row) => ({ key: row.key, label: row.name || row.key })),
  };
}

/**
 * `/fun/emailImage/`: an image of a sent email or of delivered content, for anyone holding the signed
 * link (a recipient or a website is not a member). A link that is not signed for exactly this
 * workspace and file (and item), is not found, and so is one whose file is gone or, for delivered
 * content, whose item is no longer published in that stage. Asking for no variant answers the file as
 * uploaded; otherwise the variant asked for, made once.
 */
export async function emailImage(
  ctx: AppContext,
  link: ImageLink & { sig: string },
  variant: ImageVariant & { accept?: string },
) {
  const { sig, ...target } = link;
  if (
    !StorageName.safeParse(target.storageName).success ||
    !isSignedImageLink(ctx.config.secret, target, variant, sig) ||
    !(await imageChecksOf(ctx.db).isServable(ctx.db, target.workspaceId, target.storageName, target.item))
  )
    throw notFound(FILE_NOT_FOUND);
  const { accept, ...asked } = variant;
  if (Object.values(asked).every((value) => value === undefined))
    return originalOf(ctx, target.workspaceId, target.storageName);
  // The thumbnail cache is keyed inside the workspace; the signature stands in for the membership.
  const access = { workspace: { id: target.workspaceId } } as WorkspaceAccess;
  return thumbnailOf(ctx, access, { storageName: target.storageName, ...asked, accept });
}

import crypto from 'node:crypto';
import { promisify } from 'node:util';
import {
  DKIM_SELECTOR_PREFIX,
  SENDER_MESSAGES,
  domainOf,
  type PatchSenderBody,
  type PostalAddressBody,
  type RecipientSettingsBody,
  SENDING_MESSAGES,
  type Sender,
  type SenderBody,
  type SendingDomain,
} from '@shared/api/senders';
import type { AppContext } from '../context';
import type { Tx } from '../db/client';
import { badRequest, notFound } from '../http/errors';
import { actorOf, journal } from '../journal/journal';
import { randomId } from '../lib/ids';
import { seal, unseal } from '../lib/sealing';
import { requireManager, type WorkspaceAccess } from '../workspaces/access';
import { checkDomain, recordsFor } from './dns-check';
import * as repo from './repository';

const generateKeyPair = promisify(crypto.generateKeyPair);

/** What a sending domain's private DKIM key is sealed for: that workspace and that domain only. */
const dkimKeyPurpose = (workspaceId: string, domain: string) => `dkim-key:${workspaceId}:${domain}`;

const toSender = (row: repo.SenderRow): Sender => ({
  id: row.id,
  fromName: row.fromName,
  fromAddress: row.fromAddress,
  replyTo: row.replyTo,
  domain: row.domain,
  createdAt: row.createdAt.toISOString(),
});

const toDomain = (ctx: AppContext, row: repo.SendingDomainRow): SendingDomain => ({
  domain: row.domain,
  selector: row.selector,
  verified: row.verifiedAt !== null,
  verifiedAt: row.verifiedAt?.toISOString() ?? null,
  checkedAt: row.checkedAt?.toISOString() ?? null,
  problems: row.problems,
  records: recordsFor(row, ctx.config.spfInclude),
});

/** Settings › Sending: the senders, their domains with the records to publish, and the postal address. */
export async function listSending(ctx: AppContext, access: WorkspaceAccess) {
  const workspaceId = access.workspace.id;
  const senders = await repo.listSenders(ctx.db, workspaceId);
  const domains = await repo.listDomains(ctx.db, workspaceId, [...new Set(senders.map((s) => s.domain))]);
  return {
    senders: senders.map(toSender),
    domains: domains.map((row) => toDomain(ctx, row)),
    postalAddress: await repo.findPostalAddress(ctx.db, workspaceId),
    recipients: await repo.findRecipientSettings(ctx.db, workspaceId),
    canManage: access.permissions.canManageWorkspace,
  };
}

/**
 * A key pair for a domain the workspace does not send from yet (RSA 2048, the size mail providers
 * expect): generated before the transaction, as it takes a moment of CPU.
 */
async function newDomainKey(ctx: AppContext, workspaceId: string, domain: string) {
  if (await repo.findDomain(ctx.db, workspaceId, domain)) return undefined;
  const { publicKey, privateKey } = await generateKeyPair('rsa', { modulusLength: 2048 });
  return {
    workspaceId,
    domain,
    selector: `${DKIM_SELECTOR_PREFIX}${randomId(10).toLowerCase()}`,
    publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
    privateKey: seal(
      ctx.config.secret,
      dkimKeyPurpose(workspaceId, domain),
      privateKey.export({ type: 'pkcs8', format: 'pem' }),
    ),
  };
}

async function ensureDomain(tx: Tx, key: Awaited<ReturnType<typeof newDomainKey>>) {
  if (key) await repo.ensureDomain(tx, key);
}

export async function createSender(ctx: AppContext, access: WorkspaceAccess, body: SenderBody) {
  requireManager(access);
  const workspaceId = access.workspace.id;
  const domain = domainOf(body.fromAddress);
  const key = await newDomainKey(ctx, workspaceId, domain);
  const id = randomId(16);
  const row = await ctx.db.transaction(async (tx) => {
    await ensureDomain(tx, key);
    const inserted = await repo.insertSender(tx, {
      workspaceId,
      id,
      fromName: body.fromName,
      fromAddress: body.fromAddress,
      replyTo: body.replyTo ?? null,
      domain,
      createdBy: access.user.id,
    });
    await journal(tx, {
      audit: [
        {
          workspaceId,
          user: actorOf(access),
          action: 'sender.created',
          targetType: 'sender',
          targetId: id,
          label: body.fromAddress,
          detail: { fromName: body.fromName, fromAddress: body.fromAddress, replyTo: body.replyTo ?? null },
        },
      ],
    });
    return inserted;
  });
  return toSender(row);
}

export async function updateSender(
  ctx: AppContext,
  access: WorkspaceAccess,
  id: string,
  body: PatchSenderBody,
) {
  requireManager(access);
  const workspaceId = access.workspace.id;
  const domain = body.fromAddress === undefined ? undefined : domainOf(body.fromAddress);
  const key = domain ? await newDomainKey(ctx, workspaceId, domain) : undefined;
  const patch = {
    ...(body.fromName !== undefined ? { fromName: body.fromName } : {}),
    ...(body.fromAddress !== undefined ? { fromAddress: body.fromAddress, domain } : {}),
    ...(body.replyTo !== undefined ? { replyTo: body.replyTo } : {}),
  };
  const row = await ctx.db.transaction(async (tx) => {
    await ensureDomain(tx, key);
    const updated = await repo.updateSender(tx, workspaceId, id, patch);
    if (!updated) throw notFound(SENDER_MESSAGES.notFound);
    await journal(tx, {
      audit: [
        {
          workspaceId,
          user: actorOf(access),
          action: 'sender.updated',
          targetType: 'sender',
          targetId: id,
          label: updated.fromAddress,
          detail: patch,
        },
      ],
    });
    return updated;
  });
  return toSender(row);
}

export async function deleteSender(ctx: AppContext, access: WorkspaceAccess, id: string) {
  requireManager(access);
  await ctx.db.transaction(async (tx) => {
    const row = await repo.deleteSender(tx, access.workspace.id, id);
    if (!row) throw notFound(SENDER_MESSAGES.notFound);
    await journal(tx, {
      audit: [
        {
          workspaceId: access.workspace.id,
          user: actorOf(access),
          action: 'sender.deleted',
          targetType: 'sender',
          targetId: id,
          label: row.fromAddress,
          detail: { fromName: row.fromName, fromAddress: row.fromAddress },
        },
      ],
    });
  });
  return { id, deleted: true as const };
}

/**
 * Looks the sender's domain up in DNS and records the outcome: verified when its SPF and DKIM records
 * are as shown, otherwise the problems found (also when it was verified before and no longer is).
 */
export async function verifySender(ctx: AppContext, access: WorkspaceAccess, id: string) {
  requireManager(access);
  const workspaceId = access.workspace.id;
  const sender = await repo.findSender(ctx.db, workspaceId, id);
  if (!sender) throw notFound(SENDER_MESSAGES.notFound);
  const domain = await repo.findDomain(ctx.db, workspaceId, sender.domain);
  if (!domain) throw notFound(SENDER_MESSAGES.notFound);
  const problems = await checkDomain(domain, {
    servers: ctx.config.dnsServers,
    spfInclude: ctx.config.spfInclude,
  });
  const row = await ctx.db.transaction(async (tx) => {
    const checked = await repo.recordCheck(tx, workspaceId, domain.domain, {
      problems,
      checkedAt: new Date(),
    });
    await journal(tx, {
      audit: [
        {
          workspaceId,
          user: actorOf(access),
          action: 'sending-domain.checked',
          targetType: 'sending-domain',
          targetId: domain.domain,
          label: domain.domain,
          detail: { verified: problems.length === 0, problems },
        },
      ],
    });
    return checked;
  });
  return toDomain(ctx, row);
}

export async function savePostalAddress(ctx: AppContext, access: WorkspaceAccess, body: PostalAddressBody) {
  requireManager(access);
  const workspaceId = access.workspace.id;
  const postalAddress = body.postalAddress.trim();
  await ctx.db.transaction(async (tx) => {
    await repo.savePostalAddress(tx, { workspaceId, postalAddress, updatedBy: access.user.id });
    await journal(tx, {
      audit: [
        {
          workspaceId,
          user: actorOf(access),
          action: 'postal-address.updated',
          targetType: 'workspace',
          targetId: workspaceId,
          label: access.workspace.name,
          detail: { postalAddress },
        },
      ],
    });
  });
  return { postalAddress };
}

/**
 * Who campaigns go to (managers): the attribute addresses are read from, which must be one of the
 * workspace's customer profile attributes (400 otherwise), and whether unknown consent is mailed.
 */
export async function saveRecipientSettings(
  ctx: AppContext,
  access: WorkspaceAccess,
  body: RecipientSettingsBody,
) {
  requireManager(access);
  const workspaceId = access.workspace.id;
  const next = { ...(await repo.findRecipientSettings(ctx.db, workspaceId)), ...body };
  if (
    body.emailAttribute !== undefined &&
    !(await repo.isAttributeKey(ctx.db, workspaceId, body.emailAttribute))
  ) {
    throw badRequest(SENDING_MESSAGES.unknownAttribute(body.emailAttribute));
  }
  await ctx.db.transaction(async (tx) => {
    await repo.saveRecipientSettings(tx, { workspaceId, ...next, updatedBy: access.user.id });
    await journal(tx, {
      audit: [
        {
          workspaceId,
          user: actorOf(access),
          action: 'recipient-settings.updated',
          targetType: 'workspace',
          targetId: workspaceId,
          label: access.workspace.name,
          detail: next,
        },
      ],
    });
  });
  return next;
}

/** nodemailer's `dkim` option: how a message from one of the workspace's domains is signed. */
export interface DkimOptions {
  domainName: string;
  keySelector: string;
  privateKey: string;
}

/**
 * The DKIM signing options for mail from `fromAddress` (`a@b` or `Name <a@b>`): the workspace's key for
 * that domain once the domain is verified; undefined for any other domain, an unverified one, or a key
 * that does not open under this MARQUEE_SECRET.
 */
export async function dkimOptionsFor(
  ctx: Pick<AppContext, 'db' | 'config'>,
  workspaceId: string,
  fromAddress: string,
): Promise<DkimOptions | undefined> {
  const domainName = domainOf(fromAddress);
  const row = await repo.findDomain(ctx.db, workspaceId, domainName);
  if (!row?.verifiedAt) return undefined;
  const privateKey = unseal<string>(
    ctx.config.secret,
    dkimKeyPurpose(workspaceId, domainName),
    row.privateKey,
  );
  return privateKey ? { domainName, keySelector: row.selector, privateKey } : undefined;
}

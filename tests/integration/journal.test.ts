import { startOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { desc, gt } from 'drizzle-orm';
import type { LightMyRequestResponse, RouteOptions } from 'fastify';
import postgres from 'postgres';
import { auditLog } from '@server/db/schema';
import { announceChanges, subscribeToChanges, type Change } from '@server/journal/changes';
import { createTestApp, startSecondServer, type SecondServer, type TestApp } from '../helpers/test-app';
import { IDP_CERT, IDP_ENTITY_ID, IDP_ENTRY_POINT } from '../fixtures/saml-idp';
import { testDatabaseKind } from '../helpers/database';
import { makeImage } from '../fixtures/images';
import { uploadImage } from '../fixtures/media';
import { newUserInput, verifiedUser, type TestUser } from '../factories/users';
import { createWorkspace, patchWorkspace } from '../factories/workspaces';
import { blogPostData, call, createItem, itemUrl, role } from '../factories/items';
import { defineCustomerData, importBody, wsUrl } from '../factories/customers';
import { FakeDns } from '../fixtures/dns-server';
import { seedSend, type SeededSend } from '../factories/campaign-sends';

/**
 * Every write route journals: a valid request to it leaves an audit row with its action and, on
 * PostgreSQL, a change notice that a second server (its own connection to the same database) hears.
 * The routes come from the app itself (onRoute), so a new write route fails here until it has an entry.
 */

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Routes keyed as `METHOD url`, whatever the workspace parameter is called. */
const keyOf = (method: string, url: string) =>
  `${method} ${url.replace(/\/workspaces\/:[A-Za-z]+/, '/workspaces/:ws')}`;

let t: TestApp;
let manager: TestUser;
let ws: string;
let postId: string;
let emailId: string;
let webhookId: string;
let senderId: string;
const dns = new FakeDns();
let keyId: string;
let previewTokenId: string;
let writeKeyId: string;
let suppressionId: string;
let modelChangeId: string;
let writeKey: string;
let campaignSend: SeededSend;
let campaignId: string;
let campaignSendId: string;
let journeyId: string;
let provider: TestOidcProvider;
/** An ingestion request with the write key the table created. */
const ingest = (path: string, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: `/ingest/v1/${path}`,
    headers: { authorization: `Bearer ${writeKey}` },
    payload,
  });
/** A SCIM request with the token the table made. */
const scim = (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, payload?: object) =>
  t.app.inject({
    method,
    url: `/scim/v2/${ws}/${path}`,
    headers: { authorization: `Bearer ${scimToken}` },
    ...(payload ? { payload } : {}),
  });
let scimToken: string;
let scimTokenId: string;
let scimUserId: string;
let scimGroupId: string;
let scheduleId: string;
let release: { id: string; updatedAt: string };
const addReleaseEntry = () =>
  call(t, 'POST', wsUrl(ws, `releases/${release.id}/entries`), manager, {
    entries: [{ schema: 'blog-post', itemId: postId }],
  });
let batchId: string;
let storageName: string;
let serviceId: string;
let visualisation: http.Server;
const routes = new Set<string>();
/** What the second server process heard since the last request (PostgreSQL). */
const heard: Change[] = [];

type Send = () => Promise<LightMyRequestResponse>;
/** A write route: the request that changes workspace data, and the audit action it leaves. */
interface Journaled {
  action: string;
  send: Send;
}
/** A write route that changes no workspace data, and why. */
interface NotJournaled {
  none: string;
}

const item = (rest = '') => `${itemUrl(ws, 'blog-post', postId)}${rest}`;
const fun = (path: string) => `/fun/${path}${path.includes('?') ? '&' : '?'}__marquee_workspace=${ws}`;

/** In the order they run: later entries use what earlier ones wrote. */
const TABLE: Record<string, Journaled | NotJournaled> = {
  'POST /api/v1/auth/sign-up': { none: 'creates an account, no workspace data' },
  'POST /api/v1/auth/sign-in': { none: 'starts a session (invitations it accepts journal as member.joined)' },
  'POST /api/v1/auth/sign-out': { none: 'ends a session; announces the session drop, no audit row' },
  'POST /api/v1/auth/sign-in/two-factor': {
    none: "sign-in's second step: starts a session (a recovery code it uses is audited, two-factor.test.ts)",
  },
  'POST /api/v1/auth/two-factor/setup': {
    none: "makes a pending secret on the caller's account: nothing is on until it is enabled",
  },
  'POST /api/v1/auth/two-factor/enable': {
    none: "the caller's account: audited in each of the caller's workspaces (two-factor.test.ts)",
  },
  'POST /api/v1/auth/two-factor/disable': {
    none: "the caller's account: audited in each of the caller's workspaces (two-factor.test.ts)",
  },
  'POST /api/v1/auth/two-factor/recovery-codes': {
    none: "the caller's account: audited in each of the caller's workspaces (two-factor.test.ts)",
  },
  'POST /api/v1/auth/passkeys/registration-options': {
    none: "stores a single-use challenge for the caller's account: nothing is added until it is answered",
  },
  'POST /api/v1/auth/passkeys': {
    none: "the caller's account: audited in each of the caller's workspaces (passkeys.test.ts)",
  },
  'DELETE /api/v1/auth/passkeys/:id': {
    none: "the caller's account: audited in each of the caller's workspaces (passkeys.test.ts)",
  },
  'POST /api/v1/auth/sign-in/passkey/options': {
    none: 'stores a single-use challenge before any session, no workspace data',
  },
  'POST /api/v1/auth/sign-in/passkey': {
    none: 'starts a session (invitations it accepts journal as member.joined)',
  },
  'POST /api/v1/auth/sign-in/two-factor/passkey-options': {
    none: "stores a single-use challenge for the pending sign-in's account, no workspace data",
  },
  'PUT /api/v1/workspaces/:ws/two-factor': {
    none: 'needs a manager with two-factor on; its audit row is checked in two-factor.test.ts',
  },
  'DELETE /api/v1/auth/sessions/:id': {
    none: "ends one of the caller's sessions; announces the session drop, no audit row",
  },
  'POST /api/v1/auth/send-verification': { none: 'mails a link' },
  'POST /api/v1/auth/verify-email': { none: 'verifies an account (invitations it accepts journal)' },
  'POST /api/v1/auth/request-password-reset': { none: 'mails a link' },
  'POST /api/v1/auth/reset-password': { none: 'changes an account; announces the session drop' },
  'POST /api/v1/auth/change-email': { none: 'mails a link to the new address' },
  'POST /api/v1/events': { none: 'analytics events: the event row is itself the record' },
  'POST /api/v1/workspaces/:ws/audiences/size': { none: 'reads: counts an audience' },
  'POST /api/v1/workspaces/:ws/audiences/sample': { none: 'reads: samples an audience' },
  'POST /api/v1/workspaces/:ws/profiles/import/preview': { none: 'reads: previews a profile import' },
  'POST /api/v1/workspaces/:ws/customer-events/import/preview': { none: 'reads: previews an event import' },
  'POST /fun/sanitizeHtml/': { none: 'answers sanitised HTML, stores nothing' },
  'POST /delivery/v1/:ws/:stage/graphql': { none: 'reads: a GraphQL query of published content' },
  'PUT /api/v1/workspaces/:ws/live/presence': {
    none: 'presence lives in memory: the journal announces it to the streams, no audit row (live.test.ts)',
  },
  'PUT /api/v1/workspaces/:ws/items/:schema/:id/lock': {
    none: 'a soft edit lock, no workspace data: the journal announces it to the streams (live.test.ts)',
  },
  'DELETE /api/v1/workspaces/:ws/items/:schema/:id/lock': {
    none: 'releases a soft edit lock: the journal announces it to the streams (live.test.ts)',
  },
  'POST /fun/testCollection/runTest': { none: 'runs code in a sandbox, stores nothing' },
  'POST /api/v1/workspaces/:ws/content-model/plan': { none: 'reads: plans a change set, writes nothing' },
  'POST /api/v1/workspaces/:ws/preview/render': {
    none: 'reads: renders unsaved values in a transaction it rolls back (preview.test.ts)',
  },
  'POST /api/v1/auth/sso/:ws/saml/acs': {
    none: "the identity provider's post: signs in (sso.signed-in is checked in sso-saml.test.ts)",
  },
  'POST /api/v1/workspaces/:ws/sso/test': { none: 'reads: runs discovery at the provider, stores nothing' },

  'POST /api/v1/workspaces': {
    action: 'workspace.created',
    send: () => call(t, 'POST', '/api/v1/workspaces', manager, { name: 'Journal Other' }),
  },
  'PATCH /api/v1/workspaces/:ws': {
    action: 'roles.updated',
    send: async () => {
      const current = (await call(t, 'GET', `/api/v1/workspaces/${ws}`, manager)).json();
      const roles = {
        ...current.roles,
        approver: role('Approver', { canEdit: ['blog-post'], mustApprove: ['blog-post'] }),
      };
      return call(t, 'PATCH', `/api/v1/workspaces/${ws}`, manager, { roles });
    },
  },
  'POST /api/v1/workspaces/:ws/members/invitations': {
    action: 'member.invited',
    send: () =>
      call(t, 'POST', wsUrl(ws, 'members/invitations'), manager, { email: 'guest@example.test', roles: [] }),
  },
  'DELETE /api/v1/workspaces/:ws/members/invitations/:email': {
    action: 'invitation.revoked',
    send: () => call(t, 'DELETE', wsUrl(ws, 'members/invitations/guest@example.test'), manager),
  },
  'PATCH /api/v1/workspaces/:ws/members/:userId': {
    action: 'member.updated',
    send: () =>
      call(t, 'PATCH', wsUrl(ws, `members/${manager.id}`), manager, {
        roles: ['admin', 'approver'],
        displayName: 'Jo Journal',
      }),
  },
  'POST /api/v1/workspaces/:ws/items/:schema': {
    action: 'item.created',
    send: async () => {
      const res = await call(t, 'POST', wsUrl(ws, 'items/blog-post'), manager, { data: blogPostData() });
      postId = res.json().id;
      return res;
    },
  },
  'PUT /api/v1/workspaces/:ws/items/:schema/:id': {
    action: 'item.saved',
    send: () => call(t, 'PUT', item(), manager, { data: blogPostData({ excerpt: 'v2' }), baseVersion: 1 }),
  },
  'POST /fun/items/:schema': {
    action: 'item.created',
    send: () => call(t, 'POST', fun('items/blog-post'), manager, { data: blogPostData({ slug: 'fun-one' }) }),
  },
  'PUT /fun/items/:schema/:id': {
    action: 'item.saved',
    send: () =>
      call(t, 'PUT', fun(`items/blog-post/${postId}`), manager, { data: blogPostData({ excerpt: 'v3' }) }),
  },
  'POST /api/v1/workspaces/:ws/items/:schema/:id/history/:num/restore': {
    action: 'item.restored',
    send: () => call(t, 'POST', item('/history/1/restore'), manager, {}),
  },
  'POST /api/v1/workspaces/:ws/items/:schema/:id/duplicate': {
    action: 'item.duplicated',
    send: () => call(t, 'POST', item('/duplicate'), manager),
  },
  'POST /api/v1/workspaces/:ws/items/:schema/:id/comments': {
    action: 'comment.created',
    send: () => call(t, 'POST', item('/comments'), manager, { text: 'Looks good' }),
  },
  'POST /api/v1/workspaces/:ws/items/:schema/:id/approvals': {
    action: 'item.approved',
    send: () => call(t, 'POST', item('/approvals'), manager, { roleId: 'approver' }),
  },
  'POST /api/v1/workspaces/:ws/items/:schema/:id/publish/:stage': {
    action: 'item.published',
    send: () => call(t, 'POST', item('/publish/live'), manager, { publishRefs: false }),
  },
  'DELETE /api/v1/workspaces/:ws/items/:schema/:id/publish/:stage': {
    action: 'item.unpublished',
    send: () => call(t, 'DELETE', item('/publish/live'), manager),
  },
  'POST /fun/publish/publish/': {
    action: 'item.published',
    send: () =>
      call(t, 'POST', fun('publish/publish/'), manager, {
        id: postId,
        schemaType: 'blog-post',
        destination: 'live',
      }),
  },
  'POST /fun/publish/publish': {
    action: 'item.published',
    send: () =>
      call(t, 'POST', fun('publish/publish'), manager, {
        id: postId,
        schemaType: 'blog-post',
        destination: 'staging',
      }),
  },
  'POST /api/v1/workspaces/:ws/items/:schema/:id/schedules': {
    action: 'schedule.created',
    send: async () => {
      const at = new Date(Date.now() + 3_600_000).toISOString();
      const res = await call(t, 'POST', item('/schedules'), manager, { stage: 'live', at });
      scheduleId = res.json().id;
      return res;
    },
  },
  'DELETE /api/v1/workspaces/:ws/items/:schema/:id/schedules/:scheduleId': {
    action: 'schedule.cancelled',
    send: () => call(t, 'DELETE', item(`/schedules/${scheduleId}`), manager),
  },
  'POST /api/v1/workspaces/:ws/content-model/apply': {
    action: 'model.changed',
    send: async () => {
      const { version } = (await call(t, 'GET', wsUrl(ws, 'content-model'), manager)).json();
      const res = await call(t, 'POST', wsUrl(ws, 'content-model/apply'), manager, {
        baseVersion: version,
        ops: [
          {
            op: 'addField',
            schema: 'blog-post',
            field: { key: 'subtitle', label: 'Subtitle', type: 'text' },
          },
        ],
      });
      modelChangeId = res.json().change.id;
      return res;
    },
  },
  'POST /api/v1/workspaces/:ws/content-model/changes/:id/revert': {
    action: 'model.reverted',
    send: async () => {
      const { version } = (await call(t, 'GET', wsUrl(ws, 'content-model'), manager)).json();
      return call(t, 'POST', wsUrl(ws, `content-model/changes/${modelChangeId}/revert`), manager, {
        baseVersion: version,
      });
    },
  },
  'POST /api/v1/workspaces/:ws/releases': {
    action: 'release.created',
    send: async () => {
      const res = await call(t, 'POST', wsUrl(ws, 'releases'), manager, { name: 'Launch', stage: 'live' });
      release = res.json();
      return res;
    },
  },
  'PATCH /api/v1/workspaces/:ws/releases/:id': {
    action: 'release.updated',
    send: () =>
      call(t, 'PATCH', wsUrl(ws, `releases/${release.id}`), manager, {
        name: 'Spring launch',
        updatedAt: release.updatedAt,
      }),
  },
  'POST /api/v1/workspaces/:ws/releases/:id/entries': {
    action: 'release.entries-added',
    send: () => addReleaseEntry(),
  },
  'DELETE /api/v1/workspaces/:ws/releases/:id/entries': {
    action: 'release.entries-removed',
    send: () =>
      call(t, 'DELETE', wsUrl(ws, `releases/${release.id}/entries`), manager, { itemIds: [postId] }),
  },
  'POST /api/v1/workspaces/:ws/releases/:id/publish': {
    action: 'release.published',
    send: async () => {
      await addReleaseEntry();
      return call(t, 'POST', wsUrl(ws, `releases/${release.id}/publish`), manager, {});
    },
  },
  'POST /api/v1/workspaces/:ws/releases/:id/revert': {
    action: 'release.reverted',
    send: () => call(t, 'POST', wsUrl(ws, `releases/${release.id}/revert`), manager),
  },
  'DELETE /api/v1/workspaces/:ws/releases/:id': {
    action: 'release.deleted',
    send: () => call(t, 'DELETE', wsUrl(ws, `releases/${release.id}`), manager),
  },
  'POST /api/v1/workspaces/:ws/api-keys': {
    action: 'api-key.created',
    send: async () => {
      const res = await call(t, 'POST', wsUrl(ws, 'api-keys'), manager, { name: 'Site', stages: ['live'] });
      keyId = res.json().id;
      return res;
    },
  },
  'DELETE /api/v1/workspaces/:ws/api-keys/:id': {
    action: 'api-key.revoked',
    send: () => call(t, 'DELETE', wsUrl(ws, `api-keys/${keyId}`), manager),
  },
  'POST /api/v1/workspaces/:ws/preview-tokens': {
    action: 'preview-token.created',
    send: async () => {
      const res = await call(t, 'POST', wsUrl(ws, 'preview-tokens'), manager, { expiresIn: 60 });
      previewTokenId = res.json().id;
      return res;
    },
  },
  'DELETE /api/v1/workspaces/:ws/preview-tokens/:id': {
    action: 'preview-token.revoked',
    send: () => call(t, 'DELETE', wsUrl(ws, `preview-tokens/${previewTokenId}`), manager),
  },
  'PUT /api/v1/workspaces/:ws/preview-origins': {
    action: 'preview-origins.updated',
    send: () =>
      call(t, 'PUT', wsUrl(ws, 'preview-origins'), manager, { origins: ['https://www.journal.test'] }),
  },
  'PUT /api/v1/workspaces/:ws/sso': {
    action: 'sso.updated',
    send: () =>
      call(t, 'PUT', wsUrl(ws, 'sso'), manager, {
        issuer: provider.issuer,
        clientId: provider.clientId,
        clientSecret: provider.clientSecret,
        domains: ['journal.test'],
        allowPassword: true,
        roleRules: [],
      }),
  },
  'PUT /api/v1/workspaces/:ws/sso/saml': {
    action: 'sso.updated',
    send: () =>
      call(t, 'PUT', wsUrl(ws, 'sso/saml'), manager, {
        entryPoint: IDP_ENTRY_POINT,
        idpIssuer: IDP_ENTITY_ID,
        idpCert: IDP_CERT,
        domains: [],
        allowPassword: true,
        roleRules: [],
      }),
  },
  'DELETE /api/v1/workspaces/:ws/sso': {
    action: 'sso.deleted',
    send: () => call(t, 'DELETE', wsUrl(ws, 'sso'), manager),
  },
  'POST /api/v1/workspaces/:ws/write-keys': {
    action: 'write-key.created',
    send: async () => {
      const res = await call(t, 'POST', wsUrl(ws, 'write-keys'), manager, { name: 'Site', origins: [] });
      writeKeyId = res.json().id;
      writeKey = res.json().key;
      return res;
    },
  },
  'POST /ingest/v1/track': {
    action: 'customer-events.ingested',
    send: () =>
      ingest('track', { profileId: 'p1', event: 'purchase', properties: { amount: 3 }, id: 'journal-1' }),
  },
  'POST /ingest/v1/identify': {
    action: 'customer-events.ingested',
    send: () => ingest('identify', { profileId: 'p1', anonymousId: 'visitor-1', attributes: {} }),
  },
  'POST /ingest/v1/batch': {
    action: 'customer-events.ingested',
    send: () =>
      ingest('batch', {
        batch: [{ type: 'track', profileId: 'p1', event: 'purchase', properties: { amount: 4 } }],
      }),
  },
  'POST /api/v1/workspaces/:ws/undeclared/declare': {
    action: 'item.created',
    send: async () => {
      await ingest('track', { profileId: 'p1', event: 'newsletter-signup' });
      return call(t, 'POST', wsUrl(ws, 'undeclared/declare'), manager, {
        kind: 'event',
        key: 'newsletter-signup',
      });
    },
  },
  'PATCH /api/v1/workspaces/:ws/write-keys/:id': {
    action: 'write-key.updated',
    send: () => call(t, 'PATCH', wsUrl(ws, `write-keys/${writeKeyId}`), manager, { strict: true }),
  },
  'DELETE /api/v1/workspaces/:ws/write-keys/:id': {
    action: 'write-key.revoked',
    send: () => call(t, 'DELETE', wsUrl(ws, `write-keys/${writeKeyId}`), manager),
  },
  'POST /api/v1/workspaces/:ws/scim-tokens': {
    action: 'scim-token.created',
    send: async () => {
      const res = await call(t, 'POST', wsUrl(ws, 'scim-tokens'), manager, { name: 'Entra ID' });
      scimTokenId = res.json().id;
      scimToken = res.json().token;
      return res;
    },
  },
  'POST /scim/v2/:ws/Users': {
    action: 'scim.user-created',
    send: async () => {
      const res = await scim('POST', 'Users', {
        userName: 'scim@journal.test',
        emails: [{ value: 'scim@journal.test' }],
      });
      scimUserId = res.json().id;
      return res;
    },
  },
  'PUT /scim/v2/:ws/Users/:id': {
    action: 'scim.user-updated',
    send: () => scim('PUT', `Users/${scimUserId}`, { userName: 'scim@journal.test', displayName: 'Scim' }),
  },
  'PATCH /scim/v2/:ws/Users/:id': {
    action: 'scim.user-deactivated',
    send: () =>
      scim('PATCH', `Users/${scimUserId}`, { Operations: [{ op: 'replace', path: 'active', value: false }] }),
  },
  'POST /scim/v2/:ws/Groups': {
    action: 'scim.group-created',
    send: async () => {
      const res = await scim('POST', 'Groups', {
        displayName: 'Journal group',
        members: [{ value: scimUserId }],
      });
      scimGroupId = res.json().id;
      return res;
    },
  },
  'PUT /scim/v2/:ws/Groups/:id': {
    action: 'scim.group-updated',
    send: () => scim('PUT', `Groups/${scimGroupId}`, { displayName: 'Journal group', members: [] }),
  },
  'PATCH /scim/v2/:ws/Groups/:id': {
    action: 'scim.group-updated',
    send: () =>
      scim('PATCH', `Groups/${scimGroupId}`, {
        Operations: [{ op: 'add', path: 'members', value: [{ value: scimUserId }] }],
      }),
  },
  'DELETE /scim/v2/:ws/Groups/:id': {
    action: 'scim.group-deleted',
    send: () => scim('DELETE', `Groups/${scimGroupId}`),
  },
  'DELETE /scim/v2/:ws/Users/:id': {
    action: 'scim.user-deleted',
    send: () => scim('DELETE', `Users/${scimUserId}`),
  },
  'DELETE /api/v1/workspaces/:ws/scim-tokens/:id': {
    action: 'scim-token.revoked',
    send: () => call(t, 'DELETE', wsUrl(ws, `scim-tokens/${scimTokenId}`), manager),
  },
  'POST /api/v1/workspaces/:ws/webhooks': {
    action: 'webhook.created',
    send: async () => {
      const res = await call(t, 'POST', wsUrl(ws, 'webhooks'), manager, {
        url: 'http://127.0.0.1:9/hook',
        events: ['item.saved'],
      });
      webhookId = res.json().id;
      return res;
    },
  },
  'PATCH /api/v1/workspaces/:ws/webhooks/:id': {
    action: 'webhook.updated',
    send: () => call(t, 'PATCH', wsUrl(ws, `webhooks/${webhookId}`), manager, { active: true }),
  },
  'POST /api/v1/workspaces/:ws/webhooks/:id/deliveries/:deliveryId/redeliver': {
    action: 'webhook.redelivered',
    send: async () => {
      await call(t, 'PUT', item(), manager, { data: blogPostData({ excerpt: 'hooked' }) });
      const log = await call(t, 'GET', wsUrl(ws, `webhooks/${webhookId}/deliveries`), manager);
      const [delivery] = log.json().deliveries;
      return call(t, 'POST', wsUrl(ws, `webhooks/${webhookId}/deliveries/${delivery.id}/redeliver`), manager);
    },
  },
  'DELETE /api/v1/workspaces/:ws/webhooks/:id': {
    action: 'webhook.deleted',
    send: () => call(t, 'DELETE', wsUrl(ws, `webhooks/${webhookId}`), manager),
  },
  'POST /api/v1/workspaces/:ws/senders': {
    action: 'sender.created',
    send: async () => {
      const res = await call(t, 'POST', wsUrl(ws, 'senders'), manager, {
        fromName: 'News',
        fromAddress: 'news@journal.test',
      });
      senderId = res.json().id;
      return res;
    },
  },
  'PATCH /api/v1/workspaces/:ws/senders/:id': {
    action: 'sender.updated',
    send: () => call(t, 'PATCH', wsUrl(ws, `senders/${senderId}`), manager, { fromName: 'The News' }),
  },
  'POST /api/v1/workspaces/:ws/senders/:id/verify': {
    action: 'sending-domain.checked',
    send: () => call(t, 'POST', wsUrl(ws, `senders/${senderId}/verify`), manager),
  },
  'PUT /api/v1/workspaces/:ws/senders/postal-address': {
    action: 'postal-address.updated',
    send: () =>
      call(t, 'PUT', wsUrl(ws, 'senders/postal-address'), manager, { postalAddress: '1 Market Street' }),
  },
  'PUT /api/v1/workspaces/:ws/senders/recipients': {
    action: 'recipient-settings.updated',
    send: () => call(t, 'PUT', wsUrl(ws, 'senders/recipients'), manager, { mailUnknownConsent: true }),
  },
  'POST /api/v1/workspaces/:ws/campaigns/:id/test-send': {
    action: 'test-send.sent',
    send: async () => {
      const audience = await createItem(t, manager, ws, 'audience', { name: 'Everyone' });
      campaignId = (
        await createItem(t, manager, ws, 'campaign', {
          name: 'Journal news',
          email: { schemaType: 'email', id: emailId, label: 'Email' },
          audience: { schemaType: 'audience', id: audience.id, label: 'Everyone' },
          sender: senderId,
        })
      ).id;
      return call(t, 'POST', wsUrl(ws, `campaigns/${campaignId}/test-send`), manager, {
        recipients: ['qa@journal.test'],
      });
    },
  },
  'POST /api/v1/workspaces/:ws/campaigns/:id/send': {
    action: 'campaign.send',
    send: async () => {
      const res = await call(t, 'POST', wsUrl(ws, `campaigns/${campaignId}/send`), manager, {});
      campaignSendId = res.json().send?.id;
      return res;
    },
  },
  'POST /api/v1/workspaces/:ws/campaigns/:id/sends/:sendId/:action': {
    action: 'campaign.cancel',
    send: () => call(t, 'POST', wsUrl(ws, `campaigns/${campaignId}/sends/${campaignSendId}/cancel`), manager),
  },
  'POST /api/v1/workspaces/:ws/campaigns/:id/sends/:sendId/resend-unconfirmed': {
    action: 'campaign.resend-unconfirmed',
    send: async () => {
      const unsure = await seedSend(t, ws, {
        campaignId,
        recipients: [{ profileId: 'p1', email: 'p1@journal.test' }],
        unconfirmed: 1,
      });
      return call(
        t,
        'POST',
        wsUrl(ws, `campaigns/${campaignId}/sends/${unsure.id}/resend-unconfirmed`),
        manager,
      );
    },
  },
  'POST /api/v1/workspaces/:ws/journeys/:id/start': {
    action: 'journey.start',
    send: async () => {
      journeyId = (
        await createItem(t, manager, ws, 'journey', {
          name: 'Journal journey',
          definition: JSON.stringify({
            entry: { kind: 'api' },
            start: 'wait',
            steps: [
              { id: 'wait', type: 'wait', seconds: 3600 },
              { id: 'done', type: 'exit' },
            ],
            edges: [{ from: 'wait', to: 'done' }],
          }),
        })
      ).id;
      return call(t, 'POST', wsUrl(ws, `journeys/${journeyId}/start`), manager);
    },
  },
  'POST /api/v1/workspaces/:ws/journeys/:id/enter': {
    action: 'journey.enter',
    send: () => call(t, 'POST', wsUrl(ws, `journeys/${journeyId}/enter`), manager, { profileIds: ['p1'] }),
  },
  'POST /api/v1/workspaces/:ws/journeys/:id/:action': {
    action: 'journey.stop',
    send: () => call(t, 'POST', wsUrl(ws, `journeys/${journeyId}/stop`), manager),
  },
  'PUT /api/v1/workspaces/:ws/journey-limits': {
    action: 'journey.limits',
    send: () =>
      call(t, 'PUT', wsUrl(ws, 'journey-limits'), manager, {
        perDay: 2,
        perWeek: null,
        quietHours: { start: 22, end: 7 },
        timeZone: 'Europe/Paris',
      }),
  },
  'DELETE /api/v1/workspaces/:ws/senders/:id': {
    action: 'sender.deleted',
    send: () => call(t, 'DELETE', wsUrl(ws, `senders/${senderId}`), manager),
  },
  'POST /api/v1/workspaces/:ws/files': {
    action: 'file.uploaded',
    send: async () => {
      const file = await uploadImage(t, manager, ws, await makeImage());
      storageName = file.storageName;
      // The upload helper checks the answer; what this route left is checked below.
      return { statusCode: 201 } as LightMyRequestResponse;
    },
  },
  'PATCH /api/v1/workspaces/:ws/files/:storageName': {
    action: 'file.updated',
    send: () => call(t, 'PATCH', wsUrl(ws, `files/${storageName}`), manager, { focusX: 0.2, focusY: 0.8 }),
  },
  'POST /api/v1/workspaces/:ws/batches': {
    action: 'import.started',
    send: async () => {
      const res = await call(t, 'POST', wsUrl(ws, 'batches'), manager, { kind: 'image-upload', total: 1 });
      batchId = res.json().id;
      return res;
    },
  },
  'POST /api/v1/workspaces/:ws/batches/:batchId/progress': {
    action: 'import.finished',
    send: () =>
      call(t, 'POST', wsUrl(ws, `batches/${batchId}/progress`), manager, { processed: 1, finished: true }),
  },
  'POST /api/v1/workspaces/:ws/profiles/import': {
    action: 'import.finished',
    send: () => importBody(t, manager, ws, 'profiles', 'text/csv', 'id,city\np1,Paris\n'),
  },
  'POST /api/v1/workspaces/:ws/customer-events/import': {
    action: 'import.finished',
    send: () =>
      importBody(
        t,
        manager,
        ws,
        'customer-events',
        'text/csv',
        'profileId,event,at,amount\np1,purchase,2024-01-01T00:00:00Z,5\n',
      ),
  },
  'POST /api/v1/workspaces/:ws/customer-events': {
    action: 'customer-events.tracked',
    send: () =>
      call(t, 'POST', wsUrl(ws, 'customer-events'), manager, {
        events: [
          { profileId: 'p1', event: 'purchase', at: new Date().toISOString(), properties: { amount: 2 } },
        ],
      }),
  },
  'PATCH /api/v1/workspaces/:ws/profiles/:profileId': {
    action: 'profile.updated',
    send: async () => {
      const read = await call(t, 'GET', wsUrl(ws, 'profiles/p1'), manager);
      const { updatedAt } = read.json().profile;
      return call(t, 'PATCH', wsUrl(ws, 'profiles/p1'), manager, { updatedAt, emailConsent: 'subscribed' });
    },
  },
  'POST /api/v1/workspaces/:ws/suppressions': {
    action: 'suppression.added',
    send: async () => {
      const res = await call(t, 'POST', wsUrl(ws, 'suppressions'), manager, { email: 'gone@example.test' });
      suppressionId = res.json().suppression.id;
      return res;
    },
  },
  'DELETE /api/v1/workspaces/:ws/suppressions/:suppressionId': {
    action: 'suppression.removed',
    send: () => call(t, 'DELETE', wsUrl(ws, `suppressions/${suppressionId}`), manager),
  },
  'POST /u/:token': {
    action: 'profile.unsubscribed',
    send: () =>
      t.app.inject({
        method: 'POST',
        url: `/u/${campaignSend.token('u', 1)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      }),
  },
  'POST /u/:token/resubscribe': {
    action: 'profile.resubscribed',
    send: () => t.app.inject({ method: 'POST', url: `/u/${campaignSend.token('u', 1)}/resubscribe` }),
  },
  'POST /hooks/email/:provider': {
    action: 'suppression.added',
    send: () =>
      t.app.inject({
        method: 'POST',
        url: '/hooks/email/smtp',
        payload: { token: campaignSend.token('u', 2), recipient: 'p1-old@journal.test', status: '5.1.1' },
      }),
  },
  // Not suppressed: the ingestion entries below write to p1 again.
  'DELETE /api/v1/workspaces/:ws/profiles/:profileId': {
    action: 'profile.erased',
    send: () => call(t, 'DELETE', wsUrl(ws, 'profiles/p1'), manager),
  },
  'POST /api/v1/workspaces/:ws/emails/:id/test-send': {
    action: 'test-send.sent',
    send: () =>
      call(t, 'POST', wsUrl(ws, `emails/${emailId}/test-send`), manager, {
        provider: 'smtp',
        recipients: ['reader@example.test'],
      }),
  },
  'POST /fun/testSend/:provider': {
    action: 'test-send.sent',
    send: () =>
      call(t, 'POST', fun('testSend/smtp'), manager, {
        recipients: ['reader@example.test'],
        subject: 'Hi',
        html: '<p>Hi</p>',
      }),
  },
  'POST /api/v1/workspaces/:ws/visualisation': {
    action: 'visualisation.refreshed',
    send: () => call(t, 'POST', wsUrl(ws, 'visualisation'), manager),
  },
  'DELETE /fun/delete/:service': {
    action: 'item.saved',
    send: () => call(t, 'DELETE', fun(`delete/${serviceId}`), manager),
  },
  'DELETE /api/v1/workspaces/:ws/items/:schema/:id': {
    action: 'item.deleted',
    send: () => call(t, 'DELETE', item(), manager),
  },
};

beforeAll(async () => {
  provider = await startOidcProvider([]);
  visualisation = http.createServer((_req, res) => res.end(JSON.stringify({ visits: 1 })));
  await new Promise<void>((resolve) => visualisation.listen(0, '127.0.0.1', resolve));
  const { port } = visualisation.address() as AddressInfo;
  const seen = (route: RouteOptions) => {
    for (const method of [route.method].flat()) {
      if (WRITE_METHODS.has(method)) routes.add(keyOf(method, route.url));
    }
  };
  t = await createTestApp(
    {
      webhookAllowPrivate: true,
      dnsServers: [await dns.start()],
      visualisation: { url: `http://127.0.0.1:${port}/stats`, header: undefined },
    },
    { onRoute: seen },
  );
  manager = await verifiedUser(t, newUserInput({ name: 'Journal Manager' }));
  ws = (await createWorkspace(t.app, manager, 'Journal')).id;
  await patchWorkspace(t.app, manager, ws, {
    basics: { domains: ['blogging', 'marketing', 'admin'], stages: ['Live', 'Staging'] },
  });
  await defineCustomerData(t, manager, ws);
  emailId = (
    await createItem(t, manager, ws, 'email', {
      name: 'Welcome',
      subject: 'Welcome',
      template: { combinedMarkup: '<p>Hi</p>' },
    })
  ).id;
  campaignSend = await seedSend(t, ws, {
    recipients: [
      { profileId: 'p1', email: 'p1@journal.test' },
      { profileId: 'p1', email: 'p1-old@journal.test' },
    ],
  });
  serviceId = (
    await createItem(t, manager, ws, 'service', { name: 'Page', connection: { provider: 'facebook' } })
  ).id;
});
afterAll(async () => {
  await t.close();
  await provider.close();
  await new Promise((resolve) => visualisation.close(resolve));
  await dns.stop();
});

describe('the write journal', () => {
  it('has an entry for every write route of the app', () => {
    const missing = [...routes].filter((key) => !(key in TABLE));
    const stale = Object.keys(TABLE).filter((key) => !routes.has(key));
    expect({ missing, stale }).toEqual({ missing: [], stale: [] });
  });

  describe.runIf(testDatabaseKind() === 'postgres')('on PostgreSQL', () => {
    let other: SecondServer;

    beforeAll(async () => {
      other = await startSecondServer(t);
      subscribeToChanges(other.database.db, 'journal-test', {
        apply: (change) => heard.push(change),
        clear() {},
      });
    });
    afterAll(async () => {
      await other.close();
    });

    it('announces every journaled write to another server process', async () => {
      for (const [key, entry] of Object.entries(TABLE)) {
        if ('none' in entry) continue;
        const rows = await journaledBy(key, entry);
        const workspaces = new Set(rows.map((row) => row.workspaceId));
        await expect
          .poll(() => heard.some((c) => 'workspaceId' in c && workspaces.has(c.workspaceId!)), {
            timeout: 2_000,
            message: `${key}: no change notice heard by the other process`,
          })
          .toBe(true);
      }
    });

    it('sends the changes of writes committed in one turn of the event loop in one notice', async () => {
      const listener = postgres(t.database.url!, { max: 1, onnotice: () => {} });
      const notices: string[] = [];
      try {
        await listener.listen('marquee_changes', (payload) => notices.push(payload));
        const written = ['turn-a', 'turn-b', 'turn-c'].map(
          (workspaceId) => ({ kind: 'keys', workspaceId }) as const,
        );
        // As the creates of one batch do once their statement commits: each announces on its own.
        await Promise.all(written.map((change) => announceChanges(t.database.db, change)));
        const carrying = () =>
          notices.filter((notice) => written.some((c) => notice.includes(c.workspaceId)));
        await expect.poll(() => carrying().length).toBeGreaterThan(0);
        expect(carrying()).toHaveLength(1);
        for (const change of written) expect(carrying()[0]).toContain(change.workspaceId);
      } finally {
        await listener.end();
      }
    });

    it('sends the changes of one write in one notice', async () => {
      const post = await createItem(t, manager, ws, 'blog-post', blogPostData({ slug: 'one-notice' }));
      const listener = postgres(t.database.url!, { max: 1, onnotice: () => {} });
      const notices: string[] = [];
      try {
        await listener.listen('marquee_changes', (payload) => notices.push(payload));
        const saved = await call(t, 'PUT', itemUrl(ws, 'blog-post', post.id), manager, {
          data: blogPostData({ name: 'One notice', slug: 'one-notice' }),
        });
        expect(saved.statusCode, saved.body).toBe(200);
        const version = String(saved.json<{ version: number }>().version);
        const ofSave = () =>
          notices
            .flatMap((notice) => notice.split('\n').slice(1))
            .filter((line) => line === `items\t${ws}` || (line.includes(post.id) && line.includes(version)));
        await expect.poll(() => ofSave().length).toBe(2);
        const carrying = notices.filter((notice) => notice.includes(post.id));
        expect(carrying).toHaveLength(1);
        expect(carrying[0].split('\n')).toContain(`items\t${ws}`);
      } finally {
        await listener.end();
      }
    });
  });

  describe.runIf(testDatabaseKind() !== 'postgres')('on PGlite', () => {
    it('audits every journaled write', async () => {
      const failures: string[] = [];
      for (const [key, entry] of Object.entries(TABLE)) {
        if (!('none' in entry))
          await journaledBy(key, entry).catch((err: Error) => failures.push(err.message));
      }
      expect(failures).toEqual([]);
    });
  });
});

/** Sends the entry's request and answers the audit rows it left, having checked one has its action. */
async function journaledBy(key: string, entry: Journaled) {
  const [last] = await t.database.db
    .select({ id: auditLog.id })
    .from(auditLog)
    .orderBy(desc(auditLog.id))
    .limit(1);
  heard.length = 0;
  const res = await entry.send();
  expect(res.statusCode, `${key}: ${res.body}`).toBeLessThan(300);
  const rows = await t.database.db
    .select()
    .from(auditLog)
    .where(gt(auditLog.id, last?.id ?? 0));
  expect(
    rows.map((row) => row.action),
    key,
  ).toContain(entry.action);
  return rows;
}

import type { Item } from '@shared/api/items';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import {
  call,
  createItem,
  getItem,
  itemUrl,
  itemsUrl,
  publish,
  role,
  teamWorkspace,
  type Team,
} from '../factories/items';
import { wsUrl } from '../factories/customers';
import { sendableCampaign } from '../factories/campaigns';
import { seedSend } from '../factories/campaign-sends';
import { makeImage } from '../fixtures/images';
import { uploadImage } from '../fixtures/media';

/** A team's first day: any item of any schema can be duplicated into a new draft from its Actions menu. */
let t: TestApp;
let manager: TestUser;
let team: Team;
beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Max Manager' });
  team = await teamWorkspace(t, manager, {
    name: 'Duplicates',
    domains: ['blogging', 'marketing'],
    roles: {
      writer: role('Writer', { canEdit: ['blog-post'] }),
      reader: role('Reader', { canEdit: ['copy'] }),
    },
    people: { writer: ['writer'], reader: ['reader'] },
  });
});
afterAll(() => t.close());

const duplicate = (schema: string, id: string, user: TestUser = manager, ws = team.ws) =>
  call(t, 'POST', `${itemUrl(ws, schema, id)}/duplicate`, user);

async function duplicated(schema: string, id: string, user: TestUser = manager): Promise<Item> {
  const res = await duplicate(schema, id, user);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('duplicating an item', () => {
  it('makes a new draft copy: title marked, slug made unique, references and files kept, nothing published', async () => {
    const other = await createItem(t, manager, team.ws, 'blog-post', {
      name: 'Other',
      slug: 'other',
      body: '<p>x</p>',
    });
    const cover = await uploadImage(t, manager, team.ws, await makeImage({ seed: 3 }), 'cover.png');
    const body = `<p>See <a href="/x" data-ref-id="${other.id}" data-ref-schema-type="blog-post">the other post</a></p>`;
    const source = await createItem(t, manager, team.ws, 'blog-post', {
      name: 'Spring launch',
      slug: 'spring-launch',
      body,
      coverImage: cover,
      tags: ['launch'],
    });
    expect((await publish(t, manager, team.ws, 'blog-post', source.id)).statusCode).toBe(200);

    const copy = await duplicated('blog-post', source.id, team.members.writer);
    expect(copy.id).not.toBe(source.id);
    expect(copy.version).toBe(1);
    expect(copy.data).toMatchObject({
      name: 'Spring launch (copy)',
      slug: 'spring-launch-copy',
      body,
      tags: ['launch'],
    });
    // The same file, not a copy of it.
    expect((copy.data.coverImage as { storageName: string }).storageName).toBe(cover.storageName);
    expect(copy._references).toEqual(source._references);
    expect(Object.values(copy.publishStatus).every((status) => status === 'NOT_PUBLISHED')).toBe(true);
    expect(copy.approvedBy).toEqual([]);

    const history = (
      await call(t, 'GET', `${itemUrl(team.ws, 'blog-post', copy.id)}/history`, manager)
    ).json();
    expect(history.versions.map((v: { num: number }) => v.num)).toEqual([1]);
    const comments = (
      await call(t, 'GET', `${itemUrl(team.ws, 'blog-post', copy.id)}/comments`, manager)
    ).json();
    expect(comments.comments).toEqual([]);
    // The source is as it was.
    const after = await getItem(t, manager, team.ws, 'blog-post', source.id);
    expect(after.version).toBe(1);
    expect(after.publishStatus.live).toBe('CURRENT');
  });

  it('numbers further copies, and marks a slug typed by hand too', async () => {
    const source = await createItem(t, manager, team.ws, 'blog-post', {
      name: 'Autumn sale',
      slug: 'sale',
      body: '<p>x</p>',
    });
    const first = await duplicated('blog-post', source.id);
    const second = await duplicated('blog-post', source.id);
    expect([first.data.name, first.data.slug]).toEqual(['Autumn sale (copy)', 'sale-copy']);
    expect([second.data.name, second.data.slug]).toEqual(['Autumn sale (copy 2)', 'sale-copy-2']);
  });

  it('keeps keys unique: a copied attribute gets a key of its own', async () => {
    const source = await createItem(t, manager, team.ws, 'customer-profile-attribute', {
      name: 'Plan',
      key: 'plan',
      attributeType: 'string',
    });
    const copy = await duplicated('customer-profile-attribute', source.id);
    expect(copy.data).toMatchObject({ name: 'Plan (copy)', key: 'plan-copy', attributeType: 'string' });
  });

  it('is journaled: an audit entry names the source item', async () => {
    const source = await createItem(t, manager, team.ws, 'copy', { name: 'Banner', text: 'Hello' });
    const copy = await duplicated('copy', source.id);
    const audit = await call(t, 'GET', `${wsUrl(team.ws, 'audit')}?action=item.duplicated`, manager);
    expect(audit.statusCode).toBe(200);
    const entry = audit.json().entries.find((e: { targetId: string }) => e.targetId === copy.id);
    expect(entry).toMatchObject({
      action: 'item.duplicated',
      targetType: 'item',
      label: 'Banner (copy)',
      schema: 'copy',
      userId: manager.id,
      detail: { version: 1, sourceId: source.id, sourceVersion: 1, sourceLabel: 'Banner' },
    });
  });

  it('does not carry a campaign’s sends or results', async () => {
    const sendable = await sendableCampaign(t, manager, team.ws, [{ id: 'p-1', email: 'p1@example.com' }], {
      name: 'Newsletter',
    });
    await seedSend(t, team.ws, {
      campaignId: sendable.campaignId,
      recipients: [{ profileId: 'p-1', email: 'p1@example.com' }],
    });
    const sends = (id: string) => call(t, 'GET', wsUrl(team.ws, `campaigns/${id}/sends`), manager);
    expect((await sends(sendable.campaignId)).json().sends).toHaveLength(1);

    const copy = await duplicated('campaign', sendable.campaignId);
    expect(copy.data).toMatchObject({
      name: 'Newsletter (copy)',
      email: { id: sendable.emailId },
      audience: { id: sendable.audienceId },
      sender: sendable.senderId,
    });
    expect((await sends(copy.id)).json().sends).toEqual([]);
    const statuses = (await call(t, 'GET', wsUrl(team.ws, 'campaigns/statuses'), manager)).json().statuses;
    expect(statuses.map((s: { campaignId: string }) => s.campaignId)).not.toContain(copy.id);
    const readiness = (
      await call(t, 'GET', wsUrl(team.ws, `campaigns/${copy.id}/readiness`), manager)
    ).json();
    expect(readiness.current).toBeNull();
    expect(readiness.alreadyReceived).toBe(0);
    expect((await sends(sendable.campaignId)).json().sends).toHaveLength(1);
  });
});

describe('who may duplicate', () => {
  it('needs edit rights on the schema: 403 without them, and nothing is created', async () => {
    const source = await createItem(t, manager, team.ws, 'blog-post', {
      name: 'Guarded',
      slug: 'g',
      body: '<p>x</p>',
    });
    const res = await duplicate('blog-post', source.id, team.members.reader);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe('You do not have permission to edit Blog Posts');
    const list = (await call(t, 'GET', `${itemsUrl(team.ws, 'blog-post')}?q=guarded`, manager)).json();
    expect(list.items).toHaveLength(1);
  });

  it('answers 404 for an item that does not exist, 401 without a session and 404 to a non-member', async () => {
    expect((await duplicate('blog-post', 'no-such-item')).json().error.message).toBe('Instance not found');
    const source = await createItem(t, manager, team.ws, 'blog-post', {
      name: 'Mine',
      slug: 'mine',
      body: '<p>x</p>',
    });
    expect((await call(t, 'POST', `${itemUrl(team.ws, 'blog-post', source.id)}/duplicate`)).statusCode).toBe(
      401,
    );
    expect((await duplicate('blog-post', source.id, await verifiedUser(t))).statusCode).toBe(404);
  });

  it('checks the copy as any new item is checked: an item the model now finds incomplete is refused', async () => {
    const own = await teamWorkspace(t, manager, {
      name: 'Strict copies',
      domains: ['marketing'],
      roles: {},
      people: {},
    });
    const source = await createItem(t, manager, own.ws, 'copy', { name: 'Banner', text: 'Hello' });
    const model = (await call(t, 'GET', `/api/v1/workspaces/${own.ws}/content-model`, manager)).json();
    const applied = await call(t, 'POST', `/api/v1/workspaces/${own.ws}/content-model/apply`, manager, {
      baseVersion: model.version,
      ops: [{ op: 'updateField', schema: 'copy', key: 'channel', patch: { required: true } }],
    });
    expect(applied.statusCode, applied.body).toBe(200);
    const res = await duplicate('copy', source.id, manager, own.ws);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('Please fix validation errors before saving');
    expect(res.json().error.details.errors).toHaveProperty('channel');
  });
});

import type { Approvals, Item } from '@shared/api/items';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { makeImage } from '../fixtures/images';
import { uploadImage } from '../fixtures/media';
import { verifiedUser, type TestUser } from '../factories/users';
import {
  approve,
  blogPostData,
  call,
  createItem,
  getItem,
  itemUrl,
  publish,
  role,
  saveItem,
  teamWorkspace,
  type Team,
} from '../factories/items';

let t: TestApp;
let manager: TestUser;
let team: Team;
let editor: TestUser;
let publisher: TestUser;
let legal: TestUser;
let brand: TestUser;
let lou: TestUser;
let viewer: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Mia Manager' });
  team = await teamWorkspace(t, manager, {
    name: 'Workflow',
    roles: {
      editor: role('Editor', { canEdit: ['blog-post'] }),
      publisher: role('Publisher', { canPublish: ['blog-post'] }),
      legal: role('Legal', { mustApprove: ['blog-post'] }),
      brand: role('Brand', { mustApprove: ['blog-post'] }),
      viewer: role('Viewer', {}),
    },
    people: {
      'Eve Editor': ['editor'],
      'Pat Publisher': ['publisher'],
      'Leo Legal': ['legal'],
      'Bea Brand': ['brand'],
      'Lou Both': ['legal', 'editor'],
      'Val Viewer': ['viewer'],
    },
  });
  ({
    'Eve Editor': editor,
    'Pat Publisher': publisher,
    'Leo Legal': legal,
    'Bea Brand': brand,
    'Lou Both': lou,
    'Val Viewer': viewer,
  } = team.members);
});
afterAll(() => t.close());

const post = (data = blogPostData()) => createItem(t, editor, team.ws, 'blog-post', data);
const approvals = async (id: string, user: TestUser = viewer) =>
  (await call(t, 'GET', `${itemUrl(team.ws, 'blog-post', id)}/approvals`, user)).json() as Approvals;
const approveBoth = async (id: string) => {
  expect((await approve(t, legal, team.ws, 'blog-post', id, 'legal')).statusCode).toBe(200);
  expect((await approve(t, brand, team.ws, 'blog-post', id, 'brand')).statusCode).toBe(200);
};

describe('approvals', () => {
  it('clears remaining approvals role by role and records who approved as what', async () => {
    const item = await post();
    expect(await approvals(item.id)).toEqual({
      version: 1,
      fullyApproved: false,
      remainingApprovals: ['brand', 'legal'],
      approvers: [
        { roleId: 'brand', label: 'Brand' },
        { roleId: 'legal', label: 'Legal' },
      ],
      versions: [],
    });
    const res = await approve(t, legal, team.ws, 'blog-post', item.id, 'legal', 'Looks lawful');
    expect(res.statusCode).toBe(200);
    const record = res.json() as Approvals;
    expect(record).toMatchObject({ fullyApproved: false, remainingApprovals: ['brand'] });
    expect(record.versions).toEqual([
      {
        version: 1,
        at: expect.any(String),
        roles: {
          legal: {
            at: expect.any(String),
            byId: legal.id,
            byName: 'Leo Legal',
            asRoleId: 'legal',
            asRoleLabel: 'Legal',
            comment: 'Looks lawful',
          },
        },
      },
    ]);
    const seenByBrand = await getItem(t, brand, team.ws, 'blog-post', item.id);
    expect(seenByBrand).toMatchObject({
      fullyApproved: false,
      remainingApprovals: ['brand'],
      abilities: { canApprove: true },
    });
    expect(seenByBrand.approvedBy).toEqual([
      { roleId: 'legal', roleLabel: 'Legal', byId: legal.id, byName: 'Leo Legal', at: expect.any(String) },
    ]);
    expect((await getItem(t, legal, team.ws, 'blog-post', item.id)).abilities.canApprove).toBe(false);
    await approve(t, brand, team.ws, 'blog-post', item.id, 'brand');
    expect(await getItem(t, viewer, team.ws, 'blog-post', item.id)).toMatchObject({
      fullyApproved: true,
      remainingApprovals: [],
    });
  });

  it('starts over on a new version and keeps the record of the old one', async () => {
    const item = await post();
    await approveBoth(item.id);
    const saved = await saveItem(
      t,
      editor,
      team.ws,
      'blog-post',
      item.id,
      blogPostData({ name: 'Edited' }),
      1,
    );
    expect(saved).toMatchObject({
      version: 2,
      fullyApproved: false,
      remainingApprovals: ['brand', 'legal'],
      approvedBy: [],
    });
    const record = await approvals(item.id);
    expect(record.remainingApprovals).toEqual(['brand', 'legal']);
    expect(record.versions.map((v) => [v.version, Object.keys(v.roles).sort()])).toEqual([
      [1, ['brand', 'legal']],
    ]);
  });

  it('lets only a member holding the role approve as it', async () => {
    const item = await post();
    const asBrand = await approve(t, legal, team.ws, 'blog-post', item.id, 'brand');
    expect(asBrand.statusCode).toBe(403);
    expect(asBrand.json().error.message).toBe('You do not hold the role "Brand"');
    const asNonApprover = await approve(t, lou, team.ws, 'blog-post', item.id, 'editor');
    expect(asNonApprover.statusCode).toBe(400);
    expect(asNonApprover.json().error.message).toBe('The role "Editor" does not approve Blog Posts');
    expect((await approvals(item.id)).versions).toEqual([]);
  });

  it.each([
    ['editor', () => editor],
    ['publisher', () => publisher],
    ['viewer', () => viewer],
    ['manager', () => manager],
  ])('answers 403 to a %s, who approves nothing', async (_label, who) => {
    const item = await post();
    const res = await approve(t, who(), team.ws, 'blog-post', item.id, 'legal');
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe('You do not have permission to approve Blog Posts');
  });

  it('refuses approving twice, a stale version, a missing item and a bad body', async () => {
    const item = await post();
    await approve(t, legal, team.ws, 'blog-post', item.id, 'legal');
    const twice = await approve(t, legal, team.ws, 'blog-post', item.id, 'legal');
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toBe('Version 1 is already approved as Legal');
    await saveItem(t, editor, team.ws, 'blog-post', item.id, blogPostData({ name: 'v2' }));
    const stale = await call(t, 'POST', `${itemUrl(team.ws, 'blog-post', item.id)}/approvals`, brand, {
      roleId: 'brand',
      version: 1,
    });
    expect(stale.statusCode).toBe(409);
    const missing = await approve(t, brand, team.ws, 'blog-post', 'gone', 'brand');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe('Instance not found');
    const noRole = await call(t, 'POST', `${itemUrl(team.ws, 'blog-post', item.id)}/approvals`, brand, {});
    expect(noRole.statusCode).toBe(400);
    expect(noRole.json().error.message).toBe('roleId: roleId is required');
  });
});

describe('publishing', () => {
  it('refuses to publish before every approver role has approved the current version', async () => {
    const item = await post();
    const refused = await publish(t, publisher, team.ws, 'blog-post', item.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: 'conflict',
      message: 'This item needs approval before publishing. Waiting for: Brand, Legal',
      details: { remainingApprovals: ['brand', 'legal'] },
    });
    await approve(t, legal, team.ws, 'blog-post', item.id, 'legal');
    expect((await publish(t, publisher, team.ws, 'blog-post', item.id)).json().error.message).toBe(
      'This item needs approval before publishing. Waiting for: Brand',
    );
    expect((await getItem(t, viewer, team.ws, 'blog-post', item.id)).publishStatus.live).toBe(
      'NOT_PUBLISHED',
    );
    await approve(t, brand, team.ws, 'blog-post', item.id, 'brand');
    const ok = await publish(t, publisher, team.ws, 'blog-post', item.id);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      stage: 'live',
      published: [{ schema: 'blog-post', id: item.id, version: 1 }],
      item: {
        publishStatus: { live: 'CURRENT', staging: 'NOT_PUBLISHED' },
        published: { live: { version: 1, publishedBy: publisher.id } },
      },
    });
  });

  it('moves CURRENT to MODIFIED on a new version, back on republish, and to NOT_PUBLISHED on unpublish', async () => {
    const item = await post();
    await approveBoth(item.id);
    await publish(t, publisher, team.ws, 'blog-post', item.id);
    const edited = await saveItem(
      t,
      editor,
      team.ws,
      'blog-post',
      item.id,
      blogPostData({ name: 'Changed' }),
      1,
    );
    expect(edited.publishStatus.live).toBe('MODIFIED');
    await approveBoth(item.id);
    expect((await publish(t, publisher, team.ws, 'blog-post', item.id)).json().item.publishStatus.live).toBe(
      'CURRENT',
    );
    const url = `${itemUrl(team.ws, 'blog-post', item.id)}/publish/live`;
    expect((await call(t, 'DELETE', url, editor)).statusCode).toBe(403);
    const gone = await call(t, 'DELETE', url, publisher);
    expect(gone.statusCode).toBe(200);
    expect(gone.json()).toMatchObject({
      stage: 'live',
      item: { publishStatus: { live: 'NOT_PUBLISHED' }, published: {} },
    });
    const again = await call(t, 'DELETE', url, publisher);
    expect(again.statusCode).toBe(404);
    expect(again.json().error.message).toBe('This item is not published in live');
  });

  it.each([
    ['editor', () => editor],
    ['approver', () => legal],
    ['viewer', () => viewer],
  ])('answers 403 to a %s, who may not publish', async (_label, who) => {
    const item = await post();
    await approveBoth(item.id);
    const res = await publish(t, who(), team.ws, 'blog-post', item.id);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe('You do not have permission to publish Blog Posts');
    expect((await getItem(t, viewer, team.ws, 'blog-post', item.id)).publishStatus.live).toBe(
      'NOT_PUBLISHED',
    );
  });

  // An editor without the publish right deleted a published post, unpublishing it everywhere.
  it('lets only a member who may publish delete a published item', async () => {
    const [published, draft] = [await post(), await post(blogPostData({ name: 'Draft', slug: 'draft' }))];
    await approveBoth(published.id);
    expect((await publish(t, publisher, team.ws, 'blog-post', published.id, 'staging')).statusCode).toBe(200);
    expect((await getItem(t, editor, team.ws, 'blog-post', published.id)).abilities.canDelete).toBe(false);
    const refused = await call(t, 'DELETE', itemUrl(team.ws, 'blog-post', published.id), editor);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe(
      'You do not have permission to delete published Blog Posts: deleting one unpublishes it, which needs permission to publish Blog Posts',
    );
    expect((await getItem(t, viewer, team.ws, 'blog-post', published.id)).publishStatus.staging).toBe(
      'CURRENT',
    );
    // A draft is the editor's to delete; a member who may edit and publish deletes a published one.
    expect((await getItem(t, editor, team.ws, 'blog-post', draft.id)).abilities.canDelete).toBe(true);
    expect((await call(t, 'DELETE', itemUrl(team.ws, 'blog-post', draft.id), editor)).statusCode).toBe(200);
    expect((await call(t, 'DELETE', itemUrl(team.ws, 'blog-post', published.id), manager)).statusCode).toBe(
      200,
    );
  });

  it('refuses unknown stages and missing items with clear messages', async () => {
    const item = await post();
    const mars = await publish(t, publisher, team.ws, 'blog-post', item.id, 'mars');
    expect(mars.statusCode).toBe(404);
    expect(mars.json().error.message).toBe('Stage "mars" not found in this workspace');
    const missing = await publish(t, publisher, team.ws, 'blog-post', 'missing');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe('Instance not found');
    const badBody = await call(
      t,
      'POST',
      `${itemUrl(team.ws, 'blog-post', item.id)}/publish/live`,
      publisher,
      { publishRefs: 'yes' },
    );
    expect(badBody.statusCode).toBe(400);
  });

  it('publishes through POST /fun/publish/publish/ with a stage label or value', async () => {
    const item = await post();
    await approveBoth(item.id);
    const url = `/fun/publish/publish/?__marquee_workspace=${team.ws}`;
    const res = await call(t, 'POST', url, publisher, {
      id: item.id,
      schemaType: 'blog-post',
      destination: 'Staging',
      publishRefs: false,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ stage: 'staging', item: { publishStatus: { staging: 'CURRENT' } } });
    const nowhere = await call(t, 'POST', url, publisher, {
      id: item.id,
      schemaType: 'blog-post',
      destination: 'Nowhere',
      publishRefs: false,
    });
    expect(nowhere.statusCode).toBe(404);
    expect(nowhere.json().error.message).toBe('Stage "Nowhere" not found in this workspace');
    const missingField = await call(t, 'POST', url, publisher, { id: item.id, destination: 'Live' });
    expect(missingField.statusCode).toBe(400);
    expect(missingField.json().error.message).toMatch(/^schemaType: /);
  });

  it('refuses to publish an item saved with errors', async () => {
    const ws = await teamWorkspace(t, manager, {
      name: 'Incomplete',
      domains: ['marketing'],
      roles: {},
      people: {},
    });
    const draft = await createItem(t, manager, ws.ws, 'audience', { description: 'unnamed' });
    const res = await publish(t, manager, ws.ws, 'audience', draft.id);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe('This item is incomplete. Finish editing before publishing.');
  });
});

describe('publishing with references', () => {
  // File values must name an upload of the workspace (the server takes their facts from its record).
  const image = async (ws: string, name: string) => ({
    name,
    altText: name,
    masterImage: await uploadImage(t, manager, ws, await makeImage({ seed: name.length }), `${name}.png`),
  });
  const ref = (item: Item, label: string) => ({ id: item.id, schemaType: item.schema, label });

  async function setup(name: string) {
    const refs = await teamWorkspace(t, manager, {
      name,
      domains: ['marketing', 'assets'],
      roles: {
        mailer: role('Mailer', { canEdit: ['email'], canPublish: ['email'] }),
        curator: role('Curator', { mustApprove: [] }),
      },
      people: { 'Max Mailer': ['mailer'] },
    });
    const cat = await createItem(
      t,
      manager,
      refs.ws,
      'marquee-assets-image-set',
      await image(refs.ws, 'cat'),
    );
    const dog = await createItem(
      t,
      manager,
      refs.ws,
      'marquee-assets-image-set',
      await image(refs.ws, 'dog'),
    );
    const email = await createItem(t, manager, refs.ws, 'email', {
      name: 'Pets',
      subject: 'Pets',
      images: [ref(cat, 'Cat'), ref(dog, 'Dog')],
    });
    return { refs, cat, dog, email };
  }

  it('also publishes referenced items that are not CURRENT in the stage, in one go', async () => {
    const { refs, cat, dog, email } = await setup('Refs Publish');
    const catLive = (await publish(t, manager, refs.ws, 'marquee-assets-image-set', cat.id)).json().item
      .published.live;
    const res = await publish(t, manager, refs.ws, 'email', email.id, 'live', true);
    expect(res.statusCode).toBe(200);
    expect(res.json().published).toEqual([
      { schema: 'email', id: email.id, version: 1 },
      { schema: 'marquee-assets-image-set', id: dog.id, version: 1 },
    ]);
    expect((await getItem(t, manager, refs.ws, 'marquee-assets-image-set', dog.id)).publishStatus.live).toBe(
      'CURRENT',
    );
    expect((await getItem(t, manager, refs.ws, 'marquee-assets-image-set', cat.id)).published.live).toEqual(
      catLive,
    );
    await saveItem(t, manager, refs.ws, 'marquee-assets-image-set', cat.id, await image(refs.ws, 'cat 2'));
    const again = await publish(t, manager, refs.ws, 'email', email.id, 'live', true);
    expect(again.json().published.map((p: { id: string }) => p.id)).toEqual([email.id, cat.id]);
  });

  it('publishes only the item without publishRefs', async () => {
    const { refs, dog, email } = await setup('Refs Alone');
    const res = await publish(t, manager, refs.ws, 'email', email.id, 'live', false);
    expect(res.json().published).toHaveLength(1);
    expect((await getItem(t, manager, refs.ws, 'marquee-assets-image-set', dog.id)).publishStatus.live).toBe(
      'NOT_PUBLISHED',
    );
  });

  it('publishes nothing when a referenced item may not be published by the caller', async () => {
    const { refs, email } = await setup('Refs Forbidden');
    const mailer = refs.members['Max Mailer'];
    const res = await publish(t, mailer, refs.ws, 'email', email.id, 'live', true);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe(
      'Referenced item "Cat": You do not have permission to publish Image Sets',
    );
    expect((await getItem(t, manager, refs.ws, 'email', email.id)).publishStatus.live).toBe('NOT_PUBLISHED');
    expect((await publish(t, mailer, refs.ws, 'email', email.id, 'live', false)).statusCode).toBe(200);
  });

  it('publishes nothing when a referenced item still needs approval or is gone', async () => {
    const { refs, dog, email } = await setup('Refs Approval');
    const current = (await call(t, 'GET', `/api/v1/workspaces/${refs.ws}`, manager)).json();
    const roles = {
      ...current.roles,
      curator: role('Curator', { mustApprove: ['marquee-assets-image-set'] }),
    };
    expect((await call(t, 'PATCH', `/api/v1/workspaces/${refs.ws}`, manager, { roles })).statusCode).toBe(
      200,
    );
    const res = await publish(t, manager, refs.ws, 'email', email.id, 'live', true);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(
      'Referenced item "Cat": It needs approval before publishing. Waiting for: Curator',
    );
    expect((await getItem(t, manager, refs.ws, 'email', email.id)).publishStatus.live).toBe('NOT_PUBLISHED');

    const { refs: other, dog: otherDog, email: otherEmail } = await setup('Refs Gone');
    await call(t, 'DELETE', itemUrl(other.ws, 'marquee-assets-image-set', otherDog.id), manager);
    const gone = await publish(t, manager, other.ws, 'email', otherEmail.id, 'live', true);
    expect(gone.statusCode).toBe(409);
    expect(gone.json().error.message).toBe('Referenced item "Dog": it does not exist any more');
    expect(dog.id).not.toBe(otherDog.id);
  });
});

describe('comments', () => {
  it('adds comments with who and when and lists them oldest first', async () => {
    const item = await post();
    const url = `${itemUrl(team.ws, 'blog-post', item.id)}/comments`;
    const first = await call(t, 'POST', url, editor, { text: '  First draft  ' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({
      id: expect.any(String),
      at: expect.any(String),
      by: editor.id,
      byName: 'Eve Editor',
      text: 'First draft',
    });
    expect((await call(t, 'POST', url, legal, { text: 'Approver here' })).statusCode).toBe(201);
    const listed = (await call(t, 'GET', url, viewer)).json().comments;
    expect(listed.map((c: { text: string; byName: string }) => [c.byName, c.text])).toEqual([
      ['Eve Editor', 'First draft'],
      ['Leo Legal', 'Approver here'],
    ]);
  });

  it('refuses comments from read-only members, blank text and missing items', async () => {
    const item = await post();
    const url = `${itemUrl(team.ws, 'blog-post', item.id)}/comments`;
    const denied = await call(t, 'POST', url, viewer, { text: 'Hi' });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.message).toBe('You do not have permission to comment on Blog Posts');
    const blank = await call(t, 'POST', url, editor, { text: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error.message).toBe('text: Comment text is required');
    const missing = await call(t, 'POST', `${itemUrl(team.ws, 'blog-post', 'missing')}/comments`, editor, {
      text: 'Hi',
    });
    expect(missing.statusCode).toBe(404);
    expect((await call(t, 'GET', url, viewer)).json().comments).toEqual([]);
  });
});

describe('history', () => {
  it('lists versions newest first with this and previous version, and answers any version for compare', async () => {
    const item = await post(blogPostData({ name: 'v1' }));
    await saveItem(t, lou, team.ws, 'blog-post', item.id, blogPostData({ name: 'v2' }), 1);
    const url = `${itemUrl(team.ws, 'blog-post', item.id)}/history`;
    const versions = (await call(t, 'GET', url, viewer)).json().versions;
    expect(versions).toEqual([
      {
        id: '2',
        num: 2,
        at: expect.any(String),
        by: lou.id,
        byName: 'Lou Both',
        thisVersion: 2,
        previousVersion: 1,
      },
      {
        id: '1',
        num: 1,
        at: expect.any(String),
        by: editor.id,
        byName: 'Eve Editor',
        thisVersion: 1,
        previousVersion: null,
      },
    ]);
    const [one, two] = [
      (await call(t, 'GET', `${url}/1`, viewer)).json(),
      (await call(t, 'GET', `${url}/2`, viewer)).json(),
    ];
    expect([one.data.name, two.data.name]).toEqual(['v1', 'v2']);
    const missing = await call(t, 'GET', `${url}/3`, viewer);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe('Version not found');
    expect((await call(t, 'GET', `${url}/zero`, viewer)).statusCode).toBe(404);
    const none = await call(t, 'GET', `${itemUrl(team.ws, 'blog-post', 'never')}/history`, viewer);
    expect(none.statusCode).toBe(404);
    expect(none.json().error.message).toBe('Instance not found');
  });
});

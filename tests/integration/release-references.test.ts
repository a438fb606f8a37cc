import type { Release, ReleaseSummary } from '@shared/api/releases';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { makeImage } from '../fixtures/images';
import { uploadImage } from '../fixtures/media';
import { verifiedUser, type TestUser } from '../factories/users';
import { call, createItem, publish, role, saveItem, teamWorkspace, type Team } from '../factories/items';

/** GET …/releases/{id}/references: what 'Add the N items it references' offers on the release screen. */

let t: TestApp;
let manager: TestUser;
let stranger: TestUser;
let team: Team;
let seed = 10;

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Ref Manager' });
  team = await teamWorkspace(t, manager, {
    name: 'Referencing',
    domains: ['marketing', 'assets'],
    roles: { viewer: role('Viewer', {}) },
    people: {},
  });
  stranger = await verifiedUser(t, { name: 'Ref Stranger' });
});
afterAll(() => t.close());

const releasesUrl = (rest = '') => `/api/v1/workspaces/${team.ws}/releases${rest}`;
const imageSet = async (name: string) =>
  createItem(t, manager, team.ws, 'marquee-assets-image-set', {
    name,
    altText: name,
    masterImage: await uploadImage(t, manager, team.ws, await makeImage({ seed: ++seed }), `${name}.png`),
  });
const ref = (item: { id: string; schema: string }, label: string) => ({
  id: item.id,
  schemaType: item.schema,
  label,
});
async function newRelease(): Promise<ReleaseSummary> {
  const res = await call(t, 'POST', releasesUrl(), manager, { name: 'Pets', stage: 'live' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
async function addEntries(id: string, entries: object[]): Promise<Release> {
  const res = await call(t, 'POST', releasesUrl(`/${id}/entries`), manager, { entries });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
async function references(id: string) {
  const res = await call(t, 'GET', releasesUrl(`/${id}/references`), manager);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { references: { itemId: string; stageVersion: number | null }[] }).references;
}

describe('the references of a release’s entries', () => {
  it('answers those not current in the stage and not in the release, at the version each entry publishes', async () => {
    const [cat, dog, fox, owl] = await Promise.all(['Cat', 'Dog', 'Fox', 'Owl'].map((n) => imageSet(n)));
    expect((await publish(t, manager, team.ws, cat.schema, dog.id)).statusCode).toBe(200);
    expect((await publish(t, manager, team.ws, cat.schema, fox.id)).statusCode).toBe(200);
    // Fox changed after it went out: Modified in Live, so it is offered too.
    await saveItem(
      t,
      manager,
      team.ws,
      fox.schema,
      fox.id,
      { name: 'Fox', altText: 'Fox 2', masterImage: fox.data.masterImage },
      1,
    );
    const email = await createItem(t, manager, team.ws, 'email', {
      name: 'Pets',
      subject: 'Pets',
      images: [ref(cat, 'Cat'), ref(dog, 'Dog'), ref(fox, 'Fox'), ref(owl, 'Owl')],
    });
    const release = await newRelease();
    await addEntries(release.id, [
      { schema: 'email', itemId: email.id },
      { schema: owl.schema, itemId: owl.id },
    ]);
    // Dog is current in Live; Owl is in the release already.
    expect(await references(release.id)).toEqual([
      { schema: cat.schema, itemId: cat.id, label: 'Cat', currentVersion: 1, stageVersion: null },
      { schema: fox.schema, itemId: fox.id, label: 'Fox', currentVersion: 2, stageVersion: 1 },
    ]);

    // A newer version references something else; the pinned version 1 is what goes out.
    await saveItem(
      t,
      manager,
      team.ws,
      'email',
      email.id,
      { name: 'Pets', subject: 'Pets', images: [ref(owl, 'Owl')] },
      1,
    );
    await addEntries(release.id, [{ schema: 'email', itemId: email.id, version: 1 }]);
    expect((await references(release.id)).map((r) => r.itemId)).toEqual([cat.id, fox.id]);
    await addEntries(release.id, [{ schema: 'email', itemId: email.id, version: 2 }]);
    expect(await references(release.id)).toEqual([]);
  });

  it('leaves out what an unpublish entry references, and answers nothing for an empty release', async () => {
    const cat = await imageSet('Lynx');
    const email = await createItem(t, manager, team.ws, 'email', {
      name: 'Cats',
      subject: 'Cats',
      images: [ref(cat, 'Lynx')],
    });
    const release = await newRelease();
    expect(await references(release.id)).toEqual([]);
    await addEntries(release.id, [{ schema: 'email', itemId: email.id, action: 'unpublish' }]);
    expect(await references(release.id)).toEqual([]);
  });

  it('answers 404 for a release that does not exist, and to someone outside the workspace', async () => {
    const missing = await call(t, 'GET', releasesUrl('/nosuchrelease/references'), manager);
    expect(missing.statusCode).toBe(404);
    const release = await newRelease();
    const outside = await call(t, 'GET', releasesUrl(`/${release.id}/references`), stranger);
    expect(outside.statusCode).toBe(404);
    expect(outside.json().error.message).toBe('Workspace not found');
  });
});

import { fileUrl } from '@shared/media/urls';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { blogPostData, call, createItem, itemsUrl, teamWorkspace, type Team } from '../factories/items';

let t: TestApp;
let manager: TestUser;
let team: Team;
beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Mona Manager' });
  team = await teamWorkspace(t, manager, {
    name: 'Content Rules',
    domains: ['blogging', 'marketing', 'assets'],
    roles: {},
    people: {},
  });
});
afterAll(() => t.close());

describe('rich text on save', () => {
  it('stores only what the sanitiser lets through', async () => {
    const body =
      '<h2>Launch</h2><script>alert(1)</script><p onclick="steal()">Read <a href="javascript:alert(1)">this</a></p>' +
      '<img src="https://evil.example/x.png" onerror="alert(1)">';
    const item = await createItem(t, manager, team.ws, 'blog-post', blogPostData({ body }));
    expect(item.data.body).toBe('<h2>Launch</h2><p>Read <a>this</a></p>');
  });

  it('records inline images of the workspace in _references', async () => {
    const src = fileUrl(team.ws, 'abcdef0123456789abcd.png');
    const body = `<p>Look:</p><img src="${src}" alt="A cat" data-ref-id="img-item-1" data-ref-schema-type="marquee-assets-image-set">`;
    const item = await createItem(t, manager, team.ws, 'blog-post', blogPostData({ body }));
    expect(item.data.body).toContain('data-ref-id="img-item-1"');
    expect(item._references['img-item-1']).toEqual({
      schemaType: 'marquee-assets-image-set',
      label: 'A cat',
      fieldKey: 'body',
      thumbId: 'abcdef0123456789abcd.png',
    });
  });

  it('drops inline images of another workspace', async () => {
    const body = `<p>x</p><img src="${fileUrl('someone-else', 'abcdef0123456789abcd.png')}" data-ref-id="x" data-ref-schema-type="marquee-assets-image-set">`;
    const item = await createItem(t, manager, team.ws, 'blog-post', blogPostData({ body }));
    expect(item.data.body).toBe('<p>x</p>');
    expect(item._references).toEqual({});
  });
});

describe('image insertion rules for events (spec §5)', () => {
  const event = (copy: object[]) => ({
    name: 'Summer Fair',
    startTime: '2027-06-01T16:00:00.000Z',
    startTime_tz: 'America/New_York',
    endTime: '2027-06-03T02:00:00.000Z',
    endTime_tz: 'America/New_York',
    copy,
  });

  it('refuses copy that starts before the event, naming the event start', async () => {
    const early = await createItem(t, manager, team.ws, 'copy', {
      name: 'Early bird',
      text: 'Come early',
      startTime: '2027-05-30T12:00:00.000Z',
    });
    const res = await call(t, 'POST', itemsUrl(team.ws, 'event'), manager, {
      data: event([{ id: early.id, schemaType: 'copy', label: 'Early bird' }]),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('Start time must be after Tue Jun 1st, 2027 12:00 PM.');
    expect(res.json().error.details.errors).toEqual({
      'copy.0': 'Start time must be after Tue Jun 1st, 2027 12:00 PM.',
    });
  });

  it('refuses copy that ends after the event', async () => {
    const late = await createItem(t, manager, team.ws, 'copy', {
      name: 'Late',
      text: 'Stay late',
      endTime: '2027-06-04T00:00:00.000Z',
    });
    const res = await call(t, 'POST', itemsUrl(team.ws, 'event'), manager, {
      data: event([{ id: late.id, schemaType: 'copy', label: 'Late' }]),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('End time must be before Wed Jun 2nd, 2027 10:00 PM.');
  });

  it('accepts copy inside the event window', async () => {
    const fits = await createItem(t, manager, team.ws, 'copy', {
      name: 'On time',
      text: 'Welcome',
      startTime: '2027-06-01T17:00:00.000Z',
      endTime: '2027-06-02T17:00:00.000Z',
    });
    const res = await call(t, 'POST', itemsUrl(team.ws, 'event'), manager, {
      data: event([{ id: fits.id, schemaType: 'copy', label: 'On time' }]),
    });
    expect(res.statusCode).toBe(201);
  });
});

describe('subscription usage', () => {
  it('counts the items of the workspace', async () => {
    const res = await call(t, 'GET', `/api/v1/workspaces/${team.ws}/subscription`, manager);
    expect(res.json().usage.items).toBeGreaterThanOrEqual(5);
    const before = res.json().usage.items;
    await createItem(t, manager, team.ws, 'blog-post', blogPostData());
    expect(
      (await call(t, 'GET', `/api/v1/workspaces/${team.ws}/subscription`, manager)).json().usage.items,
    ).toBe(before + 1);
  });
});

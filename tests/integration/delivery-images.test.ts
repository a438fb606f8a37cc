import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { makeImage } from '../fixtures/images';
import { uploadImage } from '../fixtures/media';
import { verifiedUser, type TestUser } from '../factories/users';
import { blogPostData, call, createItem, publish, teamWorkspace, type Team } from '../factories/items';

/** How websites use the image links of delivered content: the file itself, and the sizes a page needs. */

let t: TestApp;
let manager: TestUser;
let team: Team;
let key: string;

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Ivy Images' });
  team = await teamWorkspace(t, manager, {
    name: 'Site Images',
    domains: ['blogging', 'assets'],
    roles: {},
    people: {},
  });
  const created = await call(t, 'POST', `/api/v1/workspaces/${team.ws}/api-keys`, manager, {
    name: 'Website',
    stages: ['live'],
  });
  key = created.json().key;
});
afterAll(() => t.close());

const WIDTH = 1600;
const HEIGHT = 900;

interface DeliveredFile {
  storageName: string;
  publicUrl: string;
  thumbnailUrl: string;
  imageUrl: string;
}

/** A published blog post with a 1600 × 900 cover; the cover as uploaded, stored and delivered. */
async function publishedCover(seed: number) {
  const bytes = await makeImage({ width: WIDTH, height: HEIGHT, seed });
  const file = await uploadImage(t, manager, team.ws, bytes, `cover-${seed}.png`);
  const post = await createItem(
    t,
    manager,
    team.ws,
    'blog-post',
    blogPostData({ name: `Cover ${seed}`, slug: `cover-${seed}`, coverImage: file }),
  );
  expect((await publish(t, manager, team.ws, 'blog-post', post.id)).statusCode).toBe(200);
  const delivered = await t.app.inject({
    method: 'GET',
    url: `/delivery/v1/${team.ws}/live/items/blog-post/${post.id}`,
    headers: { authorization: `Bearer ${key}` },
  });
  expect(delivered.statusCode).toBe(200);
  return { bytes, file, post, cover: delivered.json().data.coverImage as DeliveredFile };
}

/** A delivered link asked for without a session or any header of the app's, as a website's visitor asks. */
const load = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: url.replace(t.config.publicUrl, ''), headers });

const withVariant = (url: string, variant: Record<string, string | number>) => {
  const out = new URL(url);
  for (const [name, value] of Object.entries(variant)) out.searchParams.set(name, String(value));
  return out.toString();
};

const sizeOf = async (body: Buffer) => {
  const meta = await sharp(body).metadata();
  return { width: meta.width, height: meta.height, format: meta.format };
};

describe('delivered image links', () => {
  it("answer publicUrl as the file's own absolute signed link, which loads the file without a session", async () => {
    // publicUrl was the members' relative URL, answering 401 to a website.
    const { bytes, file, cover } = await publishedCover(1);
    expect((await load(file.publicUrl)).statusCode).toBe(401);
    expect(cover.publicUrl.startsWith(`${t.config.publicUrl}/fun/emailImage/?`)).toBe(true);
    const query = new URL(cover.publicUrl).searchParams;
    expect(query.get('id')).toBe(file.storageName);
    expect(query.has('w')).toBe(false);
    // The three links of a file value share its one signature.
    expect(new URL(cover.imageUrl).searchParams.get('sig')).toBe(query.get('sig'));

    const original = await load(cover.publicUrl);
    expect(original.statusCode).toBe(200);
    expect(original.headers['content-type']).toBe('image/png');
    expect(original.rawPayload.equals(bytes)).toBe(true);
    expect(original.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(original.headers['access-control-allow-origin']).toBe('*');
    expect(original.headers['cache-control']).toBe('public, max-age=3600, stale-while-revalidate=86400');
    // The file as uploaded is one answer whatever the browser accepts.
    expect(original.headers.vary).toBeUndefined();
    const again = await load(cover.publicUrl, { 'if-none-match': String(original.headers.etag) });
    expect(again.statusCode).toBe(304);
  });

  it('load at each width a srcset asks for, each made once and then read from the store', async () => {
    // Every link was signed with its width: any other width answered 404.
    const { cover } = await publishedCover(2);
    for (const w of [32, 320, 640, 1200, WIDTH]) {
      const url = `${cover.publicUrl}&w=${w}`;
      const first = await load(url);
      expect(first.statusCode, url).toBe(200);
      expect(await sizeOf(first.rawPayload)).toEqual({
        width: w,
        height: Math.round((HEIGHT * w) / WIDTH),
        format: 'png',
      });
      expect(first.headers['x-marquee-cache']).toBe('miss');
      expect(first.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(first.headers['cache-control']).toBe('public, max-age=3600, stale-while-revalidate=86400');
      expect(first.headers.vary).toBe('Accept');
      const repeat = await load(url);
      expect(repeat.headers['x-marquee-cache']).toBe('hit');
      expect(repeat.rawPayload.equals(first.rawPayload)).toBe(true);
    }
    // The sized links take another width the same way.
    const narrower = await load(withVariant(cover.imageUrl, { w: 480 }));
    expect((await sizeOf(narrower.rawPayload)).width).toBe(480);
    // Never enlarged.
    expect((await sizeOf((await load(`${cover.publicUrl}&w=2400`)).rawPayload)).width).toBe(WIDTH);
  });

  it('fit, encode and compress as asked', async () => {
    const { cover } = await publishedCover(3);
    const variant = async (asked: Record<string, string | number>) => {
      const res = await load(withVariant(cover.publicUrl, asked));
      expect(res.statusCode, JSON.stringify(asked)).toBe(200);
      return res;
    };
    const square = { w: 400, h: 400 };
    expect(await sizeOf((await variant(square)).rawPayload)).toMatchObject({ width: 400, height: 225 });
    for (const fit of ['cover', 'contain', 'fill'])
      expect(await sizeOf((await variant({ ...square, fit })).rawPayload)).toMatchObject({
        width: 400,
        height: 400,
      });
    expect(await sizeOf((await variant({ ...square, fit: 'outside' })).rawPayload)).toMatchObject({
      width: 711,
      height: 400,
    });

    const low = await variant({ w: 800, format: 'jpeg', q: 20 });
    const high = await variant({ w: 800, format: 'jpeg', q: 95 });
    expect(low.headers['content-type']).toBe('image/jpeg');
    expect(low.headers.vary).toBeUndefined();
    expect(low.rawPayload.length).toBeLessThan(high.rawPayload.length);
    expect(await sizeOf(low.rawPayload)).toEqual({ width: 800, height: 450, format: 'jpeg' });
    const webp = await variant({ w: 800, format: 'webp', q: 50 });
    expect(webp.headers['content-type']).toBe('image/webp');
    // What changes no pixel shares the variant it equals: PNG is lossless, a fit needs both sides.
    const png = await variant({ w: 300 });
    expect((await variant({ w: 300, q: 10 })).headers.etag).toBe(png.headers.etag);
    expect((await variant({ w: 300, fit: 'cover' })).headers.etag).toBe(png.headers.etag);
    expect((await variant({ w: 300, fit: 'cover' })).headers['x-marquee-cache']).toBe('hit');
  });

  it.each([
    ['w=8', 'w and h must be between 16 and 2400'],
    ['w=2401', 'w and h must be between 16 and 2400'],
    ['h=0', 'w and h must be between 16 and 2400'],
    ['w=', 'w and h must be between 16 and 2400'],
    ['w=abc', 'w and h must be whole numbers of pixels'],
    ['w=12.5', 'w and h must be whole numbers of pixels'],
    ['w=320&w=640', 'w and h must be whole numbers of pixels'],
    ['fit=crop', 'fit must be one of inside, cover, contain, fill, outside'],
    ['format=gif', 'format must be one of webp, avif, jpeg, png'],
    ['q=0', 'q must be a whole number from 1 to 100'],
    ['q=101', 'q must be a whole number from 1 to 100'],
    ['q=high', 'q must be a whole number from 1 to 100'],
  ])('refuse %s with a 400 saying why', async (asked, message) => {
    const { cover } = await coverOnce();
    const res = await load(`${cover.publicUrl}&${asked}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain(message);
  });

  it('make a variant once when its first requests arrive together, leaving one whole file in the store', async () => {
    const { file, cover } = await publishedCover(4);
    const url = `${cover.publicUrl}&w=500&format=webp`;
    const answers = await Promise.all(Array.from({ length: 6 }, () => load(url)));
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      expect(answer.rawPayload.equals(answers[0].rawPayload)).toBe(true);
    }
    expect(answers.filter((answer) => answer.headers['x-marquee-cache'] === 'miss')).toHaveLength(1);
    const cached = path.join(t.dataDir, 'assets', team.ws, '_resized', file.storageName);
    expect(fs.readdirSync(cached)).toEqual(['w500.webp']);
    expect(fs.readFileSync(path.join(cached, 'w500.webp')).equals(answers[0].rawPayload)).toBe(true);
    expect(await sizeOf(answers[0].rawPayload)).toMatchObject({ width: 500, format: 'webp' });
  });

  it('still load links signed for one size, as sent emails and cached pages hold them, at that size only', async () => {
    const { file, post } = await publishedCover(5);
    /** The link as it was signed while the signature named the size. */
    const sizedLink = (w: number, item?: string) => {
      const named = item ? ['live', 'blog-post', item] : [];
      const sig = crypto
        .createHmac('sha256', `email-image:${t.config.secret}`)
        .update([team.ws, file.storageName, String(w), '', ...named].join('\n'))
        .digest('base64url');
      const query = new URLSearchParams({ id: file.storageName, w: String(w), __marquee_workspace: team.ws });
      if (item)
        for (const [name, value] of [
          ['stage', 'live'],
          ['schema', 'blog-post'],
          ['item', item],
        ])
          query.set(name, value);
      query.set('sig', sig);
      return `/fun/emailImage/?${query}`;
    };
    const cachedPage = await load(sizedLink(400, post.id));
    expect(cachedPage.statusCode).toBe(200);
    expect((await sizeOf(cachedPage.rawPayload)).width).toBe(400);
    const sentEmail = await load(sizedLink(1200));
    expect(sentEmail.statusCode).toBe(200);
    expect(sentEmail.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await sizeOf(sentEmail.rawPayload)).width).toBe(1200);
    // Their signature names the size: another is no link.
    expect(
      (await load(withVariant(`${t.config.publicUrl}${sizedLink(400, post.id)}`, { w: 800 }))).statusCode,
    ).toBe(404);
    expect((await load(`${sizedLink(1200)}&h=300`)).statusCode).toBe(404);
  });
});

let shared: ReturnType<typeof publishedCover> | undefined;
/** One published cover for the tests that only read it. */
const coverOnce = () => (shared ??= publishedCover(6));

import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { createWorkspace } from '../factories/workspaces';
import { makeImage } from '../fixtures/images';
import { startFakeVision, uploadImage } from '../fixtures/media';

let t: TestApp;
let owner: TestUser;
let outsider: TestUser;
let ws: string;
beforeAll(async () => {
  t = await createTestApp();
  owner = await verifiedUser(t, { name: 'Mona Media' });
  outsider = await verifiedUser(t, { name: 'Olaf Outsider' });
  ws = (await createWorkspace(t.app, owner, 'Media Checks')).id;
});
afterAll(() => t.close());

const resize = (query: string, user?: TestUser, accept?: string) =>
  t.app.inject({
    url: `/fun/imageResize/?${query}`,
    headers: { ...(user?.auth ?? {}), ...(accept ? { accept } : {}) },
  });
const sanity = (query: string, user?: TestUser) =>
  t.app.inject({ url: `/fun/sanity/?${query}`, headers: user?.auth ?? {} });

describe('GET /fun/imageResize/', () => {
  it('makes a WebP thumbnail w=400 once, then serves the cached copy', async () => {
    const file = await uploadImage(
      t,
      owner,
      ws,
      await makeImage({ seed: 31, width: 1200, height: 800, format: 'jpeg' }),
    );
    const query = `id=${file.storageName}&w=400&__marquee_workspace=${ws}`;
    const cold = await resize(query, owner, 'image/avif,image/webp,*/*');
    expect(cold.statusCode).toBe(200);
    expect(cold.headers['content-type']).toBe('image/webp');
    expect(cold.headers['x-marquee-cache']).toBe('miss');
    expect(cold.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(cold.headers.vary).toBe('Accept');
    expect(await sharp(cold.rawPayload).metadata()).toMatchObject({
      format: 'webp',
      width: 400,
      height: 267,
    });
    const cachedFile = path.join(t.dataDir, 'assets', ws, '_resized', file.storageName, 'w400.webp');
    expect(fs.existsSync(cachedFile)).toBe(true);

    const warm = await resize(query, owner, 'image/webp');
    expect(warm.headers['x-marquee-cache']).toBe('hit');
    expect(warm.rawPayload.equals(cold.rawPayload)).toBe(true);
    const notModified = await t.app.inject({
      url: `/fun/imageResize/?${query}`,
      headers: { ...owner.auth, accept: 'image/webp', 'if-none-match': warm.headers.etag as string },
    });
    expect(notModified.statusCode).toBe(304);
  });

  it('answers h=100 for the upload table, AVIF when only AVIF is accepted and the original family otherwise', async () => {
    const png = await uploadImage(t, owner, ws, await makeImage({ seed: 32, width: 600, height: 300 }));
    const avif = await resize(
      `id=${png.storageName}&h=100&__marquee_workspace=${ws}`,
      owner,
      'image/avif,*/*',
    );
    expect(avif.headers['content-type']).toBe('image/avif');
    expect(await sharp(avif.rawPayload).metadata()).toMatchObject({ height: 100, width: 200 });
    const plain = await resize(`id=${png.storageName}&h=100&__marquee_workspace=${ws}`, owner, '*/*');
    expect(plain.headers['content-type']).toBe('image/png');
    const jpeg = await uploadImage(t, owner, ws, await makeImage({ seed: 33, format: 'jpeg' }), 'p.jpg');
    const jpegThumb = await resize(`id=${jpeg.storageName}&w=600&__marquee_workspace=${ws}`, owner);
    expect(jpegThumb.headers['content-type']).toBe('image/jpeg');
    // Never enlarged: a 320 px wide original stays 320 px wide.
    expect((await sharp(jpegThumb.rawPayload).metadata()).width).toBe(320);
  });

  it.each([
    ['w=15', 'w: w and h must be between 16 and 2400'],
    ['w=2401', 'w: w and h must be between 16 and 2400'],
    ['h=abc', 'h: w and h must be whole numbers of pixels'],
    ['w=10.5', 'w: w and h must be whole numbers of pixels'],
    ['', 'w or h is required'],
  ])('refuses %s with 400', async (size, message) => {
    const file = await uploadImage(t, owner, ws, await makeImage({ seed: 34, width: 64, height: 64 }));
    const res = await resize(`id=${file.storageName}&${size}&__marquee_workspace=${ws}`, owner);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(message);
  });

  it('answers 400 without the workspace or id, 404 for unknown files', async () => {
    expect((await resize('id=x&w=100', owner)).json().error.message).toBe(
      '__marquee_workspace: __marquee_workspace is required',
    );
    expect((await resize(`w=100&__marquee_workspace=${ws}`, owner)).json().error.message).toBe(
      'id: id is required',
    );
    const unknown = await resize(`id=AAAAAAAAAAAAAAAAAAAAAAAA.png&w=100&__marquee_workspace=${ws}`, owner);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('File not found');
    const traversal = await resize(`id=../../marquee-secret&w=100&__marquee_workspace=${ws}`, owner);
    expect(traversal.statusCode).toBe(404);
  });

  it('answers 401 to anonymous callers and 404 to other workspaces', async () => {
    const file = await uploadImage(t, owner, ws, await makeImage({ seed: 35, width: 64, height: 64 }));
    const query = `id=${file.storageName}&w=100&__marquee_workspace=${ws}`;
    expect((await resize(query)).statusCode).toBe(401);
    const other = await resize(query, outsider);
    expect(other.statusCode).toBe(404);
    expect(other.json().error.message).toBe('Workspace not found');
    const theirs = (await createWorkspace(t.app, outsider, 'Elsewhere')).id;
    const cross = await resize(`id=${file.storageName}&w=100&__marquee_workspace=${theirs}`, outsider);
    expect(cross.statusCode).toBe(404);
    expect(cross.json().error.message).toBe('File not found');
  });
});

describe('GET /fun/sanity/ with the local analyser', () => {
  it('finds a re-encoded, resized copy as a near-duplicate and the same bytes as a duplicate', async () => {
    const fresh = (await createWorkspace(t.app, owner, 'Duplicates')).id;
    const original = await uploadImage(
      t,
      owner,
      fresh,
      await makeImage({ seed: 41, width: 800, height: 600 }),
      'original.png',
    );
    const copy = await uploadImage(
      t,
      owner,
      fresh,
      await makeImage({ seed: 41, width: 400, height: 300, format: 'jpeg', quality: 60 }),
      'copy.jpg',
    );
    const same = await uploadImage(
      t,
      owner,
      fresh,
      await makeImage({ seed: 41, width: 800, height: 600 }),
      'same.png',
    );
    const different = await uploadImage(
      t,
      owner,
      fresh,
      await makeImage({ seed: 99, width: 800, height: 600 }),
      'other.png',
    );

    const res = await sanity(`id=${original.storageName}&__marquee_workspace=${fresh}`, owner);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const pages = body.webDetection.pagesWithMatchingImages;
    expect(pages).toContainEqual({ url: same.publicUrl, pageTitle: 'Duplicate: file "same.png"' });
    const near = pages.find((p: { url: string }) => p.url === copy.publicUrl);
    expect(near.pageTitle).toMatch(/^(Duplicate|Near-duplicate \(\d+ of 64 bits differ\)): file "copy.jpg"$/);
    expect(pages.map((p: { url: string }) => p.url)).not.toContain(different.publicUrl);

    const unique = (await sanity(`id=${different.storageName}&__marquee_workspace=${fresh}`, owner)).json();
    expect(unique.webDetection.pagesWithMatchingImages).toEqual([]);
  });

  it("reports a match used by an image set as that item's page", async () => {
    const fresh = (await createWorkspace(t.app, owner, 'Duplicates In Items')).id;
    const domains = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/workspaces/${fresh}`,
      headers: owner.auth,
      payload: { basics: { domains: ['assets', 'blogging'] } },
    });
    expect(domains.statusCode).toBe(200);
    const picture = await makeImage({ seed: 44, width: 500, height: 400 });
    const used = await uploadImage(t, owner, fresh, picture, 'used.png');
    const created = await t.app.inject({
      method: 'POST',
      url: `/fun/items/marquee-assets-image-set?__marquee_workspace=${fresh}`,
      headers: owner.auth,
      payload: { data: { masterImage: used, name: 'Summer Hero', altText: 'A beach' } },
    });
    expect(created.statusCode).toBe(201);
    const upload = await uploadImage(t, owner, fresh, picture, 'new.png');
    const body = (await sanity(`id=${upload.storageName}&__marquee_workspace=${fresh}`, owner)).json();
    expect(body.webDetection.pagesWithMatchingImages).toEqual([
      {
        url: `/${fresh}/assets/marquee-assets-image-set/${created.json().id}`,
        pageTitle: 'Duplicate: Image Set "Summer Hero"',
      },
    ]);
  });

  it('labels from metadata, and never invents safe-search ratings', async () => {
    const photo = await sharp(await makeImage({ seed: 42, width: 640, height: 480, format: 'jpeg' }))
      .withExif({ IFD0: { Make: 'Marquee Optics', Model: 'MQ-1' } })
      .jpeg()
      .toBuffer();
    const file = await uploadImage(t, owner, ws, photo, 'camera.jpg');
    const body = (await sanity(`id=${file.storageName}&__marquee_workspace=${ws}`, owner)).json();
    expect(body.analysedBy).toBe('local');
    expect(body.webDetection.bestGuessLabels).toEqual([{ label: 'landscape jpeg image' }]);
    expect(body.webDetection.webEntities.map((e: { description: string }) => e.description)).toEqual([
      'jpeg',
      'landscape',
      '640x480',
      'low resolution',
      'camera: Marquee Optics MQ-1',
    ]);
    expect(body.safeSearchDetection).toEqual({
      adult: 'UNKNOWN',
      spoof: 'UNKNOWN',
      medical: 'UNKNOWN',
      violence: 'UNKNOWN',
      racy: 'UNKNOWN',
      _issues: [
        'Safe search not analysed: no image analysis service is configured (set GOOGLE_VISION_API_KEY)',
      ],
    });
    expect(body._issues).toEqual([
      "Matching images on the public internet not checked: compared with this workspace's own images only",
    ]);
    const record = (await t.app.inject({ url: `${file.publicUrl}/record`, headers: owner.auth })).json();
    expect(record.sanityResults).toEqual(body);
  });

  it('answers 401, 404 for other workspaces and unknown files, 400 without an id', async () => {
    const file = await uploadImage(t, owner, ws, await makeImage({ seed: 43, width: 64, height: 64 }));
    expect((await sanity(`id=${file.storageName}&__marquee_workspace=${ws}`)).statusCode).toBe(401);
    const other = await sanity(`id=${file.storageName}&__marquee_workspace=${ws}`, outsider);
    expect(other.statusCode).toBe(404);
    expect(other.json().error.message).toBe('Workspace not found');
    const unknown = await sanity(`id=nope&__marquee_workspace=${ws}`, owner);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('File not found');
    const missing = await sanity(`__marquee_workspace=${ws}`, owner);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toBe('id: id is required');
  });
});

describe('GET /fun/sanity/ through Google Cloud Vision', () => {
  const VISION_ANSWER = {
    responses: [
      {
        webDetection: {
          webEntities: [
            { entityId: '/m/01yrx', score: 0.91, description: 'Cat' },
            { entityId: '/m/0jbk', score: 0.5 },
          ],
          fullMatchingImages: [{ url: 'https://cdn.example.com/cat.jpg' }],
          pagesWithMatchingImages: [
            {
              url: 'https://example.com/cats',
              pageTitle: 'Lovely <b>cats</b> &amp; kittens',
              fullMatchingImages: [{ url: 'https://cdn.example.com/cat.jpg' }],
            },
          ],
          visuallySimilarImages: [{ url: 'https://cdn.example.com/other.jpg' }],
          bestGuessLabels: [{ label: 'tabby cat', languageCode: 'en' }],
        },
        safeSearchAnnotation: {
          adult: 'VERY_UNLIKELY',
          spoof: 'UNLIKELY',
          medical: 'POSSIBLE',
          violence: 'LIKELY',
          racy: 'VERY_LIKELY',
        },
      },
    ],
  };

  it('sends WEB_DETECTION and SAFE_SEARCH_DETECTION with the key, maps the answer and stores it', async () => {
    const vision = await startFakeVision('vision-test-key', () => ({ status: 200, body: VISION_ANSWER }));
    const v = await createTestApp({ googleVisionApiKey: 'vision-test-key', googleVisionUrl: vision.url });
    try {
      const user = await verifiedUser(v);
      const wsId = (await createWorkspace(v.app, user, 'Vision')).id;
      const file = await uploadImage(
        v,
        user,
        wsId,
        await makeImage({ seed: 51, width: 3000, height: 2000, format: 'jpeg' }),
      );
      const res = await v.app.inject({
        url: `/fun/sanity/?id=${file.storageName}&__marquee_workspace=${wsId}`,
        headers: user.auth,
      });
      expect(res.statusCode).toBe(200);
      const { analysedAt, ...body } = res.json();
      expect(Date.parse(analysedAt)).not.toBeNaN();
      expect(body).toEqual({
        _issues: [],
        webDetection: {
          pagesWithMatchingImages: [{ url: 'https://example.com/cats', pageTitle: 'Lovely cats & kittens' }],
          bestGuessLabels: [{ label: 'tabby cat' }],
          webEntities: [{ description: 'Cat', score: 0.91 }],
        },
        safeSearchDetection: {
          adult: 'VERY_UNLIKELY',
          spoof: 'UNLIKELY',
          medical: 'POSSIBLE',
          violence: 'LIKELY',
          racy: 'VERY_LIKELY',
          _issues: [],
        },
        analysedBy: 'google-vision',
      });
      expect(vision.seen).toHaveLength(1);
      const [request] = vision.seen[0].body.requests;
      expect(request.features.map((f) => f.type).sort()).toEqual(['SAFE_SEARCH_DETECTION', 'WEB_DETECTION']);
      // The image goes as a bounded copy, not the 3000 px original.
      const sent = await sharp(Buffer.from(request.image.content as string, 'base64')).metadata();
      expect(Math.max(sent.width ?? 0, sent.height ?? 0)).toBe(1600);
      const record = (await v.app.inject({ url: `${file.publicUrl}/record`, headers: user.auth })).json();
      expect(record.sanityResults.analysedBy).toBe('google-vision');
    } finally {
      await v.close();
      await vision.close();
    }
  });

  it("falls back to the local analyser, naming Vision's error, when Vision refuses", async () => {
    const vision = await startFakeVision('right-key', () => ({ status: 200, body: VISION_ANSWER }));
    const v = await createTestApp({ googleVisionApiKey: 'wrong-key', googleVisionUrl: vision.url });
    try {
      const user = await verifiedUser(v);
      const wsId = (await createWorkspace(v.app, user, 'Vision Broken')).id;
      const file = await uploadImage(v, user, wsId, await makeImage({ seed: 52 }));
      const res = await v.app.inject({
        url: `/fun/sanity/?id=${file.storageName}&__marquee_workspace=${wsId}`,
        headers: user.auth,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().analysedBy).toBe('local');
      expect(res.json()._issues[0]).toBe(
        'Google Cloud Vision answered 400: API key not valid. Please pass a valid API key.. Analysed locally instead.',
      );
      expect(res.json().safeSearchDetection.adult).toBe('UNKNOWN');
    } finally {
      await v.close();
      await vision.close();
    }
  });

  it('reports a per-image Vision error as an issue and unknown ratings, never guesses', async () => {
    const vision = await startFakeVision('k', () => ({
      status: 200,
      body: { responses: [{ error: { code: 3, message: 'Bad image data.' } }] },
    }));
    const v = await createTestApp({ googleVisionApiKey: 'k', googleVisionUrl: vision.url });
    try {
      const user = await verifiedUser(v);
      const wsId = (await createWorkspace(v.app, user, 'Vision Partial')).id;
      const file = await uploadImage(v, user, wsId, await makeImage({ seed: 53 }));
      const body = (
        await v.app.inject({
          url: `/fun/sanity/?id=${file.storageName}&__marquee_workspace=${wsId}`,
          headers: user.auth,
        })
      ).json();
      expect(body._issues).toEqual([
        'Google Cloud Vision: Bad image data.',
        'Google Cloud Vision returned no web detection',
      ]);
      expect(body.safeSearchDetection).toMatchObject({ adult: 'UNKNOWN', racy: 'UNKNOWN' });
    } finally {
      await v.close();
      await vision.close();
    }
  });
});

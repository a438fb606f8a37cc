import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { newUserInput, verifiedUser, type TestUser } from '../factories/users';
import { createWorkspace } from '../factories/workspaces';
import { makeImage, pngBomb } from '../fixtures/images';
import { multipartFile } from '../fixtures/multipart';
import { uploadFile, uploadImage } from '../fixtures/media';

let t: TestApp;
let owner: TestUser;
let outsider: TestUser;
let ws: string;
beforeAll(async () => {
  t = await createTestApp({ uploadMaxBytes: 1_000_000, imageMaxPixels: 4_000_000 });
  owner = await verifiedUser(t, { name: 'Olga Owner' });
  outsider = await verifiedUser(t, { name: 'Otto Outsider' });
  ws = (await createWorkspace(t.app, owner, 'Media Files')).id;
});
afterAll(() => t.close());

const md5 = (b: Buffer) => crypto.createHash('md5').update(b).digest('base64');

describe('uploading a file', () => {
  it('stores the image under DATA_DIR/assets/{workspace} and answers the file record', async () => {
    const png = await makeImage({ seed: 11 });
    const res = await uploadFile(t, owner, ws, png, 'Spring hero.png');
    expect(res.statusCode).toBe(201);
    const record = res.json();
    expect(record).toMatchObject({
      name: 'Spring hero.png',
      size: png.length,
      contentType: 'image/png',
      md5Hash: md5(png),
      focusX: 0.5,
      focusY: 0.5,
      sanityResults: null,
    });
    expect(Object.keys(record).sort()).toEqual([
      'contentType',
      'focusX',
      'focusY',
      'md5Hash',
      'name',
      'publicUrl',
      'sanityResults',
      'size',
      'storageName',
    ]);
    expect(record.storageName).toMatch(/^[A-Za-z0-9]{24}\.png$/);
    expect(record.publicUrl).toBe(`/api/v1/workspaces/${ws}/files/${record.storageName}`);
    const onDisk = path.join(t.dataDir, 'assets', ws, record.storageName);
    expect(fs.readFileSync(onDisk).equals(png)).toBe(true);
    expect(fs.readdirSync(path.join(t.dataDir, 'tmp', 'uploads'))).toEqual([]);
  });

  it('serves the content at publicUrl to members, with cache headers and 304 on a matching ETag', async () => {
    const jpeg = await makeImage({ seed: 12, format: 'jpeg' });
    const record = await uploadImage(t, owner, ws, jpeg, 'photo.jpg');
    expect(record.storageName).toMatch(/\.jpg$/);
    const res = await t.app.inject({ url: record.publicUrl, headers: owner.auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(res.rawPayload.equals(jpeg)).toBe(true);
    const again = await t.app.inject({
      url: record.publicUrl,
      headers: { ...owner.auth, 'if-none-match': res.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
    const meta = await t.app.inject({ url: `${record.publicUrl}/record`, headers: owner.auth });
    expect(meta.json()).toMatchObject({
      storageName: record.storageName,
      contentType: 'image/jpeg',
      name: 'photo.jpg',
    });
  });

  it.each(['webp', 'gif', 'tiff', 'avif'] as const)('accepts %s images', async (format) => {
    const record = await uploadImage(
      t,
      owner,
      ws,
      await makeImage({ seed: 13, format, width: 64, height: 48 }),
      `x.${format}`,
    );
    expect(record.contentType).toBe(format === 'tiff' ? 'image/tiff' : `image/${format}`);
  });

  it('sniffs the type from the bytes, not the name or the declared type', async () => {
    const png = await makeImage({ seed: 14, width: 40, height: 40 });
    const misnamed = await uploadFile(t, owner, ws, png, 'looks-like.jpg', 'image/jpeg');
    expect(misnamed.statusCode).toBe(201);
    expect(misnamed.json()).toMatchObject({ contentType: 'image/png', name: 'looks-like.jpg' });
    expect(misnamed.json().storageName).toMatch(/\.png$/);

    const text = await uploadFile(
      t,
      owner,
      ws,
      Buffer.from('<script>alert(1)</script>'),
      'evil.png',
      'image/png',
    );
    expect(text.statusCode).toBe(415);
    expect(text.json().error.message).toBe(
      'Only images can be uploaded (JPEG, PNG, GIF, WebP, AVIF or TIFF); this file is not an image.',
    );
    const pdf = await uploadFile(
      t,
      owner,
      ws,
      Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n'),
      'doc.png',
      'image/png',
    );
    expect(pdf.statusCode).toBe(415);
    expect(pdf.json().error.message).toMatch(/this file is a application\/pdf file\.$/);
    const svg = await uploadFile(
      t,
      owner,
      ws,
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
      'a.svg',
      'image/svg+xml',
    );
    expect(svg.statusCode).toBe(415);
  });

  it('refuses a damaged image whose header reads but whose pixels do not', async () => {
    const png = await makeImage({ seed: 15 });
    const res = await uploadFile(t, owner, ws, png.subarray(0, 120), 'cut.png');
    expect(res.statusCode).toBe(422);
    expect(res.json().error.message).toBe('The image cannot be read; it may be damaged.');
  });

  it('answers 413 with the limit when the file is larger than UPLOAD_MAX_BYTES, and keeps nothing', async () => {
    const before = fs.readdirSync(path.join(t.dataDir, 'assets', ws)).length;
    const big = Buffer.concat([await makeImage({ seed: 16 }), crypto.randomBytes(1_100_000)]);
    const res = await uploadFile(t, owner, ws, big, 'big.png');
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toEqual({
      code: 'too_large',
      message: 'The file is too large. The limit is 976.56 KB.',
    });
    expect(fs.readdirSync(path.join(t.dataDir, 'assets', ws)).length).toBe(before);
    expect(fs.readdirSync(path.join(t.dataDir, 'tmp', 'uploads'))).toEqual([]);
  });

  it('stops a stream that outgrows the limit even when Content-Length does not say so', async () => {
    const big = crypto.randomBytes(1_200_000);
    const body = multipartFile({ name: 'chunked.png', contentType: 'image/png', content: big });
    const { 'content-length': _omit, ...headers } = body.headers;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${ws}/files`,
      headers: { ...headers, ...owner.auth, 'transfer-encoding': 'chunked' },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.message).toBe('The file is too large. The limit is 976.56 KB.');
  });

  it('refuses a decompression bomb by its declared pixel size, before decoding', async () => {
    const bomb = pngBomb();
    expect(bomb.length).toBeLessThan(200_000);
    const started = Date.now();
    const res = await uploadFile(t, owner, ws, bomb, 'bomb.png');
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toEqual({
      code: 'too_many_pixels',
      message: 'The image is too large: 50000 × 50000 pixels is more than the limit of 4,000,000 pixels.',
    });
    expect(Date.now() - started).toBeLessThan(5000);
    const justOver = await uploadFile(
      t,
      owner,
      ws,
      await makeImage({ width: 2001, height: 2000, seed: 17, format: 'jpeg', quality: 20 }),
      'over.jpg',
    );
    expect(justOver.statusCode).toBe(413);
  });

  it('answers 400 to a request that is not multipart or holds no file', async () => {
    const json = await t.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${ws}/files`,
      headers: owner.auth,
      payload: { a: 1 },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().error.message).toBe('Send the file as multipart/form-data with one file field');
    const boundary = 'xyz';
    const empty = await t.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${ws}/files`,
      headers: { ...owner.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--${boundary}--\r\n`,
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toBe('The request holds no file');
    const zero = await uploadFile(t, owner, ws, Buffer.alloc(0), 'zero.png');
    expect(zero.statusCode).toBe(400);
    expect(zero.json().error.message).toBe('The file is empty');
  });

  it('keeps only the base of a file name with a path or control characters', async () => {
    const record = await uploadImage(
      t,
      owner,
      ws,
      await makeImage({ seed: 18, width: 32, height: 32 }),
      '..\\..\\etc/pass\u0001wd.png',
    );
    expect(record.name).toBe('passwd.png');
  });
});

describe('who may upload and read', () => {
  it('answers 401 to anonymous callers on every file route', async () => {
    const record = await uploadImage(t, owner, ws, await makeImage({ seed: 19, width: 32, height: 32 }));
    expect((await uploadFile(t, undefined, ws, await makeImage())).statusCode).toBe(401);
    expect((await t.app.inject({ url: record.publicUrl })).statusCode).toBe(401);
    expect((await t.app.inject({ url: `${record.publicUrl}/record` })).statusCode).toBe(401);
    const patch = await t.app.inject({
      method: 'PATCH',
      url: record.publicUrl,
      payload: { focusX: 0.1, focusY: 0.2 },
    });
    expect(patch.statusCode).toBe(401);
  });

  it('answers 404 Workspace not found to non-members, for uploads and reads alike', async () => {
    const record = await uploadImage(t, owner, ws, await makeImage({ seed: 20, width: 32, height: 32 }));
    const upload = await uploadFile(t, outsider, ws, await makeImage());
    expect(upload.statusCode).toBe(404);
    expect(upload.json().error.message).toBe('Workspace not found');
    const read = await t.app.inject({ url: record.publicUrl, headers: outsider.auth });
    expect(read.statusCode).toBe(404);
    expect(read.json().error.message).toBe('Workspace not found');
    // The outsider's own workspace does not see the owner's file either.
    const theirs = (await createWorkspace(t.app, outsider, 'Other Place')).id;
    const cross = await t.app.inject({
      url: `/api/v1/workspaces/${theirs}/files/${record.storageName}`,
      headers: outsider.auth,
    });
    expect(cross.statusCode).toBe(404);
    expect(cross.json().error.message).toBe('File not found');
  });

  it('answers 404 File not found to unknown and malformed storage names', async () => {
    for (const name of ['AAAAAAAAAAAAAAAAAAAAAAAA.png', '..%2F..%2Fsecret', 'a.exe']) {
      const res = await t.app.inject({ url: `/api/v1/workspaces/${ws}/files/${name}`, headers: owner.auth });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe('File not found');
    }
  });

  it('lets members read but only members who may edit some type upload (403 otherwise)', async () => {
    const input = newUserInput({ name: 'Vera Viewer' });
    const invite = await t.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${ws}/members/invitations`,
      headers: owner.auth,
      payload: { email: input.email, roles: [] },
    });
    expect(invite.statusCode).toBe(201);
    const viewer = await verifiedUser(t, input);
    await t.app.inject({ url: '/api/v1/workspaces', headers: viewer.auth });
    const record = await uploadImage(t, owner, ws, await makeImage({ seed: 21, width: 32, height: 32 }));
    expect((await t.app.inject({ url: record.publicUrl, headers: viewer.auth })).statusCode).toBe(200);
    const res = await uploadFile(t, viewer, ws, await makeImage());
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe('You need edit rights on at least one type to upload files');
    const focus = await t.app.inject({
      method: 'PATCH',
      url: record.publicUrl,
      headers: viewer.auth,
      payload: { focusX: 0.1, focusY: 0.1 },
    });
    expect(focus.statusCode).toBe(403);
  });
});

describe('focal point and storage usage', () => {
  it('sets focusX and focusY between 0 and 1', async () => {
    const record = await uploadImage(t, owner, ws, await makeImage({ seed: 22, width: 32, height: 32 }));
    const ok = await t.app.inject({
      method: 'PATCH',
      url: record.publicUrl,
      headers: owner.auth,
      payload: { focusX: 0.25, focusY: 1 },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ focusX: 0.25, focusY: 1 });
    const bad = await t.app.inject({
      method: 'PATCH',
      url: record.publicUrl,
      headers: owner.auth,
      payload: { focusX: 1.5, focusY: 0 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/^focusX: /);
  });

  it('counts the bytes of uploads on the subscription screen', async () => {
    const fresh = (await createWorkspace(t.app, owner, 'Counting Bytes')).id;
    const usage = async () =>
      (await t.app.inject({ url: `/api/v1/workspaces/${fresh}/subscription`, headers: owner.auth })).json()
        .usage.storageBytes;
    expect(await usage()).toBe(0);
    const a = await makeImage({ seed: 23 });
    const b = await makeImage({ seed: 24, format: 'jpeg' });
    await uploadImage(t, owner, fresh, a);
    await uploadImage(t, owner, fresh, b);
    expect(await usage()).toBe(a.length + b.length);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { createWorkspace } from '../factories/workspaces';
import { makeImage, pngBomb } from '../fixtures/images';
import { startFakeS3, uploadFile, uploadImage } from '../fixtures/media';

let s3: Awaited<ReturnType<typeof startFakeS3>>;
let client: S3Client;
let t: TestApp;
let owner: TestUser;
let outsider: TestUser;
let ws: string;
beforeAll(async () => {
  s3 = await startFakeS3();
  client = new S3Client({
    region: s3.config.region,
    endpoint: s3.config.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  t = await createTestApp({ s3: s3.config, uploadMaxBytes: 2_000_000 });
  owner = await verifiedUser(t, { name: 'Sam Bucket' });
  outsider = await verifiedUser(t, { name: 'Ola Outsider' });
  ws = (await createWorkspace(t.app, owner, 'Bucket Media')).id;
});
afterAll(async () => {
  await t.close();
  client.destroy();
  await s3.close();
});

async function objectBytes(key: string): Promise<Buffer | null> {
  try {
    const answer = await client.send(new GetObjectCommand({ Bucket: s3.config.bucket, Key: key }));
    return Buffer.from(await answer.Body!.transformToByteArray());
  } catch {
    return null;
  }
}

describe('the assets store on an S3-compatible bucket', () => {
  it('streams the upload into the bucket under {workspace}/{storageName}, not to DATA_DIR/assets', async () => {
    const png = await makeImage({ seed: 61 });
    const record = await uploadImage(t, owner, ws, png, 'bucket.png');
    expect(record).toMatchObject({ name: 'bucket.png', size: png.length, contentType: 'image/png' });
    expect((await objectBytes(`${ws}/${record.storageName}`))?.equals(png)).toBe(true);
    expect(fs.existsSync(path.join(t.dataDir, 'assets'))).toBe(false);
    expect(fs.readdirSync(path.join(t.dataDir, 'tmp', 'uploads'))).toEqual([]);

    const res = await t.app.inject({ url: record.publicUrl, headers: owner.auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.equals(png)).toBe(true);
    expect((await t.app.inject({ url: record.publicUrl, headers: outsider.auth })).statusCode).toBe(404);
  });

  it('keeps nothing in the bucket for refused uploads', async () => {
    const before = (await client.send(new ListObjectsV2Command({ Bucket: s3.config.bucket }))).KeyCount;
    expect((await uploadFile(t, owner, ws, Buffer.from('not an image at all'), 'x.png')).statusCode).toBe(
      415,
    );
    expect((await uploadFile(t, owner, ws, pngBomb(), 'bomb.png')).statusCode).toBe(413);
    const after = (await client.send(new ListObjectsV2Command({ Bucket: s3.config.bucket }))).KeyCount;
    expect(after).toBe(before);
  });

  it('caches thumbnails in the bucket, so a repeat is a read', async () => {
    const record = await uploadImage(
      t,
      owner,
      ws,
      await makeImage({ seed: 62, width: 900, height: 600, format: 'jpeg' }),
      'x.jpg',
    );
    const url = `/fun/imageResize/?id=${record.storageName}&w=400&__marquee_workspace=${ws}`;
    const cold = await t.app.inject({ url, headers: { ...owner.auth, accept: 'image/webp' } });
    expect(cold.statusCode).toBe(200);
    expect(cold.headers['x-marquee-cache']).toBe('miss');
    const cached = await objectBytes(`${ws}/_resized/${record.storageName}/w400.webp`);
    expect(cached?.equals(cold.rawPayload)).toBe(true);
    const warm = await t.app.inject({ url, headers: { ...owner.auth, accept: 'image/webp' } });
    expect(warm.headers['x-marquee-cache']).toBe('hit');
    expect(warm.rawPayload.equals(cold.rawPayload)).toBe(true);
  });

  it('finds duplicates and counts storage with files in the bucket', async () => {
    const fresh = (await createWorkspace(t.app, owner, 'Bucket Duplicates')).id;
    const a = await makeImage({ seed: 63 });
    const first = await uploadImage(t, owner, fresh, a, 'a.png');
    const second = await uploadImage(t, owner, fresh, a, 'a-again.png');
    const sanity = await t.app.inject({
      url: `/fun/sanity/?id=${second.storageName}&__marquee_workspace=${fresh}`,
      headers: owner.auth,
    });
    expect(sanity.json().webDetection.pagesWithMatchingImages).toEqual([
      { url: first.publicUrl, pageTitle: 'Duplicate: file "a.png"' },
    ]);
    const usage = (
      await t.app.inject({ url: `/api/v1/workspaces/${fresh}/subscription`, headers: owner.auth })
    ).json().usage;
    expect(usage.storageBytes).toBe(2 * a.length);
  });
});

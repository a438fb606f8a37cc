// Media figures: upload throughput, thumbnail latency cold and cached (p50/p99), over real HTTP
// on 127.0.0.1 with the assets store on disk and embedded PGlite. Bounded: about 30 s at most.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';
import { migrateDatabase } from '../src/server/db/migrate';
import { users } from '../src/server/db/schema';

const IMAGES = 40;
const UPLOAD_CONCURRENCY = 4;
const CACHED_REQUESTS = 400;
/** Measuring stops here whatever is left (set once the inputs are ready). */
let DEADLINE = Infinity;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const summary = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms (n=${ms.length})`;
};

/** A 1600×1200 photo-like JPEG (smooth random colours plus shared noise), different per seed. */
async function photo(seed: number, noiseLayer: Buffer): Promise<Buffer> {
  let state = seed * 2654435761;
  const random = () => (state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const grid = Buffer.from(Array.from({ length: 16 * 12 * 3 }, () => Math.floor(random() * 256)));
  const base = sharp(grid, { raw: { width: 16, height: 12, channels: 3 } }).resize(1600, 1200, {
    kernel: 'cubic',
  });
  return base
    .composite([{ input: noiseLayer, blend: 'overlay' }])
    .jpeg({ quality: 85 })
    .toBuffer();
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-bench-media-'));
  const database = await openDatabase({});
  await migrateDatabase(database);
  const config = { ...loadConfig({ DATA_DIR: dataDir, MARQUEE_SECRET: 'bench' }), authRateLimit: 100_000 };
  const app = await buildApp({ config, db: database.db, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const base = `http://127.0.0.1:${port}`;
  try {
    const account = { name: 'Bench', email: 'bench@example.test', password: 'correct horse battery' };
    const post = (url: string) =>
      fetch(`${base}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(account),
      });
    await post('/api/v1/auth/sign-up');
    const signIn = await post('/api/v1/auth/sign-in');
    const { token, user } = (await signIn.json()) as { token: string; user: { id: string } };
    await database.db.update(users).set({ emailVerified: true }).where(eq(users.id, user.id));
    const auth = { authorization: `Bearer ${token}` };
    const wsRes = await fetch(`${base}/api/v1/workspaces`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench Media' }),
    });
    const ws = ((await wsRes.json()) as { id: string }).id;

    const noise = {
      width: 1600,
      height: 1200,
      channels: 3 as const,
      background: '#808080',
      noise: { type: 'gaussian' as const, mean: 128, sigma: 20 },
    };
    const noiseLayer = await sharp({ create: noise }).png({ compressionLevel: 1 }).toBuffer();
    const photos: Buffer[] = [];
    for (let i = 0; i < IMAGES; i++) photos.push(await photo(i + 1, noiseLayer));
    DEADLINE = Date.now() + 30_000;
    const totalBytes = photos.reduce((sum, p) => sum + p.length, 0);

    // Upload throughput: every image, UPLOAD_CONCURRENCY at a time, as the bulk upload dialog does.
    const names: string[] = [];
    const uploadMs: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: UPLOAD_CONCURRENCY }, async () => {
        while (next < photos.length && Date.now() < DEADLINE) {
          const index = next++;
          const form = new FormData();
          form.append(
            'file',
            new Blob([new Uint8Array(photos[index])], { type: 'image/jpeg' }),
            `photo-${index}.jpg`,
          );
          const t0 = performance.now();
          const res = await fetch(`${base}/api/v1/workspaces/${ws}/files`, {
            method: 'POST',
            headers: auth,
            body: form,
          });
          if (res.status !== 201) throw new Error(`upload ${res.status}: ${await res.text()}`);
          uploadMs.push(performance.now() - t0);
          names.push(((await res.json()) as { storageName: string }).storageName);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `upload: ${names.length} JPEGs of 1600×1200 (avg ${(totalBytes / photos.length / 1024).toFixed(0)} KB), ` +
        `${UPLOAD_CONCURRENCY} at a time: ${(names.length / seconds).toFixed(1)} files/s, ` +
        `${(totalBytes / 1024 / 1024 / seconds).toFixed(1)} MB/s; per upload ${summary(uploadMs)}`,
    );

    const thumb = async (name: string, size: string) => {
      const t0 = performance.now();
      const res = await fetch(`${base}/fun/imageResize/?id=${name}&${size}&__marquee_workspace=${ws}`, {
        headers: { ...auth, accept: 'image/avif,image/webp,*/*' },
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`imageResize ${res.status}`);
      return { ms: performance.now() - t0, cache: res.headers.get('x-marquee-cache') };
    };

    // Cold: the first request for each image's w=400 thumbnail (sharp resize + WebP encode + write).
    const cold: number[] = [];
    for (const name of names) {
      if (Date.now() > DEADLINE) break;
      const r = await thumb(name, 'w=400');
      if (r.cache !== 'miss') throw new Error('expected a cold thumbnail');
      cold.push(r.ms);
    }
    console.log(`thumbnail w=400 cold (resize + encode + store): ${summary(cold)}`);

    // Cached: repeats over the same thumbnails, one at a time and 8 at a time.
    const cached: number[] = [];
    for (let i = 0; i < CACHED_REQUESTS && Date.now() < DEADLINE; i++) {
      const r = await thumb(names[i % names.length], 'w=400');
      if (r.cache !== 'hit') throw new Error('expected a cached thumbnail');
      cached.push(r.ms);
    }
    console.log(`thumbnail w=400 cached (sequential): ${summary(cached)}`);
    const parallel: number[] = [];
    const t0 = performance.now();
    let issued = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (issued < CACHED_REQUESTS && Date.now() < DEADLINE) {
          const r = await thumb(names[issued++ % names.length], 'w=400');
          parallel.push(r.ms);
        }
      }),
    );
    const rps = parallel.length / ((performance.now() - t0) / 1000);
    console.log(`thumbnail w=400 cached (8 concurrent): ${summary(parallel)}, ${rps.toFixed(0)} req/s`);

    const small: number[] = [];
    for (const name of names.slice(0, 10)) small.push((await thumb(name, 'h=100')).ms);
    console.log(`thumbnail h=100 cold (upload table): ${summary(small)}`);
  } finally {
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

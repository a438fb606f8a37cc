/**
 * Live preview, keystroke to page (DESIGN §7: p95 ≤ 150 ms): the real server and web app, a website on
 * another origin with /sdk/preview.js, and Chromium. A landing page of 20 blocks, 10 of them referencing
 * a blog post, is open with the preview pane beside its form; each keystroke in its title is timed from
 * the key's event in the app to the site's page drawn with the new title (the frame after its render),
 * one keystroke at a time.
 *
 *   BENCH_PREVIEW_PARTS=keystroke npm run bench -- preview   (PREVIEW_KEYSTROKES, default 60;
 *   CHROMIUM_PATH, default /usr/bin/chromium; BENCH_DATABASE_URL as the other benches; PREVIEW_TRACE=file
 *   writes a Chromium performance trace of the keystrokes, for the Performance panel)
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Frame, type Page } from '@playwright/test';
import {
  PROCESS_PASSWORD,
  callProcess as call,
  createProcessDatabase,
  eventually,
  freePort,
  processUser,
  stopServerProcess,
  type ServerProcess,
} from '../tests/helpers/server-process';

const KEYSTROKES = Number(process.env.PREVIEW_KEYSTROKES ?? 60);
const WARM_UP = 5;
const BLOCKS = 20;
const REFERENCES = 10;
const WEB_DIR = path.resolve('dist/web');

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** The server as `npm start` runs it, serving the built web app at its own PUBLIC_URL. */
async function startServer(databaseUrl: string): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-preview-bench-'));
  const output: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      MARQUEE_SECRET: 'preview-bench',
      AUTH_RATE_LIMIT: '10000',
      LOG_LEVEL: 'warn',
      WEB_DIR,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  await eventually(`the server on ${port}`, async () => {
    if (child.exitCode !== null) throw new Error(`server exited: ${output.join('')}`);
    return (await fetch(`${url}/healthz`)).ok || undefined;
  });
  return { url, dataDir, child, output };
}

/** The site's script: draws the landing page from each item the editor sends, and notes when. */
const SITE_JS = `
window.renders = [];
window.arrivals = [];
addEventListener('message', (event) => {
  if (event.data && event.data.type === 'marquee:item') window.arrivals.push(performance.timeOrigin + performance.now());
});
const main = document.getElementById('page');
function draw(item) {
  const d = item.data;
  const nodes = [Object.assign(document.createElement('h1'), { textContent: d.title })];
  const refs = item.refs || {};
  (d.sections || []).forEach((block, i) => {
    const section = document.createElement('section');
    const attrs = marqueePreview.edit(item, 'sections.' + i);
    for (const name in attrs) section.setAttribute(name, attrs[name]);
    const post = block.post && refs[block.post.id];
    section.append(
      Object.assign(document.createElement('h2'), { textContent: block.title || '' }),
      Object.assign(document.createElement('p'), { textContent: post ? post.data.name : block.text || '' }),
    );
    nodes.push(section);
  });
  main.replaceChildren(...nodes);
  requestAnimationFrame(() => window.renders.push({ title: d.title, at: performance.timeOrigin + performance.now() }));
}
marqueePreview.subscribe(draw);
`;

async function startSite(app: string) {
  const server = http.createServer((req, res) => {
    if (req.url === '/site.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(SITE_JS);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bench site</title>
       <script src="${app}/sdk/preview.js" defer></script><script src="/site.js" defer></script></head>
       <body><main id="page"></main></body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A workspace whose landing pages preview on the site, and one page of 20 blocks and 10 references. */
async function seed(server: ServerProcess, site: string, token: string) {
  const workspace = (await call(server, 'POST', '/workspaces', token, { name: 'Preview Bench' })).body;
  const ws = workspace.id as string;
  await call(server, 'PATCH', `/workspaces/${ws}`, token, {
    oobe: { done: true },
    baseVersion: workspace.version,
  });
  const model = await call(server, 'GET', `/workspaces/${ws}/content-model`, token);
  const text = (key: string, label: string) => ({ key, label, type: 'text' });
  const applied = await call(server, 'POST', `/workspaces/${ws}/content-model/apply`, token, {
    baseVersion: model.body.version,
    ops: [
      {
        op: 'addBlockType',
        blockType: {
          name: 'card',
          title: 'Card',
          fields: [
            text('title', 'Title'),
            { key: 'post', label: 'Post', type: 'reference', schemaTypes: ['blog-post'] },
          ],
        },
      },
      {
        op: 'addBlockType',
        blockType: { name: 'copy', title: 'Copy', fields: [text('title', 'Title'), text('text', 'Text')] },
      },
      {
        op: 'addSchema',
        domain: 'blogging',
        schema: {
          name: 'landing-page',
          title: 'Landing page',
          pluralTitle: 'Landing pages',
          icon: 'layout',
          topFields: ['title'],
          previewUrls: [`${site}/landing/{id}`],
          fields: [
            { ...text('title', 'Title'), required: true },
            { key: 'sections', label: 'Sections', type: 'blocks', blockTypes: ['card', 'copy'] },
          ],
        },
      },
    ],
  });
  if (applied.status !== 200) throw new Error(`model: ${applied.status} ${JSON.stringify(applied.body)}`);
  const origins = await call(server, 'PUT', `/workspaces/${ws}/preview-origins`, token, { origins: [site] });
  if (origins.status !== 200)
    throw new Error(`preview origins: ${origins.status} ${JSON.stringify(origins.body)}`);
  const posts: { id: string; schemaType: string; label: string }[] = [];
  for (let i = 0; i < REFERENCES; i++) {
    const created = await call(server, 'POST', `/workspaces/${ws}/items/blog-post`, token, {
      data: { name: `Post ${i}`, slug: `post-${i}`, body: `<p>Post ${i}</p>` },
    });
    posts.push({ id: created.body.id, schemaType: 'blog-post', label: `Post ${i}` });
  }
  const sections = Array.from({ length: BLOCKS }, (_, i) =>
    i % 2 === 0
      ? { _type: 'card', _key: `b${i}`, title: `Card ${i}`, post: posts[i / 2] }
      : { _type: 'copy', _key: `b${i}`, title: `Copy ${i}`, text: 'Words '.repeat(30) },
  );
  const page = await call(server, 'POST', `/workspaces/${ws}/items/landing-page`, token, {
    data: { title: 'Bench page', sections },
  });
  if (page.status !== 201) throw new Error(`landing page: ${page.status} ${JSON.stringify(page.body)}`);
  return { ws, pageId: page.body.id as string };
}

/** Where a keystroke's time goes, in ms: each phase's times over the timed keystrokes. */
interface Phases {
  /** Key press to the render request's start (the form's re-render and the channel). */
  toRequest: number[];
  /** The render request, start to the answer's last byte (the server's render and the network). */
  request: number[];
  /** The answer's last byte to the page's message (parsing, checking and posting it). */
  toPage: number[];
  /** The page's message to the frame after it drew the item. */
  toDrawn: number[];
}

/** The first render request after the key press and the page's first message after that request. */
async function phaseMarks(page: Page, frame: Frame, keyAt: number, drawn: number) {
  const requests = await page.evaluate(
    () => (window as unknown as { requests: { start: number; end: number }[] }).requests,
  );
  const request = requests.find((r) => r.start >= keyAt && r.end <= drawn);
  const arrivals = await frame.evaluate(() => (window as unknown as { arrivals: number[] }).arrivals);
  return { request, arrival: request && arrivals.find((at) => at >= request.end && at <= drawn) };
}

function printPhases(phases: Phases) {
  const of = (times: number[]) => {
    const sorted = [...times].sort((a, b) => a - b);
    return `p50 ${percentile(sorted, 50).toFixed(1)}, p95 ${percentile(sorted, 95).toFixed(1)} ms`;
  };
  console.log(`  key press → render request sent (form and channel): ${of(phases.toRequest)}`);
  console.log(`  render request, sent → answered (server and network): ${of(phases.request)}`);
  console.log(`  answer → page's message (parse, check, post): ${of(phases.toPage)}`);
  console.log(`  page's message → page drawn: ${of(phases.toDrawn)}`);
}

/** Keystroke → page drawn, in ms, for each timed keystroke. */
async function keystrokeToRender(): Promise<number[]> {
  if (!fs.existsSync(path.join(WEB_DIR, 'index.html'))) {
    console.log('building the web app (vite build)…');
    const built = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build'], {
      stdio: 'inherit',
    });
    if (built.status !== 0) throw new Error('vite build failed');
  }
  process.env.TEST_DATABASE_URL ??=
    process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const database = await createProcessDatabase();
  const server = await startServer(database.url);
  const site = await startSite(server.url);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const user = await processUser(server, 'Bench');
    const { ws, pageId } = await seed(server, site.origin, user.token);
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } });
    await context.addCookies([{ name: 'marquee_cookie_notification', value: '1', url: server.url }]);
    const signIn = await context.request.post('/api/v1/auth/sign-in', {
      headers: { origin: server.url },
      data: { email: user.email, password: PROCESS_PASSWORD },
    });
    if (signIn.status() !== 200) throw new Error(`sign-in: ${signIn.status()}`);
    const page = await context.newPage();
    await page.goto(`/${ws}/blogging/landing-page/${pageId}?preview`);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const frame = await eventually('the framed site', async () =>
      page.frames().find((f) => f.url().startsWith(site.origin)),
    );
    await frame.waitForFunction(() => (window as unknown as { renders: unknown[] }).renders?.length > 0);
    await page.evaluate(() => {
      const keys: number[] = [];
      const requests: { start: number; end: number }[] = [];
      Object.assign(window, { keys, requests });
      document.addEventListener('keydown', () => keys.push(performance.timeOrigin + performance.now()), true);
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as PerformanceResourceTiming[])
          if (entry.name.endsWith('/preview/render'))
            requests.push({
              start: performance.timeOrigin + entry.fetchStart,
              end: performance.timeOrigin + entry.responseEnd,
            });
      }).observe({ type: 'resource' });
    });
    const trace = process.env.PREVIEW_TRACE;
    if (trace) await browser.startTracing(page, { path: trace, screenshots: false });
    const title = page.locator('[data-field="title"] input').first();
    await title.click();
    await title.press('End');
    let expected = 'Bench page';
    const latencies: number[] = [];
    const phases: Phases = { toRequest: [], request: [], toPage: [], toDrawn: [] };
    for (let i = 0; i < KEYSTROKES + WARM_UP; i++) {
      const letter = String.fromCharCode(97 + (i % 26));
      expected += letter;
      // This key's press is the next one noted (End, pressed above, was noted too).
      const pressed = await page.evaluate(() => (window as unknown as { keys: number[] }).keys.length);
      await page.keyboard.press(letter);
      const drawnAt = await frame.waitForFunction((want) => {
        const renders = (window as unknown as { renders: { title: string; at: number }[] }).renders;
        return renders.find((r) => r.title === want)?.at;
      }, expected);
      const keyAt = await page.evaluate((n) => (window as unknown as { keys: number[] }).keys[n], pressed);
      const drawn = (await drawnAt.jsonValue()) as number;
      if (i < WARM_UP) continue;
      latencies.push(drawn - keyAt);
      const { request, arrival } = await phaseMarks(page, frame, keyAt, drawn);
      if (!request || arrival === undefined) continue;
      phases.toRequest.push(request.start - keyAt);
      phases.request.push(request.end - request.start);
      phases.toPage.push(arrival - request.end);
      phases.toDrawn.push(drawn - arrival);
    }
    if (trace) await browser.stopTracing();
    printPhases(phases);
    await context.close();
    return latencies;
  } finally {
    await browser.close();
    site.server.close();
    await stopServerProcess(server);
    await database.drop();
  }
}

/** Prints the keystroke figures. */
export async function printKeystrokeToRender() {
  const latencies = (await keystrokeToRender()).sort((a, b) => a - b);
  const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
  console.log(
    `keystroke → page drawn (${latencies.length} keystrokes, ${BLOCKS} blocks, ${REFERENCES} references): ` +
      `p50 ${fmt(percentile(latencies, 50))}, p95 ${fmt(percentile(latencies, 95))}, max ${fmt(latencies.at(-1)!)}` +
      ` (target p95 ≤ 150 ms)`,
  );
}

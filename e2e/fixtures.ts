import fs from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import sharp from 'sharp';

export const DATA_DIR = process.env.MARQUEE_E2E_DATA_DIR!;
export const SHOTS_DIR = process.env.MARQUEE_SHOTS_DIR ?? '/tmp/marquee-shots';
export const PASSWORD = 'correct-horse-42';
/** The test server's address (playwright.config.ts starts it on E2E_PORT). */
export const BASE_URL = `http://127.0.0.1:${process.env.E2E_PORT ?? 8090}`;
/**
 * Headers of a request the web app itself makes: the server refuses cookie-authenticated writes from
 * any other origin, and Playwright's API requests send no Origin of their own.
 */
/** The UDP port of the DNS server the app's sending-domain checks ask (playwright.config.ts DNS_SERVERS). */
export const DNS_PORT = Number(process.env.E2E_PORT ?? 8090) + 2000;
export const SAME_ORIGIN = { origin: BASE_URL };

let counter = 0;
/** An address no other test uses; the worker's index keeps parallel workers apart. */
export const uniqueEmail = (prefix: string) =>
  `${prefix}-${Date.now().toString(36)}-w${process.env.TEST_WORKER_INDEX ?? 0}-${++counter}@example.com`;

/**
 * Saves a screenshot of the viewport to look at (SHOTS_DIR/{name}.png). Not full-page: the app shell's
 * header and drawers are fixed, and a stitched full-page image would misplace them.
 */
export async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await page.waitForTimeout(350); // let drawer and notification transitions settle
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`) });
}

/** Hides the cookie notice for tests that are not about it. */
export async function acceptCookies(context: BrowserContext) {
  await context.addCookies([
    { name: 'marquee_cookie_notification', value: '1', url: BASE_URL, secure: false },
  ]);
}

/** Undoes quoted-printable soft breaks and escapes, enough to read links out of an .eml file. */
function decodeQuotedPrintable(text: string) {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * The newest link in a mail to `to` whose URL contains `pathFragment`; waits for the mail to arrive. A
 * spec that starts a server of its own reads that server's outbox (`dataDir`).
 */
export async function mailLink(to: string, pathFragment: string, dataDir = DATA_DIR): Promise<string> {
  const outbox = path.join(dataDir, 'outbox');
  let found: string | undefined;
  await expect
    .poll(
      () => {
        if (!fs.existsSync(outbox)) return undefined;
        const files = fs
          .readdirSync(outbox)
          .filter((f) => f.endsWith('.eml'))
          .sort()
          .reverse();
        for (const file of files) {
          const text = decodeQuotedPrintable(fs.readFileSync(path.join(outbox, file), 'utf8'));
          const toLine = text.match(/^To:.*$/im)?.[0] ?? '';
          if (!toLine.toLowerCase().includes(to.toLowerCase())) continue;
          // A text part writes its links in brackets: [https://…].
          const links = text.match(/https?:\/\/[^\s"<>[\]]+/g) ?? [];
          const link = links.find((l) => l.includes(pathFragment));
          if (link) {
            found = link.replace(/&amp;/g, '&');
            return found;
          }
        }
        return undefined;
      },
      { message: `a mail to ${to} with a ${pathFragment} link`, timeout: 30_000 },
    )
    .toBeTruthy();
  return found!;
}

export const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

interface Account {
  name: string;
  email: string;
  password: string;
}

/**
 * Signs up through the API, then signs in like the web app does (sign-up answers 202 and no session
 * whether or not the address is taken); the request context shares the browser context's cookies.
 */
export async function signUpApi(request: APIRequestContext, account: Account) {
  const res = await request.post('/api/v1/auth/sign-up', { headers: SAME_ORIGIN, data: account });
  expect(res.status(), await res.text()).toBe(202);
  const signIn = await request.post('/api/v1/auth/sign-in', {
    headers: SAME_ORIGIN,
    data: { email: account.email, password: account.password },
  });
  expect(signIn.status(), await signIn.text()).toBe(200);
  return (await signIn.json()) as { user: { id: string; email: string } };
}

/** Signs up and verifies the email through the outbox, all through the API; leaves the user signed in. */
export async function seedVerifiedUser(request: APIRequestContext, prefix = 'user') {
  const account = {
    name: `${prefix[0].toUpperCase()}${prefix.slice(1)} Tester`,
    email: uniqueEmail(prefix),
    password: PASSWORD,
  };
  const { user } = await signUpApi(request, account);
  const link = await mailLink(account.email, '/user/verify-email');
  const res = await request.post('/api/v1/auth/verify-email', {
    headers: SAME_ORIGIN,
    data: { token: tokenOf(link) },
  });
  expect(res.status(), await res.text()).toBe(200);
  return { ...account, id: user.id };
}

export async function signInApi(request: APIRequestContext, email: string, password = PASSWORD) {
  const res = await request.post('/api/v1/auth/sign-in', { headers: SAME_ORIGIN, data: { email, password } });
  expect(res.status(), await res.text()).toBe(200);
}

/** Creates a workspace through the API; with `done` its onboarding is finished too. */
export async function seedWorkspace(
  request: APIRequestContext,
  name: string,
  {
    done = true,
    roles,
    basics,
  }: { done?: boolean; roles?: Record<string, unknown>; basics?: Record<string, unknown> } = {},
) {
  const res = await request.post('/api/v1/workspaces', { headers: SAME_ORIGIN, data: { name } });
  expect(res.status(), await res.text()).toBe(201);
  let workspace = (await res.json()) as { id: string; version: number; roles: Record<string, unknown> };
  if (done || roles || basics) {
    const patch = await request.patch(`/api/v1/workspaces/${workspace.id}`, {
      headers: SAME_ORIGIN,
      data: {
        ...(done ? { oobe: { done: true } } : {}),
        ...(roles ? { roles: { ...workspace.roles, ...roles } } : {}),
        ...(basics ? { basics } : {}),
        baseVersion: workspace.version,
      },
    });
    expect(patch.status(), await patch.text()).toBe(200);
    workspace = await patch.json();
  }
  return workspace;
}

/** Invites `email` to a workspace with roles, through the API of the manager's request context. */
export async function inviteMember(
  request: APIRequestContext,
  workspaceId: string,
  email: string,
  roles: string[],
) {
  const res = await request.post(`/api/v1/workspaces/${workspaceId}/members/invitations`, {
    headers: SAME_ORIGIN,
    data: { email, roles },
  });
  expect(res.status(), await res.text()).toBe(201);
}

/**
 * A member of a workspace in a browser context of their own: invited by the manager with `roles`,
 * signed up and verified through the API, cookies accepted. Close the context when done.
 */
export async function seedMember(
  browser: import('@playwright/test').Browser,
  managerRequest: APIRequestContext,
  workspaceId: string,
  name: string,
  roles: string[],
) {
  const email = uniqueEmail(name.split(' ')[0].toLowerCase());
  await inviteMember(managerRequest, workspaceId, email, roles);
  const context = await browser.newContext({ baseURL: BASE_URL });
  await acceptCookies(context);
  const page = await context.newPage();
  const { user } = await signUpApi(page.request, { name, email, password: PASSWORD });
  const link = await mailLink(email, '/user/verify-email');
  const res = await page.request.post('/api/v1/auth/verify-email', {
    headers: SAME_ORIGIN,
    data: { token: tokenOf(link) },
  });
  expect(res.status(), await res.text()).toBe(200);
  return { context, page, email, name, id: user.id };
}

/** A role editing blog posts, for the locale tests to limit to French. */
export const FRENCH_EDITOR = {
  name: 'French editor',
  canEdit: ['blog-post'],
  canPublish: [],
  mustApprove: [],
};

/** Sets a workspace's basics (domains, stages) through the API. */
export async function patchBasics(
  request: APIRequestContext,
  workspaceId: string,
  basics: Record<string, unknown>,
) {
  const current = (await (await request.get(`/api/v1/workspaces/${workspaceId}`)).json()) as {
    version: number;
  };
  const res = await request.patch(`/api/v1/workspaces/${workspaceId}`, {
    headers: SAME_ORIGIN,
    data: { basics, baseVersion: current.version },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** Creates an item through the API; answers its id and version. */
export async function seedItem(
  request: APIRequestContext,
  workspaceId: string,
  schema: string,
  data: Record<string, unknown>,
) {
  const res = await request.post(`/api/v1/workspaces/${workspaceId}/items/${schema}`, {
    headers: SAME_ORIGIN,
    data: { data },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: string; version: number };
}

/** A PNG of one colour, to upload. */
export const solidPng = (width: number, height: number, background: { r: number; g: number; b: number }) =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

/** Uploads a PNG as a file of the workspace through the API, as the upload field does. */
export async function uploadImage(request: APIRequestContext, ws: string, name: string, buffer: Buffer) {
  const res = await request.post(`/api/v1/workspaces/${ws}/files`, {
    headers: SAME_ORIGIN,
    multipart: { file: { name, mimeType: 'image/png', buffer } },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { storageName: string; publicUrl: string };
}

/** Drags a newsletter block from GrapesJS's block panel into the canvas with real mouse input. */
export async function dragBlock(page: Page, label: string) {
  // Selecting a component shows its styles; the last button of the views panel brings the blocks back.
  if ((await page.locator('.gjs-block:visible').count()) === 0)
    await page.locator('.gjs-pn-views .gjs-pn-btn').last().click();
  const block = page
    .locator('.gjs-block:visible')
    .filter({ has: page.locator('.gjs-block-label', { hasText: new RegExp(`^\\s*${label}\\s*$`) }) })
    .first();
  await block.scrollIntoViewIfNeeded({ timeout: 20_000 });
  const from = (await block.boundingBox())!;
  const frame = (await page.locator('.gjs-frame').boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(frame.x + frame.width / 2, frame.y + 60, { steps: 12 });
  await page.mouse.move(frame.x + frame.width / 2, frame.y + 80, { steps: 6 });
  await page.mouse.up();
}

/** The item form's input of a field, by the field's key. */
export const itemField = (page: Page, key: string) =>
  page.locator(`[data-field="${key}"]`).locator('input, textarea').first();

import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import {
  BASE_URL,
  PASSWORD,
  FRENCH_EDITOR,
  SAME_ORIGIN,
  acceptCookies,
  patchBasics,
  seedItem,
  seedVerifiedUser,
  seedWorkspace,
  signInApi,
  signUpApi,
  shot,
  uniqueEmail,
  solidPng,
} from './fixtures';
import { seedPreviewWorkspace, startSite } from './preview-site';

/**
 * Axe (WCAG 2.0/2.1/2.2 A and AA) on every route of spec §2's table, signed out and in, in
 * view and edit modes and with the main dialogs open; no serious or critical violation may remain.
 * Then the keyboard alone: visible focus, dialogs that trap and return focus, reordering and the focal point.
 */
test.beforeEach(async ({ context }) => {
  await acceptCookies(context);
  // The audits wait for the network to go quiet; the workspace's event stream never would (e2e/live.spec.ts covers it).
  await context.route('**/api/v1/workspaces/*/live?*', (route) => route.abort());
});

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const IMAGE_SET = 'marquee-assets-image-set';

interface Seeded {
  email: string;
  ws: string;
  /** A second workspace whose onboarding is not done. */
  oobeWs: string;
  items: Record<string, string>;
  /** A release with one entry. */
  releaseId: string;
}
let seeded: Seeded;

async function uploadImage(page: Page, ws: string) {
  const png = await solidPng(640, 400, { r: 40, g: 110, b: 170 });
  const res = await page.request.post(`/api/v1/workspaces/${ws}/files`, {
    headers: SAME_ORIGIN,
    multipart: { file: { name: 'harbour.png', mimeType: 'image/png', buffer: png } },
  });
  expect(res.status(), await res.text()).toBe(201);
  return res.json();
}

/** One workspace with items of several schemas, seeded once through the API for every test here. */
async function seedAll(browser: Browser): Promise<Seeded> {
  const context = await browser.newContext({ baseURL: BASE_URL });
  const page = await context.newPage();
  const user = await seedVerifiedUser(page.request, 'a11y');
  const { id: ws } = await seedWorkspace(page.request, `Access ${Date.now().toString(36)}`);
  await patchBasics(page.request, ws, {
    domains: ['blogging', 'marketing', 'assets'],
    stages: ['Staging', 'Live'],
  });
  const { id: oobeWs } = await seedWorkspace(page.request, `Setup ${Date.now().toString(36)}`, {
    done: false,
  });
  const image = await uploadImage(page, ws);
  const items: Record<string, string> = {};
  items.copy = (
    await seedItem(page.request, ws, 'copy', { name: 'Autumn headline', text: 'Leaves fall.' })
  ).id;
  items['blog-post'] = (
    await seedItem(page.request, ws, 'blog-post', {
      name: 'Harbour walk',
      slug: 'harbour-walk',
      body: '<p>A walk along the harbour.</p>',
    })
  ).id;
  items['behavioral-event'] = (
    await seedItem(page.request, ws, 'behavioral-event', {
      name: 'Purchase',
      key: 'purchase',
      properties: [
        { name: 'amount', type: 'number' },
        { name: 'currency', type: 'string' },
      ],
    })
  ).id;
  items['customer-profile-attribute'] = (
    await seedItem(page.request, ws, 'customer-profile-attribute', {
      name: 'Age',
      key: 'age',
      attributeType: 'number',
    })
  ).id;
  items.audience = (
    await seedItem(page.request, ws, 'audience', {
      name: 'Adults',
      criteria: {
        label: '1',
        predicate: 'and',
        children: [
          {
            type: 'attribute',
            predicate: {
              attribute: {
                schemaType: 'customer-profile-attribute',
                id: items['customer-profile-attribute'],
                label: 'Age',
              },
            },
            operator: '>=',
            value: 18,
          },
        ],
      },
    })
  ).id;
  items.event = (
    await seedItem(page.request, ws, 'event', {
      name: 'Harbour festival',
      startTime: '2026-07-01T10:00:00.000Z',
      endTime: '2026-07-01T18:00:00.000Z',
    })
  ).id;
  items.email = (
    await seedItem(page.request, ws, 'email', {
      name: 'Welcome mail',
      subject: 'Hello',
      testAddresses: 'qa@example.com',
    })
  ).id;
  items[IMAGE_SET] = (
    await seedItem(page.request, ws, IMAGE_SET, {
      masterImage: image,
      name: 'Harbour',
      altText: 'A blue harbour',
    })
  ).id;
  // Settings › Sending with a sender, so its domain's records and the spam warning are audited too.
  const sender = await page.request.post(`/api/v1/workspaces/${ws}/senders`, {
    headers: SAME_ORIGIN,
    data: { fromName: 'Harbour News', fromAddress: 'news@harbour.example.test' },
  });
  expect(sender.status(), await sender.text()).toBe(201);
  items.campaign = (
    await seedItem(page.request, ws, 'campaign', {
      name: 'Harbour newsletter',
      email: { id: items.email, schemaType: 'email', label: 'Welcome mail' },
      audience: { id: items.audience, schemaType: 'audience', label: 'Adults' },
      sender: ((await sender.json()) as { id: string }).id,
    })
  ).id;
  // A journey whose canvas has an entry, an email, a wait and an exit, one of them incomplete.
  items.journey = (
    await seedItem(page.request, ws, 'journey', {
      name: 'Harbour welcome',
      definition: JSON.stringify({
        entry: { kind: 'event', event: 'signup', conditions: [] },
        start: 'hello',
        steps: [
          { id: 'hello', name: 'Welcome mail', type: 'email', email: items.email },
          { id: 'pause', type: 'wait', seconds: 86400 },
          { id: 'done', type: 'exit' },
        ],
        edges: [
          { from: 'hello', to: 'pause' },
          { from: 'pause', to: 'done' },
        ],
      }),
    })
  ).id;
  // A release with an entry waiting for nothing, so its screen shows entries and chips.
  const release = await page.request.post(`/api/v1/workspaces/${ws}/releases`, {
    headers: SAME_ORIGIN,
    data: { name: 'Harbour launch', stage: 'live' },
  });
  expect(release.status(), await release.text()).toBe(201);
  const releaseId = ((await release.json()) as { id: string }).id;
  const entries = await page.request.post(`/api/v1/workspaces/${ws}/releases/${releaseId}/entries`, {
    headers: SAME_ORIGIN,
    data: { entries: [{ schema: 'copy', itemId: items.copy, version: 1 }] },
  });
  expect(entries.status(), await entries.text()).toBe(200);
  await context.close();
  return { email: user.email, ws, oobeWs, items, releaseId };
}

test.beforeAll(async ({ browser }) => {
  seeded = await seedAll(browser);
});

const DOMAIN_OF: Record<string, string> = {
  copy: 'marketing',
  'blog-post': 'blogging',
  'behavioral-event': 'marketing',
  'customer-profile-attribute': 'marketing',
  audience: 'marketing',
  event: 'marketing',
  email: 'marketing',
  campaign: 'marketing',
  journey: 'marketing',
  [IMAGE_SET]: 'assets',
};
const itemPath = (schema: string) => `/${seeded.ws}/${DOMAIN_OF[schema]}/${schema}/${seeded.items[schema]}`;

/** Runs axe and records serious and critical violations under `label` (the test reports them all at the end). */
class Audit {
  private readonly found: string[] = [];
  constructor(private readonly page: Page) {}

  async check(label: string, include?: string) {
    await this.page.waitForLoadState('networkidle');
    // axe counts these as best practice only; we require them on every page.
    const structure = await this.page.evaluate(() => {
      const shown = (selector: string) =>
        [...document.querySelectorAll(selector)].filter((el) => el.checkVisibility()).length;
      return { mains: shown('main, [role="main"]'), h1s: shown('h1, [role="heading"][aria-level="1"]') };
    });
    if (structure.mains !== 1) this.found.push(`${label}: ${structure.mains} main landmarks, not 1`);
    if (structure.h1s !== 1) this.found.push(`${label}: ${structure.h1s} level-one headings, not 1`);
    let builder = new AxeBuilder({ page: this.page }).withTags(WCAG_TAGS);
    if (include) builder = builder.include(include);
    const { violations } = await builder.analyze();
    for (const v of violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')) {
      const where = v.nodes
        .slice(0, 6)
        .map(
          (n) =>
            `      ${n.target.join(' ')}\n        ${n.failureSummary?.split('\n').slice(1).join(' ').trim()}`,
        )
        .join('\n');
      const more = v.nodes.length > 6 ? `\n      … and ${v.nodes.length - 6} more` : '';
      this.found.push(`${label}: [${v.impact}] ${v.id} — ${v.help} (${v.nodes.length})\n${where}${more}`);
    }
  }

  async visit(path: string, ready: (page: Page) => Locator, label = path) {
    await this.page.goto(path);
    await expect(ready(this.page)).toBeVisible();
    await this.check(label);
  }

  expectClean() {
    expect(this.found, `serious or critical axe violations:\n\n${this.found.join('\n\n')}`).toEqual([]);
  }
}

const heading = (name: string | RegExp) => (page: Page) =>
  page.getByRole('heading', { level: 1, name }).first();

test('signed-out screens have no serious or critical axe violations', async ({ page }) => {
  const audit = new Audit(page);
  await audit.visit('/auth/welcome', heading('Welcome back'), 'sign-in');
  await page.getByText('Create account', { exact: true }).first().click();
  await expect(page.getByLabel('Name', { exact: true })).toBeVisible();
  await audit.check('sign-up');
  await audit.visit('/auth/forgot-password', heading(/./), 'forgot password');
  await audit.visit('/auth/reset-password?token=not-a-token', heading(/./), 'reset password');
  await audit.visit('/auth/no-such-page', heading('Page not found'), 'not found (signed out)');

  // A user who has not verified their email yet.
  const account = { name: 'Una Verified', email: uniqueEmail('unverified'), password: PASSWORD };
  await signUpApi(page.request, account);
  await audit.visit('/user/verify-email', heading(/./), 'verify email');
  audit.expectClean();
});

test('passkey and SAML screens have no serious or critical axe violations', async ({ page }) => {
  const audit = new Audit(page);
  // The passkey step after a password, for an account whose second factor is a passkey (the suite's
  // server is on 127.0.0.1, where no passkey can be made: e2e/passkeys.spec.ts uses them for real).
  await page.route('**/api/v1/auth/sign-in', (route) =>
    route.fulfill({ json: { twoFactorRequired: true, pendingToken: 'pending', methods: ['passkey'] } }),
  );
  await page.goto('/auth/welcome');
  await page.getByLabel('Email').fill('someone@example.com');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Use a passkey' })).toBeVisible();
  await audit.check('sign-in › passkey step');
  await page.unroute('**/api/v1/auth/sign-in');

  await signInApi(page.request, seeded.email);
  await page.goto('/workspaces');
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Passkeys' }).click();
  const dialog = page.getByRole('dialog', { name: 'Passkeys' });
  await expect(dialog.getByText('No passkeys yet.')).toBeVisible();
  await audit.check('passkeys dialog');
  await dialog.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(dialog.getByText(/Name the passkey/)).toBeVisible();
  await audit.check('passkeys dialog › name required');
  await page.keyboard.press('Escape');

  await page.goto(`/${seeded.ws}/_settings/sso`);
  await page.getByText('SAML 2.0', { exact: true }).click();
  await expect(page.getByTestId('saml-acs-url')).toBeVisible();
  await audit.check('single sign-on › SAML 2.0');
  audit.expectClean();
});

test('workspace and settings screens have no serious or critical axe violations', async ({ page }) => {
  test.setTimeout(360_000);
  await signInApi(page.request, seeded.email);
  const { ws } = seeded;
  const audit = new Audit(page);
  await audit.visit('/workspaces', heading('Workspaces'));
  await audit.visit('/workspaces/create', heading('Create a workspace'));
  await audit.visit(`/${seeded.oobeWs}/_oobe`, heading(/ready/), 'onboarding');
  await audit.visit(`/${ws}/_items/all`, heading('All items'), 'explore');
  await audit.visit(`/${ws}/_domains`, heading(/./), 'domains');
  await audit.visit(`/${ws}/_dashboard`, heading('Dashboard'), 'dashboard');
  await audit.visit(`/${ws}/marketing`, heading(/./), 'domain page');
  await audit.visit(`/${ws}/marketing/copy`, heading('All Copies'), 'list items');
  await page.locator('label[for$="-cards"]').click();
  await expect(page.getByTestId('item-cards')).toBeVisible();
  await audit.check('list items as cards');
  await audit.visit(`/${ws}/marketing/_customers`, heading('Customers'), 'customers');
  await audit.visit(`/${ws}/_releases`, heading('Releases'), 'releases');
  await audit.visit(`/${ws}/_releases/${seeded.releaseId}`, heading('Harbour launch'), 'release');
  await audit.visit(`/${ws}/no-such-domain/x/y/z/w`, heading('Page not found'), 'not found in workspace');
  for (const [path, name] of [
    ['basics', 'Basics'],
    ['locales', 'Locales'],
    ['preview', 'Preview'],
    ['users', 'Users'],
    ['roles', 'Roles'],
    ['sso', 'Single sign-on'],
    ['content-model', 'Content model'],
    ['subscription', 'Subscription'],
    ['batches', 'Batches'],
    ['suppressions', 'Suppression list'],
    ['api-keys', /API keys/i],
    ['write-keys', /Write keys/i],
    ['undeclared', 'Undeclared data'],
    ['webhooks', 'Webhooks'],
    ['sending', 'Sending'],
    ['audit', /Audit/i],
  ] as const) {
    await audit.visit(`/${ws}/_settings/${path}`, heading(name), `settings › ${path}`);
  }
  audit.expectClean();
});

test('item screens in view and edit modes have no serious or critical axe violations', async ({ page }) => {
  test.setTimeout(480_000);
  await signInApi(page.request, seeded.email);
  const audit = new Audit(page);
  for (const schema of Object.keys(seeded.items)) {
    await audit.visit(itemPath(schema), (p) => p.getByTestId('item-heading'), `${schema} (view)`);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeVisible();
    await audit.check(`${schema} (edit)`);
  }
  await audit.visit(`/${seeded.ws}/marketing/copy/new`, (p) => p.getByTestId('item-heading'), 'new copy');
  const { ws, items } = seeded;
  await audit.visit(`/${ws}/changelog/marketing/copy/${items.copy}`, heading(/./), 'change log');
  await audit.visit(`/${ws}/approvals/marketing/copy/${items.copy}`, heading(/./), 'approvals');
  await audit.visit(`${itemPath('copy')}/publish`, heading(/./), 'publish');
  await audit.visit(`${itemPath('copy')}/un-publish`, heading(/./), 'unpublish');
  await audit.visit(`${itemPath('copy')}/delete`, heading(/./), 'delete');
  audit.expectClean();
});

test('history and compare of localised content have no serious or critical axe violations', async ({
  page,
}) => {
  await signInApi(page.request, seeded.email);
  const { id: ws } = await seedWorkspace(page.request, `Locales ${Date.now().toString(36)}`);
  await patchBasics(page.request, ws, {
    domains: ['blogging'],
    stages: ['Staging', 'Live'],
    locales: { tags: ['en-US', 'fr-FR'], default: 'en-US', fallback: { 'fr-FR': 'en-US' } },
  });
  const data = { name: 'Harbour walk', slug: 'harbour-walk', body: '<p>A walk along the harbour.</p>' };
  const post = await seedItem(page.request, ws, 'blog-post', data);
  const saved = await page.request.put(`/api/v1/workspaces/${ws}/items/blog-post/${post.id}`, {
    headers: SAME_ORIGIN,
    data: { data: { ...data, _locales: { 'fr-FR': { name: 'Promenade au port' } } }, baseVersion: 1 },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const audit = new Audit(page);
  await page.goto(`/${ws}/blogging/blog-post/${post.id}`);
  await page.getByRole('tab', { name: 'History' }).click();
  await expect(page.getByRole('list', { name: 'Version 2 changed' })).toBeVisible();
  await audit.check('history with locale changes');
  await audit.visit(
    `/${ws}/changelog/blogging/blog-post/${post.id}?from=1&to=2&locale=fr-FR`,
    (p) => p.getByTestId('compare-locale-bar'),
    'compare in fr-FR',
  );
  audit.expectClean();
});

test('dialogs have no serious or critical axe violations', async ({ page }) => {
  test.setTimeout(300_000);
  await signInApi(page.request, seeded.email);
  const { ws } = seeded;
  const audit = new Audit(page);

  // Create item, then the bulk upload it offers.
  await page.goto(`/${ws}/_items/all`);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Add an item' })).toBeVisible();
  await audit.check('add item dialog');
  await page.getByTestId('upload-images-option').click();
  await expect(page.getByRole('dialog', { name: 'Upload images' })).toBeVisible();
  await audit.check('bulk upload dialog');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // New release, and Add to release from a list selection.
  await page.goto(`/${ws}/_releases`);
  await page.getByRole('button', { name: 'New release' }).click();
  await expect(page.getByRole('dialog', { name: 'New release' })).toBeVisible();
  await audit.check('new release dialog');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.goto(`/${ws}/marketing/copy`);
  await page.getByRole('checkbox', { name: 'Select Autumn headline' }).check();
  await audit.check('list with a selection');
  await page.getByRole('button', { name: 'Add to release' }).click();
  await expect(page.getByRole('dialog', { name: 'Add 1 item to a release' })).toBeVisible();
  await audit.check('add to release dialog');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Comment, approvals and publishing panels of the item drawer.
  await page.goto(itemPath('copy'));
  for (const tab of ['Comments', 'Approvals', 'History']) {
    await page.getByRole('tab', { name: tab }).click();
    await audit.check(`item drawer › ${tab}`);
  }
  await page.getByRole('tab', { name: 'Comments' }).click();
  await page.getByLabel('New comment').fill('Please check the tone.');
  await page.getByRole('button', { name: 'Comment', exact: true }).click();
  await expect(page.getByTestId('comment')).toContainText('Please check the tone.');
  await audit.check('item drawer › a comment');

  // Menus open: the item's actions, the account menu and the workspace switcher. Each closes (its exit
  // transition ends) before the next opens.
  const closeMenu = async () => {
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toHaveCount(0);
  };
  // Audited once its enter transition has ended: half faded in, its text fails the contrast check.
  const menuShown = async (name: string | RegExp) => {
    const menu = page.getByRole('menu', { name });
    await expect(menu).toBeVisible();
    await expect(menu).toHaveCSS('opacity', '1');
  };
  await page.getByRole('button', { name: 'Actions', exact: true }).click();
  await menuShown('Actions');
  await audit.check('item actions menu');
  await closeMenu();
  // Without Mantine's focus placeholder the menu still works from the keyboard.
  await page.getByRole('button', { name: 'Actions', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menu', { name: 'Actions' })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('[role="menuitem"]:focus')).toHaveCount(1);
  await closeMenu();
  await page.getByRole('button', { name: /Account menu/ }).click();
  await menuShown(/Account menu/);
  await audit.check('account menu');
  await closeMenu();
  await page.getByRole('button', { name: /Switch workspace/ }).click();
  await menuShown(/Switch workspace/);
  await audit.check('workspace switcher');
  await closeMenu();

  // The restore confirm, once the event item has a second version.
  const eventApi = `/api/v1/workspaces/${ws}/items/event/${seeded.items.event}`;
  const stored = (await (await page.request.get(eventApi)).json()) as { version: number; data: object };
  const put = await page.request.put(eventApi, {
    data: { baseVersion: stored.version, data: { ...stored.data, name: 'Harbour festival, moved' } },
  });
  expect(put.status(), await put.text()).toBe(200);
  await page.goto(itemPath('event'));
  await page.getByRole('tab', { name: 'History' }).click();
  await page.getByRole('button', { name: 'Restore this version' }).first().click();
  await expect(page.getByRole('dialog', { name: /Restore version/ })).toBeVisible();
  await audit.check('restore version confirm');
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

  // The rich text field's image picker.
  await page.goto(itemPath('blog-post'));
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await page.getByRole('button', { name: 'Insert image', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Insert image' })).toBeVisible();
  await audit.check('insert image picker');
  await page.keyboard.press('Escape');

  // Quick view from a list.
  await page.goto(`/${ws}/marketing/copy`);
  await page.getByRole('button', { name: 'Quick view of Autumn headline' }).click();
  await expect(page.getByTestId('quick-view-item')).toBeVisible();
  await audit.check('quick view');
  await page.getByRole('button', { name: 'Done' }).click();

  // The criteria builder's clear confirm.
  await page.goto(itemPath('audience'));
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await page.getByRole('button', { name: 'Clear', exact: true }).first().click();
  await expect(page.getByRole('dialog', { name: 'Clear all rules?' })).toBeVisible();
  await audit.check('criteria clear confirm');
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

  // The campaign's A/B test editor, switched on: its variants, shares, wait and winner rule.
  await page.goto(itemPath('campaign'));
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await page.getByRole('switch', { name: 'Test variants on a share of the audience first' }).check();
  await expect(page.getByTestId('variant-B')).toBeVisible();
  await audit.check('campaign A/B test editor');

  // Invite a member, then the revoke confirm; a role dialog.
  await page.goto(`/${ws}/_settings/users`);
  const invite = page.getByRole('form', { name: 'Invite people' });
  await invite.getByLabel('Email').fill(uniqueEmail('invitee'));
  await invite.getByLabel('Roles').click();
  await page.getByRole('option').first().click();
  await page.keyboard.press('Escape');
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByRole('table', { name: 'Pending invitations' })).toBeVisible();
  await audit.check('users with an invitation');
  await page.getByRole('button', { name: 'Revoke' }).first().click();
  await expect(page.getByRole('dialog', { name: 'Revoke invitation' })).toBeVisible();
  await audit.check('revoke confirm');
  await page.getByRole('button', { name: 'Keep' }).click();
  await page.goto(`/${ws}/_settings/roles`);
  await page.getByRole('button', { name: 'Add role' }).click();
  await expect(page.getByRole('dialog', { name: 'Add a role' })).toBeVisible();
  await audit.check('add role dialog');
  await page.keyboard.press('Escape');

  // A test send through a provider that is not configured: the refusal names the setting to set.
  await page.goto(itemPath('email'));
  const testSend = page.getByTestId('email-test-send');
  await testSend.getByRole('combobox', { name: 'Email delivery provider' }).click();
  await page.getByRole('option', { name: 'SendGrid' }).click();
  await testSend.getByRole('button', { name: 'Send test' }).click();
  await expect(testSend.getByRole('alert').getByText('SENDGRID_API_KEY')).toBeVisible();
  await audit.check('test send refused, with the setting hint');

  // The customers import dialog.
  await page.goto(`/${ws}/marketing/_customers`);
  await page.getByRole('button', { name: 'Import', exact: true }).first().click();
  await expect(page.getByRole('dialog', { name: 'Import customer data' })).toBeVisible();
  await audit.check('customer import dialog');
  audit.expectClean();
});

test('locale screens have no serious or critical axe violations', async ({ page }) => {
  test.setTimeout(180_000);
  await seedVerifiedUser(page.request, 'a11y-locales');
  const { id: ws } = await seedWorkspace(page.request, `Locales a11y ${Date.now().toString(36)}`, {
    basics: { locales: { tags: ['en-US', 'fr-FR'], default: 'en-US', fallback: { 'fr-FR': 'en-US' } } },
    roles: { french: { ...FRENCH_EDITOR, locales: ['fr-FR'] } },
  });
  const post = await seedItem(page.request, ws, 'blog-post', {
    name: 'Good morning',
    slug: 'good-morning',
    body: '<p>Morning</p>',
    _locales: { 'fr-FR': { name: 'Bonjour' } },
  });
  const audit = new Audit(page);

  await audit.visit(`/${ws}/_settings/roles`, heading('Roles'), 'roles with locales');
  await expect(page.getByText('fr-FR only')).toBeVisible();
  // The keyboard opens the list: focus, then the down arrow.
  await page.getByTestId('role-french').getByLabel('Locales', { exact: true }).focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('option', { name: /en-US/ })).toBeVisible();
  await audit.check('roles with the locales list open');
  await page.keyboard.press('Escape');

  await audit.visit(
    `/${ws}/blogging/blog-post/${post.id}`,
    (p) => p.getByTestId('locale-bar'),
    'item locale bar (view)',
  );
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await page.getByRole('combobox', { name: 'Locale' }).selectOption('fr-FR');
  await page.getByRole('switch', { name: 'Side by side with en-US' }).check();
  await expect(page.getByRole('textbox', { name: 'Title (fr-FR)' })).toBeVisible();
  await audit.check('item in fr-FR, side by side (edit)');

  await audit.visit(`/${ws}/blogging/blog-post`, heading(/Blog Posts/), 'list with locales');
  await page.getByRole('combobox', { name: 'Translations' }).selectOption('fr-FR');
  await expect(page.getByText('Good morning')).toBeVisible();
  await audit.check('list missing fr-FR');
  audit.expectClean();
});

/** Presses Tab until `target` has the focus, as a keyboard user would reach it. */
async function tabTo(page: Page, target: Locator, maxPresses = 120, key: 'Tab' | 'Shift+Tab' = 'Tab') {
  for (let i = 0; i < maxPresses; i++) {
    await page.keyboard.press(key);
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

const isFocused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement);

test('keyboard only: the focus ring shows, a dialog traps focus and returns it to its opener', async ({
  page,
}) => {
  await signInApi(page.request, seeded.email);
  await page.goto(`/${seeded.ws}/_items/all`);
  const add = page.getByRole('button', { name: 'Add', exact: true });
  await tabTo(page, add);
  await expect(add).toHaveCSS('outline-style', 'solid');

  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Add an item' });
  await expect(dialog).toBeVisible();
  for (let i = 0; i < 25; i++) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect.poll(() => isFocused(add)).toBe(true);
});

test('keyboard only: a table row moves up and the new order is saved', async ({ page }) => {
  await signInApi(page.request, seeded.email);
  await page.goto(itemPath('behavioral-event'));
  await tabTo(page, page.getByRole('button', { name: 'Edit', exact: true }));
  await page.keyboard.press('Enter');
  const moveUp = page.getByRole('button', { name: 'Move row 2 up' });
  await tabTo(page, moveUp);
  await page.keyboard.press('Space');
  await tabTo(page, page.getByRole('button', { name: 'Save', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Edit', exact: true })).toBeVisible();
  const saved = await (
    await page.request.get(
      `/api/v1/workspaces/${seeded.ws}/items/behavioral-event/${seeded.items['behavioral-event']}`,
    )
  ).json();
  expect(saved.data.properties.map((p: { name: string }) => p.name)).toEqual(['currency', 'amount']);
});

test('keyboard only: the focal point moves with the arrow keys and is saved', async ({ page }) => {
  await signInApi(page.request, seeded.email);
  await page.goto(itemPath(IMAGE_SET));
  await tabTo(page, page.getByRole('button', { name: 'Edit', exact: true }));
  await page.keyboard.press('Enter');
  const picker = page.getByTestId('focal-point-image');
  await tabTo(page, picker);
  await expect(picker).toHaveAccessibleName(/Focal point at 50% across, 50% down/);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  await expect(picker).toHaveAccessibleName(/Focal point at 60% across, 55% down/);
  await tabTo(page, page.getByRole('button', { name: 'Save', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Edit', exact: true })).toBeVisible();
  const saved = await (
    await page.request.get(`/api/v1/workspaces/${seeded.ws}/items/${IMAGE_SET}/${seeded.items[IMAGE_SET]}`)
  ).json();
  expect(saved.data.masterImage).toMatchObject({ focusX: 0.6, focusY: 0.55 });
});

test('the content model screen, its dialogs, review and history have no serious or critical axe violations', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signInApi(page.request, seeded.email);
  const { ws } = seeded;
  const audit = new Audit(page);
  await audit.visit(`/${ws}/_settings/content-model`, heading('Content model'), 'content model');
  await page.getByRole('button', { name: /^Blog Post blog-post/ }).click();
  await expect(page.getByRole('button', { name: 'Add field to Blog Post' })).toBeVisible();
  await audit.check('content model with a schema open');

  // The field editor with a select's options, a validator and a display condition.
  await page.getByRole('button', { name: 'Edit Tags' }).click();
  const editor = page.getByRole('dialog', { name: /Edit field “Tags”/ });
  await editor.getByLabel('Type', { exact: true }).click();
  await page.getByRole('option', { name: 'Select', exact: true }).click();
  await editor.getByRole('button', { name: 'Add option' }).click();
  await editor.getByLabel('Option 1 label').fill('Travel');
  await editor.getByRole('button', { name: 'Add validator' }).click();
  await editor.getByLabel('Show this field').click();
  await page.getByRole('option', { name: 'When another field equals a value' }).click();
  await audit.check('field editor');
  await page.keyboard.press('Escape');
  await expect(editor).toBeHidden();
  // A new table field's columns, and a column's own editor over it.
  await page.getByRole('button', { name: 'Add field to Blog Post' }).click();
  const table = page.getByRole('dialog', { name: 'New field in Blog Post' });
  await table.getByRole('textbox', { name: 'Label', exact: true }).fill('Specs');
  await table.getByLabel('Type', { exact: true }).click();
  await page.getByRole('option', { name: 'Table', exact: true }).click();
  await table.getByRole('button', { name: 'Add column to Specs' }).click();
  const column = page.getByRole('dialog', { name: 'New column in Specs' });
  await column.getByRole('textbox', { name: 'Label', exact: true }).fill('Size');
  await audit.check('column editor');
  await column.getByRole('button', { name: 'Add column' }).click();
  await expect(table.getByTestId('column-size')).toBeVisible();
  await audit.check('table field editor with its columns');
  await page.keyboard.press('Escape');
  await expect(table).toBeHidden();
  await page.getByRole('button', { name: 'Add schema to Blogging' }).click();
  await expect(page.getByRole('dialog', { name: 'Add a schema' })).toBeVisible();
  await audit.check('add schema dialog');
  await page.keyboard.press('Escape');

  // A pending change, its review, then the history.
  await page.getByRole('button', { name: 'Move Excerpt down' }).click();
  await expect(page.getByRole('region', { name: 'Pending changes' })).toBeVisible();
  await audit.check('content model with a pending change');
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(page.getByTestId('plan')).toBeVisible();
  await audit.check('content model review');
  await page.getByRole('button', { name: 'Back to editing' }).click();
  await page.getByRole('button', { name: 'Discard' }).click();
  await page.getByRole('tab', { name: 'History' }).click();
  await expect(page.getByRole('tab', { name: 'History' })).toHaveAttribute('aria-selected', 'true');
  await audit.check('content model history');
  audit.expectClean();
});

test('keyboard only: a field is added to blog posts, moved up and applied on the content model screen', async ({
  page,
}) => {
  await signInApi(page.request, seeded.email);
  await page.goto(`/${seeded.ws}/_settings/content-model`);
  await expect(heading('Content model')(page)).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: /^Blog Post blog-post/ }));
  await page.keyboard.press('Enter');
  const add = page.getByRole('button', { name: 'Add field to Blog Post' });
  await tabTo(page, add);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'New field in Blog Post' });
  await expect(dialog.getByRole('textbox', { name: 'Label', exact: true })).toBeFocused();
  await page.keyboard.type('Reading time');
  const type = dialog.getByLabel('Type', { exact: true });
  await tabTo(page, type, 10);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('Number');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(type).toHaveValue('Number');
  await tabTo(page, dialog.getByRole('button', { name: 'Add field' }));
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect.poll(() => isFocused(add)).toBe(true);

  await tabTo(page, page.getByRole('button', { name: 'Move Reading time up' }), 20, 'Shift+Tab');
  await page.keyboard.press('Space');
  await tabTo(page, page.getByRole('button', { name: 'Apply', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page.getByText('Content model updated')).toBeVisible();
  const { model } = await (await page.request.get(`/api/v1/workspaces/${seeded.ws}/content-model`)).json();
  const blogPost = model.domains
    .flatMap((domain: { schemas: { name: string; fields: { key: string }[] }[] }) => domain.schemas)
    .find((schema: { name: string }) => schema.name === 'blog-post');
  expect(blogPost.fields.map((field: { key: string }) => field.key).slice(-2)).toEqual([
    'readingTime',
    'publishDate',
  ]);
});

test('keyboard only: a new table field gets a column in its own editor on the content model screen', async ({
  page,
}) => {
  await signInApi(page.request, seeded.email);
  await page.goto(`/${seeded.ws}/_settings/content-model`);
  await expect(heading('Content model')(page)).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: /^Blog Post blog-post/ }));
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByRole('button', { name: 'Add field to Blog Post' }));
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'New field in Blog Post' });
  await expect(dialog.getByRole('textbox', { name: 'Label', exact: true })).toBeFocused();
  await page.keyboard.type('Specs');
  const type = dialog.getByLabel('Type', { exact: true });
  await tabTo(page, type, 10);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('Table');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(type).toHaveValue('Table');
  const addColumn = dialog.getByRole('button', { name: 'Add column to Specs' });
  await tabTo(page, addColumn, 30);
  await page.keyboard.press('Enter');
  const column = page.getByRole('dialog', { name: 'New column in Specs' });
  await expect(column.getByRole('textbox', { name: 'Label', exact: true })).toBeFocused();
  await page.keyboard.type('Size');
  await tabTo(page, column.getByRole('button', { name: 'Add column' }), 40);
  await page.keyboard.press('Enter');
  await expect(column).toBeHidden();
  await expect.poll(() => isFocused(addColumn)).toBe(true);
  await expect(dialog.getByTestId('column-size')).toBeVisible();
  await tabTo(page, dialog.getByRole('button', { name: 'Add field' }), 40);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  const panel = page.getByRole('region', { name: 'Pending changes' });
  await expect(panel).toContainText('Add field "specs" (table) to "blog-post"');
  await panel.getByRole('button', { name: 'Discard' }).click();
  await expect(panel).toBeHidden();
});

test('screens changed for accessibility, at desktop and phone sizes', async ({ page }) => {
  test.setTimeout(180_000);
  const { ws, items } = seeded;
  const screens: [string, string, (p: Page) => Locator][] = [
    ['sign-in', '/auth/welcome', heading('Welcome back')],
    ['workspaces', '/workspaces', heading('Workspaces')],
    ['explore', `/${ws}/_items/all`, heading('All items')],
    ['item', itemPath('copy'), (p) => p.getByTestId('item-heading')],
    ['changelog', `/${ws}/changelog/marketing/copy/${items.copy}`, heading(/./)],
    ['delete', `${itemPath('copy')}/delete`, heading(/./)],
    ['basics', `/${ws}/_settings/basics`, heading('Basics')],
    ['users', `/${ws}/_settings/users`, heading('Users')],
  ];
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ]) {
    await page.setViewportSize({ width, height });
    for (const [name, path, ready] of screens) {
      if (name === 'workspaces') await signInApi(page.request, seeded.email);
      await page.goto(path);
      await expect(ready(page)).toBeVisible();
      await shot(page, `a11y-${name}-${width}`);
    }
    await page.context().clearCookies();
    await acceptCookies(page.context());
  }
});

test('live preview: the pane, preview origins and preview URLs have no serious or critical axe violations and work from the keyboard', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  // The framed site's requests carry their own Origin (Chromium refuses an imposed one).
  const context = await browser.newContext({ baseURL: BASE_URL, extraHTTPHeaders: {} });
  await acceptCookies(context);
  await context.route('**/api/v1/workspaces/*/live?*', (route) => route.abort());
  const page = await context.newPage();
  let close = () => Promise.resolve<unknown>(undefined);
  const { ws, pageId } = await seedPreviewWorkspace(page.request, async (workspace) => {
    const site = await startSite(workspace);
    close = site.close;
    return { site };
  });
  try {
    const audit = new Audit(page);
    await audit.visit(`/${ws}/_settings/preview`, heading('Preview'), 'settings › preview');
    // Keyboard: add an origin and save it.
    await page.getByRole('button', { name: 'Add origin' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('textbox', { name: 'Preview origin 2' }).focus();
    await page.keyboard.type('https://www.example.com/blog');
    await expect(page.getByText('"https://www.example.com/blog" is not an origin')).toBeVisible();
    for (let i = 0; i < '/blog'.length; i++) await page.keyboard.press('Backspace');
    await page.getByRole('button', { name: 'Save preview origins' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByText('Preview origins saved')).toBeVisible();
    await shot(page, 'a11y-preview-origins');

    await page.goto(`/${ws}/_settings/content-model`);
    await page.getByRole('button', { name: /^Landing page landing-page/ }).click();
    await page.getByRole('button', { name: 'Edit schema Landing page' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit schema Landing page' });
    await expect(dialog.getByRole('textbox', { name: 'Preview URL 1' })).toHaveValue(/\/landing\/\{slug\}/);
    await audit.check('schema editor with preview URLs');
    await shot(page, 'a11y-preview-urls');
    await page.keyboard.press('Escape');

    // Keyboard: the Preview toggle opens the pane beside the form.
    await page.goto(`/${ws}/blogging/landing-page/${pageId}`);
    const toggle = page.getByRole('button', { name: 'Preview', exact: true });
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    const frame = page.frameLocator('iframe[title="Preview of Landing page on the website"]');
    await expect(frame.getByRole('heading', { level: 1 })).toHaveText('Summer at the harbour');
    await audit.check('item screen with the preview pane', '[data-testid="preview-pane"]');
    await page.getByRole('radio', { name: 'Tablet' }).focus();
    await page.keyboard.press('Space');
    await expect(page.locator('iframe')).toHaveCSS('width', '768px');
    audit.expectClean();
  } finally {
    await context.close();
    await close();
  }
});

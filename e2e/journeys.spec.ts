import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { shot } from './fixtures';
import { startSendServer } from './send-server';

/**
 * A welcome journey end to end: drawn on the canvas (entry event signup → email → exit), approved,
 * started; a page on another origin sends the signup through /ingest/v1 with the browser script; the
 * email reaches the SMTP server, the canvas counts it, and the customer's profile shows the journey.
 */

// This server is another origin than the main one, whose Origin the config sends with every request.
test.use({ extraHTTPHeaders: {} });

// Past the other helpers' ports (E2E_PORT + 1000, + 1100, + 2000) and the unsubscribe spec's (+ 3000).
const PORT = Number(process.env.E2E_PORT ?? 8090) + 3050;
const CUSTOMER = { id: 'newcomer-1', email: 'newcomer@example.test' };
const READERS = [
  { id: 'reader-1', email: 'reader@example.test', firstName: 'Rea' },
  { id: 'reader-2', email: 'reader2@example.test', firstName: 'Ray' },
  { id: 'reader-3', email: 'reader3@example.test', firstName: 'Rex' },
];
let server: Awaited<ReturnType<typeof startSendServer>>;

test.beforeAll(async () => {
  server = await startSendServer(PORT, READERS);
});
test.afterAll(() => server.close());

/** The customer's site: it loads the app's browser script and, identified, signs up. */
async function startSite(appUrl: string) {
  let key = '';
  const site = http.createServer((req, res) => {
    if (req.url === '/site.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(`
        marquee.init(${JSON.stringify(key)});
        marquee.identify(${JSON.stringify(CUSTOMER.id)}, { email: ${JSON.stringify(CUSTOMER.email)} });
        marquee.track('signup', { plan: 'pro' });
        marquee.flush();`);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><head><title>Join</title><script src="${appUrl}/sdk/marquee.js"></script></head>
      <body><h1>Welcome</h1><script src="/site.js"></script></body></html>`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(site.address() as AddressInfo).port}`,
    setKey: (value: string) => void (key = value),
    close: () => new Promise<void>((resolve) => site.close(() => resolve())),
  };
}

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function api(page: Page, method: 'POST' | 'PATCH' | 'PUT', path: string, data?: unknown) {
  const res = await page.request.fetch(`${server.url}${path}`, {
    method,
    headers: { origin: server.url },
    data,
  });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.json();
}

/** Signs the manager in; the Admin role (the manager's) must approve every journey version before it can start. */
async function signInApproving(page: Page, context: BrowserContext) {
  const { ws } = server;
  await context.addCookies([{ name: 'marquee_cookie_notification', value: '1', url: server.url }]);
  await api(page, 'POST', '/api/v1/auth/sign-in', server.manager);
  const workspace = await (await page.request.get(`${server.url}/api/v1/workspaces/${ws}`)).json();
  await api(page, 'PATCH', `/api/v1/workspaces/${ws}`, {
    roles: { ...workspace.roles, admin: { ...workspace.roles.admin, mustApprove: ['journey'] } },
    baseVersion: workspace.version,
  });
}

test('a welcome journey drawn on the canvas, approved and started, mails a new customer', async ({
  page,
  browser,
  context,
}) => {
  const { ws } = server;
  await signInApproving(page, context);

  // The new journey starts with its entry (signup) and an exit; an email step goes in between.
  await page.goto(`${server.url}/${ws}/marketing/journey/new`);
  await page.getByLabel('Name', { exact: true }).fill('Welcome');
  const canvas = page.getByTestId('journey-canvas');
  await expect(canvas.getByTestId('journey-node-entry')).toContainText('Event “signup”');
  await expect(canvas.getByTestId('journey-node-done')).toBeVisible();
  await page.getByRole('toolbar', { name: 'Add a step' }).getByRole('button', { name: 'Send email' }).click();
  const email = canvas.getByTestId('journey-node-email-1');
  await expect(email).toHaveAttribute('data-invalid', 'true');
  const problems = page.getByTestId('journey-problems');
  await expect(problems).toContainText('Step "email-1": choose the email template to send');
  await expect(problems).toContainText('Step "email-1": it cannot be reached from the first step');
  await shot(page, 'journeys-01-email-added');

  // The side panel: the template, the sender and the subject; then it becomes the first step and
  // its exit leads to the exit step, chosen from a list (the keyboard's way to connect).
  const panel = page.getByTestId('journey-step-panel');
  await choose(page, 'Email template', 'Letter');
  await choose(page, 'Sender', 'Acme News <news@acme.example>');
  await panel.getByLabel('Subject').fill('Welcome aboard');
  await panel.getByLabel('Name').fill('Welcome mail');
  await panel.getByRole('button', { name: 'Make first step' }).click();
  await choose(page, 'Next step', 'done');
  await expect(problems).toBeHidden();
  await expect(email).not.toHaveAttribute('data-invalid');
  await expect(email).toContainText('Welcome mail');
  // Laid out again: the entry, the email, the exit, top to bottom.
  await page.getByRole('button', { name: 'Arrange' }).click();
  const top = async (id: string) => (await canvas.getByTestId(id).boundingBox())!.y;
  await expect
    .poll(async () => (await top('journey-node-email-1')) < (await top('journey-node-done')))
    .toBe(true);
  expect(await top('journey-node-entry')).toBeLessThan(await top('journey-node-email-1'));
  await canvas.scrollIntoViewIfNeeded();
  await shot(page, 'journeys-02-drawn');
  await page.setViewportSize({ width: 390, height: 844 });
  await canvas.scrollIntoViewIfNeeded();
  await canvas.getByRole('button', { name: 'Fit View' }).click();
  await shot(page, 'journeys-02-drawn-phone');
  await page.setViewportSize({ width: 1360, height: 860 });

  // A webhook (exits next and failed) and an audience branch (yes and no), connectable, then removed.
  const palette = page.getByRole('toolbar', { name: 'Add a step' });
  await palette.getByRole('button', { name: 'Webhook' }).click();
  await panel.getByLabel('URL').fill('https://example.com/hook');
  await palette.getByRole('button', { name: 'Audience branch' }).click();
  const hook = canvas.getByTestId('journey-node-webhook-1');
  const branch = canvas.getByTestId('journey-node-audience-branch-1');
  await expect(hook).toContainText('https://example.com/hook');
  await expect(hook.locator('.react-flow__handle[data-handleid="failed"]')).toHaveCount(1);
  await expect(branch.locator('.react-flow__handle[data-handleid="no"]')).toHaveCount(1);
  await expect(problems).toContainText('Step "audience-branch-1": choose the audience');
  await page.getByRole('button', { name: 'Arrange' }).click();
  await canvas.getByRole('button', { name: 'Fit View' }).click();
  await shot(page, 'journeys-02-webhook-audience-branch');
  for (const node of [branch, hook]) {
    await node.click();
    await panel.getByRole('button', { name: 'Remove step' }).click();
  }
  await expect(hook).toBeHidden();
  await expect(branch).toBeHidden();

  // By keyboard: a step added and removed again with the Delete key, the exit step selected with Enter.
  await page
    .getByRole('toolbar', { name: 'Add a step' })
    .getByRole('button', { name: 'Wait', exact: true })
    .click();
  const wait = canvas.locator('.react-flow__node[data-id="wait-1"]');
  await wait.focus();
  await page.keyboard.press('Delete');
  await expect(wait).toBeHidden();
  await canvas.locator('.react-flow__node[data-id="done"]').focus();
  await page.keyboard.press('Enter');
  await expect(panel).toContainText('The journey ends here.');
  await expect(problems).toBeHidden();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/${ws}/marketing/journey/(?!new)[A-Za-z0-9_-]+$`));
  const journeyId = new URL(page.url()).pathname.split('/').pop()!;

  // Not approved yet: the server refuses the start, and says why.
  const running = page.getByTestId('journey-panel');
  await expect(running.getByTestId('journey-state')).toHaveText('not started');
  await running.getByRole('button', { name: 'Start version 1' }).click();
  await expect(running.getByRole('alert')).toHaveText(
    'This version of the journey needs every approval before it can be started',
  );
  await page.getByRole('tab', { name: 'Approvals' }).click();
  await page.getByRole('button', { name: 'Approve as Admin' }).click();
  await expect(page.getByRole('button', { name: 'Approve as Admin' })).toBeHidden();
  await running.getByRole('button', { name: 'Start version 1' }).click();
  await expect(running.getByTestId('journey-state')).toHaveText('running · version 1');
  await expect(running.getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect(canvas.getByTestId('journey-node-email-1').getByTestId('journey-node-waiting')).toHaveText(
    '0 waiting',
  );
  await canvas.scrollIntoViewIfNeeded();
  await shot(page, 'journeys-03-started');

  // The customer signs up on the site, another origin allowed by a write key.
  const site = await startSite(server.url);
  try {
    const key = await api(page, 'POST', `/api/v1/workspaces/${ws}/write-keys`, {
      name: 'Site',
      origins: [site.origin],
    });
    site.setKey(key.key);
    const visitor = await browser.newContext();
    const sitePage = await visitor.newPage();
    const sent = sitePage.waitForResponse((r) => r.url().startsWith(`${server.url}/ingest/v1/batch`));
    await sitePage.goto(site.origin);
    expect((await sent).status()).toBe(202);
    await visitor.close();
  } finally {
    await site.close();
  }

  // The email reaches the SMTP server, once.
  await expect.poll(() => server.receivedBy(CUSTOMER.email).length, { timeout: 30_000 }).toBe(1);
  expect(server.receivedBy(CUSTOMER.email)[0].mail.subject).toBe('Welcome aboard');

  // The canvas counts it: the email's exit passed one profile, the journey entered one.
  await expect(canvas.getByText('1 passed')).toBeVisible();
  await expect(running.getByTestId('journey-totals')).toContainText('1 entered');
  await canvas.scrollIntoViewIfNeeded();
  await shot(page, 'journeys-04-counted');

  // The customer's profile shows the journey: entered, the email step, finished.
  await page.goto(`${server.url}/${ws}/marketing/_customers/${CUSTOMER.id}`);
  const history = page.getByTestId('profile-journeys');
  const run = history.getByTestId('profile-journey-run').first();
  await expect(run.getByRole('link', { name: 'Welcome' })).toHaveAttribute(
    'href',
    `/${ws}/marketing/journey/${journeyId}`,
  );
  await expect(run).toContainText('Entered');
  await expect(run).toContainText('Welcome mail');
  await expect(run).toContainText('Finished');
  await history.scrollIntoViewIfNeeded();
  await shot(page, 'journeys-05-profile');
});

/** Hello, then a wait; version 2 shortens the wait and adds a follow-up after it. */
const versionedJourney = (version: 1 | 2) => {
  const email = (id: string, subject: string) => ({
    id,
    type: 'email',
    email: server.emailId,
    sender: server.senderId,
    subject,
  });
  const wait = { id: 'nap', name: 'Long wait', type: 'wait', seconds: (version === 1 ? 30 : 7) * 86_400 };
  const steps = [email('hello', 'Hello'), wait, { id: 'done', type: 'exit' }];
  return version === 1
    ? {
        entry: { kind: 'api' },
        start: 'hello',
        steps,
        edges: [
          { from: 'hello', to: 'nap' },
          { from: 'nap', to: 'done' },
        ],
      }
    : {
        entry: { kind: 'api' },
        start: 'hello',
        steps: [...steps, email('follow', 'Following up')],
        edges: [
          { from: 'hello', to: 'nap' },
          { from: 'nap', to: 'follow' },
          { from: 'follow', to: 'done' },
        ],
      };
};

test('starting a new version offers the plan of where the waiting profiles go', async ({ page, context }) => {
  const { ws } = server;
  await signInApproving(page, context);
  const items = `/api/v1/workspaces/${ws}/items/journey`;
  const save = (version: 1 | 2) => ({
    name: 'Versions',
    definition: JSON.stringify(versionedJourney(version)),
  });
  const item = await api(page, 'POST', items, { data: save(1) });
  await api(page, 'POST', `${items}/${item.id}/approvals`, { roleId: 'admin' });
  const journey = `/api/v1/workspaces/${ws}/journeys/${item.id}`;
  await api(page, 'POST', `${journey}/start`, {});
  expect(await api(page, 'POST', `${journey}/enter`, { profileIds: READERS.map((r) => r.id) })).toEqual({
    entered: 3,
    refused: 0,
  });
  const waitingAt = async (version: number, stepId: string) => {
    const results = await (await page.request.get(`${server.url}${journey}/results`)).json();
    const started = results.versions.find((each: { version: number }) => each.version === version);
    return started?.steps.find((step: { stepId: string }) => step.stepId === stepId)?.waiting ?? 0;
  };
  await expect.poll(() => waitingAt(1, 'nap'), { timeout: 30_000 }).toBe(3);
  await expect.poll(() => server.receivedBy(READERS[2].email).length, { timeout: 30_000 }).toBe(1);
  await api(page, 'PUT', `${items}/${item.id}`, { data: save(2), baseVersion: 1 });
  await api(page, 'POST', `${items}/${item.id}/approvals`, { roleId: 'admin' });

  // Version 1 runs: Start opens the plan, its wait mapped to version 2's wait of the same id.
  await page.goto(`${server.url}/${ws}/marketing/journey/${item.id}`);
  const running = page.getByTestId('journey-panel');
  await expect(running.getByTestId('journey-state')).toHaveText('running · version 1');
  await running.getByRole('button', { name: 'Start version 2' }).click();
  const dialog = page.getByRole('dialog', { name: 'Start version 2' });
  const nap = dialog.getByTestId('journey-plan-step-nap');
  await expect(nap.getByTestId('journey-plan-waiting')).toHaveText('3');
  const napTarget = dialog.getByLabel('Where the profiles waiting at Long wait of version 1 go');
  await expect(napTarget).toHaveValue('nap');
  await expect(dialog.getByTestId('journey-plan-summary')).toHaveText(
    '3 profiles move to version 2 · 0 profiles finish where they are',
  );
  // By keyboard: Tab goes from the hello step's select to the wait's.
  const helloTarget = dialog.getByLabel('Where the profiles waiting at hello of version 1 go');
  await helloTarget.focus();
  await page.keyboard.press('Tab');
  await expect(napTarget).toBeFocused();
  await napTarget.selectOption({ label: 'Finish on version 1' });
  await expect(dialog.getByTestId('journey-plan-summary')).toHaveText(
    '0 profiles move to version 2 · 3 profiles finish where they are',
  );
  await napTarget.selectOption({ label: 'Long wait · Wait (version 2)' });
  await shot(page, 'journeys-06-start-plan');

  await dialog.getByRole('button', { name: 'Start version 2' }).click();
  await expect(dialog).toBeHidden();
  await expect(running.getByTestId('journey-state')).toHaveText('running · version 2');
  await expect.poll(() => waitingAt(2, 'nap')).toBe(3);
  expect(await waitingAt(1, 'nap')).toBe(0);
  // Nothing was sent again: each reader got the hello once.
  for (const reader of READERS) expect(server.receivedBy(reader.email)).toHaveLength(1);
  await shot(page, 'journeys-07-started-version-2');
});

import { act } from 'react';
import { MemoryRouter } from 'react-router';
import { screen, within } from '@testing-library/react';
import {
  CAMPAIGN_MESSAGES,
  type CampaignReadiness,
  type CampaignResults,
  type CampaignSend,
  type CampaignTestSendAnswer,
} from '@shared/api/campaigns';
import { installFakeApi, type FakeApi } from '@web/test/fake-api';
import { makeWorkspace } from '@web/test/workspace';
import { click, findByText, waitFor } from '@web/test/render';
import { bodyText, button, byLabel, changeValue, pickOption, renderUi } from '../item-form/test-utils';
import { CampaignPanel } from './campaign-panel';
import { NO_PUBLISH_RIGHTS, SEND_AGAIN } from './send-button';
import { resendLabel } from './past-sends';

const BASE = '/api/v1/workspaces/acme/campaigns/c1';

const readiness = (overrides: Partial<CampaignReadiness> = {}): CampaignReadiness => ({
  audienceSize: 1300,
  recipients: 1234,
  alreadyReceived: 0,
  suppressed: 40,
  unsubscribed: 20,
  withoutEmail: 6,
  unknownConsent: 0,
  emailAttribute: 'email',
  mailUnknownConsent: false,
  addressAttributes: [
    { key: 'email', label: 'Email' },
    { key: 'work-email', label: 'Work email' },
  ],
  canChangeRecipients: false,
  approved: true,
  canSend: true,
  problems: [],
  warnings: [],
  senderVerified: true,
  htmlBytes: 20_000,
  clipped: false,
  current: null,
  ...overrides,
});

const send = (overrides: Partial<CampaignSend> = {}): CampaignSend => ({
  id: 'send-1',
  campaignId: 'c1',
  campaignVersion: 3,
  state: 'sending',
  provider: 'smtp',
  everyone: false,
  subject: 'Autumn news',
  sendAt: '2026-11-27T10:00:00.000Z',
  snapshotAt: '2026-11-27T10:00:01.000Z',
  counts: {
    audience: 110,
    recipients: 100,
    alreadyReceived: 0,
    sent: 40,
    failed: 2,
    unconfirmed: 0,
    pending: 58,
  },
  createdAt: '2026-11-27T10:00:00.000Z',
  createdBy: 'u1',
  createdByName: 'Ada Lovelace',
  startedAt: '2026-11-27T10:00:01.000Z',
  finishedAt: null,
  error: null,
  experiment: null,
  ...overrides,
});

const results = (sendId: string, overrides: Partial<CampaignResults> = {}): CampaignResults => ({
  sendId,
  counts: {
    recipients: 100,
    delivered: 98,
    failed: 2,
    opened: 49,
    clicked: 12,
    bounced: 1,
    complained: 0,
    unsubscribed: 3,
  },
  rates: { opened: 0.5, clicked: 0.1224, bounced: 0.0102, unsubscribed: 0.0306 },
  timeline: [],
  links: [
    { idx: 0, url: 'https://acme.io/autumn', people: 3, totalClicks: 4 },
    { idx: 1, url: 'https://acme.io/sale', people: 9, totalClicks: 10 },
  ],
  experiment: null,
  ...overrides,
});

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi({
    [`GET ${BASE}/readiness`]: () => [200, readiness()],
    [`GET ${BASE}/preview`]: (_, url) => [
      200,
      {
        profileId: url.searchParams.get('profileId'),
        subject: url.searchParams.get('profileId')
          ? 'Hello Ada, autumn is here'
          : 'Hello there, autumn is here',
        html: '<!doctype html><html><body><p>Autumn</p></body></html>',
        text: 'Autumn',
        htmlBytes: 120,
        clipped: false,
      },
    ],
    [`GET ${BASE}/sends`]: () => [200, { sends: [] }],
    'GET /api/v1/workspaces/acme': () => [200, makeWorkspace()],
    'GET /api/v1/workspaces/acme/profiles': (_, url) => [
      200,
      {
        profiles: url.searchParams.get('search')
          ? [{ id: 'p-ada', attributes: { email: 'ada@example.com', firstName: 'Ada' }, updatedAt: '' }]
          : [],
        nextCursor: null,
      },
    ],
  });
});
afterEach(() => vi.unstubAllGlobals());

async function renderPanel(props: { sendAt?: string; sendAtZone?: string } = {}) {
  await renderUi(
    <MemoryRouter initialEntries={['/acme/marketing/campaign/c1']}>
      <CampaignPanel
        workspaceId="acme"
        campaignId="c1"
        version={3}
        approvals={1}
        sendAt={props.sendAt}
        sendAtZone={props.sendAtZone}
      />
    </MemoryRouter>,
  );
}

const confirmDialog = () => screen.findByRole('dialog');

describe('campaign panel: before a send', () => {
  it('shows the audience now, whom a send reaches and who is left out', async () => {
    await renderPanel();
    expect((await screen.findByTestId('audience-size')).textContent).toBe('1,300');
    expect(screen.getByTestId('will-reach').textContent).toBe('Will go to 1,234 recipients');
    expect(bodyText()).toContain(
      'Left out: 40 suppressed, 20 unsubscribed, 6 without an email address in “email”',
    );
  });

  it('says which attribute addresses are read from and how many unknown consent leaves out', async () => {
    // The panel said '79 without an email address' and never which attribute it read, nor who consent left out.
    api.routes[`GET ${BASE}/readiness`] = () => [200, readiness({ unknownConsent: 79 })];
    await renderPanel();
    await findByText(/79 whose consent is unknown/);
    expect(screen.getByTestId('recipient-rules').textContent).toContain(
      'Addresses are read from the attribute “email”. Only profiles that subscribed are mailed',
    );
  });

  it('lets a manager choose the attribute addresses are read from, and whether unknown consent is mailed', async () => {
    // The panel offered no way to read addresses from the attribute an import had put them in.
    api.routes[`GET ${BASE}/readiness`] = () => [200, readiness({ canChangeRecipients: true })];
    const saved: unknown[] = [];
    api.routes['PUT /api/v1/workspaces/acme/senders/recipients'] = (body) => {
      saved.push(body);
      return [200, { emailAttribute: 'email', mailUnknownConsent: false, ...(body as object) }];
    };
    await renderPanel();
    const select = await waitFor(() => byLabel('Addresses are read from'));
    await pickOption(select, 'Work email (work-email)');
    await waitFor(() => expect(saved).toEqual([{ emailAttribute: 'work-email' }]));
    await click(byLabel('Also mail profiles whose consent is unknown'));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(saved[1]).toEqual({ mailUnknownConsent: true });
  });

  it('lists the problems and warnings, and says why Send is disabled', async () => {
    api.routes[`GET ${BASE}/readiness`] = () => [
      200,
      readiness({
        approved: false,
        problems: [CAMPAIGN_MESSAGES.needsApproval, CAMPAIGN_MESSAGES.noPostalAddress],
        warnings: [CAMPAIGN_MESSAGES.likelySpam],
      }),
    ];
    await renderPanel();
    const problems = await screen.findByTestId('campaign-problems');
    expect(problems.textContent).toContain(CAMPAIGN_MESSAGES.noPostalAddress);
    expect(screen.getByTestId('campaign-warnings').textContent).toContain(CAMPAIGN_MESSAGES.likelySpam);
    expect(button('Send to 1,234 recipients')).toBeDisabled();
    expect(screen.getByTestId('send-blocker').textContent).toBe(CAMPAIGN_MESSAGES.needsApproval);
  });

  it('tells a member without publish rights that they cannot send', async () => {
    api.routes[`GET ${BASE}/readiness`] = () => [200, readiness({ canSend: false })];
    await renderPanel();
    await findByText(NO_PUBLISH_RIGHTS);
    expect(button('Send to 1,234 recipients')).toBeDisabled();
  });

  it('sends after the confirmation, then shows the progress of the send', async () => {
    let started = false;
    api.routes[`POST ${BASE}/send`] = () => {
      started = true;
      return [202, { message: CAMPAIGN_MESSAGES.sending(100), send: send({ state: 'queued' }) }];
    };
    api.routes[`GET ${BASE}/readiness`] = () => [200, readiness(started ? { current: send() } : {})];
    api.routes[`GET ${BASE}/sends/send-1`] = () => [200, send()];
    await renderPanel();
    await click(await waitFor(() => button('Send to 1,234 recipients')));
    const dialog = await confirmDialog();
    expect(dialog.textContent).toContain('Send to 1,234 recipients?');
    await click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(api.calls.find((call) => call.method === 'POST')).toMatchObject({
      path: `${BASE}/send`,
      body: {},
    });
    const progress = await screen.findByTestId('send-progress');
    expect(within(progress).getByTestId('send-progress-text').textContent).toBe('40 of 100 sent, 2 failed');
    expect(within(progress).getByRole('progressbar', { name: 'Send progress' })).toHaveAttribute(
      'aria-valuenow',
      '42',
    );
  });

  it('sends to new members only, says how many got it already, and sends again to everyone when chosen', async () => {
    // Broke: Send after a finished send sent everyone a second copy, and nothing said so.
    api.routes[`POST ${BASE}/send`] = () => [202, { message: 'Queued', send: send({ state: 'queued' }) }];
    api.routes[`GET ${BASE}/readiness`] = () => [200, readiness({ recipients: 2, alreadyReceived: 78 })];
    await renderPanel();
    expect((await screen.findByTestId('will-reach')).textContent).toBe('Will go to 2 new recipients');
    await click(button('Send to 2 new recipients'));
    let dialog = await confirmDialog();
    expect(dialog.textContent).toContain(
      '78 people in the audience already got this campaign in an earlier send: it goes only to the 2 new recipients.',
    );
    expect(dialog.textContent).toContain('sends it to all 80 recipients: 78 of them get it a second time');
    await click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(api.calls.find((c) => c.method === 'POST')?.body).toEqual({});
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await click(button('Send to 2 new recipients'));
    dialog = await confirmDialog();
    await click(within(dialog).getByRole('button', { name: SEND_AGAIN }));
    await waitFor(() => expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(2));
    expect(api.calls.filter((c) => c.method === 'POST')[1].body).toEqual({ everyone: true });
  });

  it('lets a send go again to everyone when nobody new is in the audience', async () => {
    api.routes[`GET ${BASE}/readiness`] = () => [200, readiness({ recipients: 0, alreadyReceived: 78 })];
    await renderPanel();
    await click(await waitFor(() => button('Send to 0 new recipients')));
    const dialog = await confirmDialog();
    expect(dialog.textContent).toContain('nobody new would get it');
    expect(within(dialog).getByRole('button', { name: 'Send' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: SEND_AGAIN })).toBeEnabled();
  });

  it('schedules for the send time, or sends now', async () => {
    api.routes[`POST ${BASE}/send`] = () => [
      202,
      { message: 'Queued', send: send({ state: 'queued', snapshotAt: null, startedAt: null }) },
    ];
    await renderPanel({ sendAt: '2099-03-01T14:00:00.000Z', sendAtZone: 'Europe/London' });
    await click(await waitFor(() => button('Schedule for Sun Mar 1st, 2099 2:00 PM')));
    await click(within(await confirmDialog()).getByRole('button', { name: 'Schedule' }));
    await waitFor(() => expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(api.calls.find((c) => c.method === 'POST')?.body).toEqual({});
    await click(button('Send now'));
    await click(within(await confirmDialog()).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(2));
    expect(api.calls.filter((c) => c.method === 'POST')[1].body).toEqual({ now: true });
  });
});

describe('campaign panel: a send under way', () => {
  it("shows a scheduled send's time in the campaign's zone, as its Schedule button did", async () => {
    const sendAt = '2099-03-01T14:00:00.000Z';
    const queued = send({ state: 'queued', sendAt, snapshotAt: null, startedAt: null });
    api.routes[`GET ${BASE}/readiness`] = () => [200, readiness({ current: queued })];
    api.routes[`GET ${BASE}/sends/send-1`] = () => [200, queued];
    await renderPanel({ sendAt, sendAtZone: 'Europe/Paris' });
    await findByText('Queued for Sun Mar 1st, 2099 3:00 PM');
  });

  it('pauses, resumes and polls the send until it is done, then shows its results', async () => {
    let current = send();
    api.routes[`GET ${BASE}/readiness`] = () => [
      200,
      readiness({ current: current.state === 'done' ? null : current }),
    ];
    api.routes[`GET ${BASE}/sends/send-1`] = () => [200, current];
    api.routes[`POST ${BASE}/sends/send-1/pause`] = () => {
      current = send({ state: 'paused' });
      return [200, current];
    };
    api.routes[`POST ${BASE}/sends/send-1/resume`] = () => {
      current = send({ state: 'sending' });
      return [200, current];
    };
    api.routes[`GET ${BASE}/sends`] = () => [200, { sends: [current] }];
    api.routes[`GET ${BASE}/sends/send-1/results`] = () => [200, results('send-1')];
    await renderPanel();
    await screen.findByTestId('send-progress');
    await click(button('Pause'));
    await waitFor(() => button('Resume'));
    expect(screen.getByTestId('send-progress').textContent).toContain('paused');
    await click(button('Resume'));
    await waitFor(() => button('Pause'));

    // The server finishes the send: the next poll sees it and the panel leaves the progress.
    await act(async () => {
      current = send({
        state: 'done',
        counts: {
          audience: 110,
          recipients: 100,
          alreadyReceived: 0,
          sent: 98,
          failed: 2,
          unconfirmed: 0,
          pending: 0,
        },
        finishedAt: '2026-11-27T10:05:00.000Z',
      });
    });
    await waitFor(() => expect(screen.queryByTestId('send-progress')).toBeNull(), 5000);
    await waitFor(() => button('Send to 1,234 recipients'));
    expect(await screen.findByTestId('send-results')).toBeInTheDocument();
  });

  it('cancels a send after the confirmation', async () => {
    api.routes[`GET ${BASE}/readiness`] = () => [200, readiness({ current: send({ state: 'paused' }) })];
    api.routes[`GET ${BASE}/sends/send-1`] = () => [200, send({ state: 'paused' })];
    api.routes[`POST ${BASE}/sends/send-1/cancel`] = () => [200, send({ state: 'cancelled' })];
    await renderPanel();
    await screen.findByTestId('send-progress');
    await click(button('Cancel'));
    await click(within(await confirmDialog()).getByRole('button', { name: 'Cancel send' }));
    await waitFor(() =>
      expect(api.calls.some((c) => c.method === 'POST' && c.path === `${BASE}/sends/send-1/cancel`)).toBe(
        true,
      ),
    );
  });
});

describe('campaign panel: preview and test send', () => {
  it('offers no profile to preview as to a member who may not read customer data', async () => {
    const member = makeWorkspace();
    member.__permissions = { ...member.__permissions, canManageWorkspace: false, customerData: [] };
    api.routes['GET /api/v1/workspaces/acme'] = () => [200, member];
    await renderPanel();
    expect((await screen.findByTestId('campaign-preview-subject')).textContent).toBe(
      'Hello there, autumn is here',
    );
    await waitFor(() => expect(api.calls.some((c) => c.path === '/api/v1/workspaces/acme')).toBe(true));
    expect(screen.queryAllByLabelText('Preview as')).toEqual([]);
    expect(api.calls.some((c) => c.path.endsWith('/profiles'))).toBe(false);
  });

  it('previews as a profile found by search, with its subject, in a frame without scripts', async () => {
    await renderPanel();
    expect((await screen.findByTestId('campaign-preview-subject')).textContent).toBe(
      'Hello there, autumn is here',
    );
    const frame = screen.getByTitle('Campaign message preview');
    expect(frame.getAttribute('sandbox')).toBe('allow-same-origin');
    expect(frame.getAttribute('srcdoc')).toContain('<p>Autumn</p>');

    const picker = (await screen.findAllByLabelText('Preview as')).find(
      (element) => element.tagName === 'INPUT',
    ) as HTMLInputElement;
    await click(picker);
    await changeValue(picker, 'ada');
    await waitFor(() => expect(api.calls.some((c) => c.search.includes('search=ada'))).toBe(true));
    // Mantine's dropdown is still in its opening transition in jsdom: its options count as hidden.
    const option = await waitFor(() => {
      const found = Array.from(document.querySelectorAll('[role="option"]')).find(
        (candidate) => candidate.textContent === 'Ada <ada@example.com> · p-ada',
      );
      if (!found) throw new Error('No option for Ada yet');
      return found;
    });
    await click(option);
    await waitFor(() =>
      expect(screen.getByTestId('campaign-preview-subject').textContent).toBe('Hello Ada, autumn is here'),
    );
    expect(api.calls.some((c) => c.path === `${BASE}/preview` && c.search === '?profileId=p-ada')).toBe(true);
    expect(api.calls.some((c) => c.path.endsWith('/profiles') && c.search.includes('search=ada'))).toBe(true);
  });

  it('sends a test to the typed addresses and says where it went', async () => {
    const answer: CampaignTestSendAnswer = {
      message: 'Test sent to me@example.com',
      testSend: {
        id: 1,
        itemId: 'c1',
        provider: 'smtp',
        recipients: ['me@example.com', 'you@example.com'],
        subject: 'Autumn',
        at: '2026-11-20T09:00:00.000Z',
        by: 'u-1',
        byName: 'Mia',
        status: 'sent',
        error: null,
      },
      htmlBytes: 2048,
      clipped: false,
    };
    api.routes[`POST ${BASE}/test-send`] = () => [200, answer];
    await renderPanel();
    await changeValue(
      (await screen.findByRole('textbox', { name: 'Test addresses' })) as HTMLInputElement,
      'me@example.com, you@example.com',
    );
    await click(button('Send test'));
    await findByText('Test sent to me@example.com');
    expect(api.calls.find((c) => c.path === `${BASE}/test-send`)?.body).toEqual({
      recipients: ['me@example.com', 'you@example.com'],
    });
  });

  it("shows the server's refusal of a test send", async () => {
    api.routes[`POST ${BASE}/test-send`] = () => [
      503,
      { error: { code: 'not_configured', message: CAMPAIGN_MESSAGES.notConfigured } },
    ];
    await renderPanel();
    await click(await waitFor(() => button('Send test')));
    expect((await screen.findByRole('alert')).textContent).toContain(CAMPAIGN_MESSAGES.notConfigured);
  });
});

describe('campaign panel: results', () => {
  const older = send({ id: 'send-0', state: 'done', startedAt: '2026-11-20T09:00:00.000Z' });
  const newer = send({ id: 'send-1', state: 'done' });

  beforeEach(() => {
    api.routes[`GET ${BASE}/sends`] = () => [200, { sends: [newer, older] }];
    api.routes[`GET ${BASE}/sends/send-1/results`] = () => [200, results('send-1')];
    api.routes[`GET ${BASE}/sends/send-0/results`] = () => [
      200,
      results('send-0', {
        counts: { ...results('send-0').counts, delivered: 70 },
        links: [],
        timeline: [
          { at: '2026-11-20T09:00:00.000Z', opens: 12, clicks: 3 },
          { at: '2026-11-20T10:00:00.000Z', opens: 5, clicks: 1 },
        ],
      }),
    ];
  });

  it('shows the newest send: counts with rates of delivered, and clicks per link, most clicked first', async () => {
    // Broke: a link's column of every hit was headed 'Clicks' beside 'Recipients', so hits read as people.
    await renderPanel();
    const results = await screen.findByTestId('send-results');
    expect(within(results).getByTestId('result-delivered').textContent).toBe('Delivered98of 100');
    expect(within(results).getByTestId('result-opened').textContent).toBe('Opened4950%');
    expect(within(results).getByTestId('result-clicked').textContent).toBe('Clicked1212.2%');
    expect(within(results).getByTestId('result-bounced').textContent).toBe('Bounced11%');
    expect(within(results).getByTestId('result-unsubscribed').textContent).toBe('Unsubscribed33.1%');
    const rows = within(screen.getByRole('table', { name: 'Clicks per link' })).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'LinkPeople who clickedTotal clicks',
      'https://acme.io/sale910',
      'https://acme.io/autumn34',
    ]);
    expect(bodyText()).toContain('No opens or clicks yet.');
  });

  it("offers the send's results per recipient as CSV to a member who may export customer data", async () => {
    await renderPanel();
    const results = await screen.findByTestId('send-results');
    const link = await within(results).findByRole('link', { name: 'Export results (CSV)' });
    expect(link.getAttribute('href')).toBe('/api/v1/workspaces/acme/campaigns/c1/sends/send-1/results.csv');
    expect(link.hasAttribute('download')).toBe(true);
  });

  it('offers no export to a member who may read customer data but not export it', async () => {
    const member = makeWorkspace();
    member.__permissions = { ...member.__permissions, canManageWorkspace: false, customerData: ['read'] };
    api.routes['GET /api/v1/workspaces/acme'] = () => [200, member];
    await renderPanel();
    const results = await screen.findByTestId('send-results');
    await waitFor(() => expect(api.calls.some((c) => c.path === '/api/v1/workspaces/acme')).toBe(true));
    expect(within(results).queryByRole('link', { name: 'Export results (CSV)' })).toBeNull();
  });

  it('lists every send, to whom it went, and their total', async () => {
    api.routes[`GET ${BASE}/sends`] = () => [
      200,
      {
        sends: [send({ id: 'send-2', state: 'done', everyone: true }), newer, older],
      },
    ];
    await renderPanel();
    const sends = await screen.findByRole('table', { name: 'Sends' });
    await waitFor(() => expect(within(sends).getAllByRole('row')).toHaveLength(5));
    const cells = within(sends)
      .getAllByRole('row')
      .map((row) => row.textContent);
    expect(cells[1]).toContain('Everyone');
    expect(cells[2]).toContain('New members');
    expect(cells[4]).toBe('Total of 3 sends120 / 300');
  });

  it('offers to resend the unconfirmed recipients of a finished send, stating the risk', async () => {
    // Broke: recipients whose message no server confirmed counted as sent, with no way to reach them.
    const unsure = send({
      id: 'send-1',
      state: 'done',
      counts: {
        audience: 110,
        recipients: 100,
        alreadyReceived: 0,
        sent: 97,
        failed: 0,
        unconfirmed: 3,
        pending: 0,
      },
    });
    api.routes[`GET ${BASE}/sends`] = () => [200, { sends: [unsure] }];
    api.routes[`POST ${BASE}/sends/send-1/resend-unconfirmed`] = () => [
      200,
      { message: CAMPAIGN_MESSAGES.resending(3), send: send({ state: 'sending' }) },
    ];
    await renderPanel();
    const sends = await screen.findByRole('table', { name: 'Sends' });
    await waitFor(() => expect(sends.textContent).toContain('3 unconfirmed'));
    await click(within(sends).getByRole('button', { name: resendLabel(3) }));
    const dialog = await confirmDialog();
    expect(dialog.textContent).toContain('Resend to 3 recipients?');
    expect(dialog.textContent).toContain('some of the 3 recipients may get the campaign twice');
    await click(within(dialog).getByRole('button', { name: 'Resend' }));
    await waitFor(() =>
      expect(api.calls.find((c) => c.method === 'POST')?.path).toBe(
        `${BASE}/sends/send-1/resend-unconfirmed`,
      ),
    );
  });

  it('offers no resend to a member who may not send', async () => {
    const unsure = send({
      state: 'done',
      counts: {
        audience: 110,
        recipients: 100,
        alreadyReceived: 0,
        sent: 97,
        failed: 0,
        unconfirmed: 3,
        pending: 0,
      },
    });
    api.routes[`GET ${BASE}/readiness`] = () => [200, readiness({ canSend: false })];
    api.routes[`GET ${BASE}/sends`] = () => [200, { sends: [unsure] }];
    await renderPanel();
    const sends = await screen.findByRole('table', { name: 'Sends' });
    await waitFor(() => expect(sends.textContent).toContain('3 unconfirmed'));
    expect(within(sends).queryByRole('button', { name: resendLabel(3) })).toBeNull();
  });

  it('picks an earlier send and shows its opens and clicks over time', async () => {
    await renderPanel();
    await screen.findByTestId('send-results');
    const sends = screen.getByRole('table', { name: 'Sends' });
    await click(within(sends).getAllByRole('button', { name: /^Results of the send of/ })[1]);
    await waitFor(() => expect(screen.getByTestId('result-delivered').textContent).toBe('Delivered70of 100'));
    const chart = await screen.findByTestId('chart-engagement', {}, { timeout: 5000 });
    await click(within(chart).getByText('Table'));
    const table = within(chart).getByRole('table', { name: 'Opens and clicks over time' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(bodyText()).toContain('No tracked links in this message.');
  });
});

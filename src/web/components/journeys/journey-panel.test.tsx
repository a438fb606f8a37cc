import { JOURNEY_MESSAGES, type JourneyResults, type JourneyStartPlan } from '@shared/api/journeys';
import { installFakeApi, type FakeApi } from '@web/test/fake-api';
import { click, findByText, waitFor } from '@web/test/render';
import { act } from 'react';
import { bodyText, button, byLabel, queryButton, renderUi } from '../item-form/test-utils';
import { JourneyPanel } from './journey-panel';

const BASE = '/api/v1/workspaces/acme/journeys/j1';
const complete = JSON.stringify({
  entry: { kind: 'event', event: 'signup' },
  start: 'hello',
  steps: [
    { id: 'hello', type: 'email', email: 'e1', sender: 's1' },
    { id: 'done', type: 'exit' },
  ],
  edges: [{ from: 'hello', to: 'done' }],
});
const results = (state: JourneyResults['state'], versions: number[] = []): JourneyResults => ({
  journeyId: 'j1',
  state,
  versions: versions.map((version) => ({ version, entered: 4, active: 1, converted: 0, steps: [] })),
});

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi({ [`GET ${BASE}/results`]: () => [200, results(null)] });
});
afterEach(() => vi.unstubAllGlobals());

const renderPanel = (props: { definition?: string; canRun?: boolean } = {}) =>
  renderUi(
    <JourneyPanel
      workspaceId="acme"
      journeyId="j1"
      version={2}
      definition={props.definition ?? complete}
      canRun={props.canRun ?? true}
    />,
  );

describe('JourneyPanel', () => {
  it('refuses to start a definition with problems, and names the step', async () => {
    const steps = JSON.parse(complete).steps.map((step: { id: string }) =>
      step.id === 'hello' ? { id: 'hello', type: 'email', sender: 's1' } : step,
    );
    await renderPanel({ definition: JSON.stringify({ ...JSON.parse(complete), steps }) });
    await findByText('not started');
    expect(button('Start version 2').disabled).toBe(true);
    expect(bodyText()).toContain('Step "hello": choose the email template to send');
  });

  it("starts, and shows the server's refusal", async () => {
    api.routes[`POST ${BASE}/start`] = () => [
      409,
      { error: { code: 'conflict', message: JOURNEY_MESSAGES.needsApproval } },
    ];
    await renderPanel();
    await click(await waitFor(() => button('Start version 2')));
    await findByText(JOURNEY_MESSAGES.needsApproval);
    expect(api.calls.some((call) => call.method === 'POST' && call.path === `${BASE}/start`)).toBe(true);
  });

  it('offers pause and stop while running, resume while paused', async () => {
    api.routes[`GET ${BASE}/results`] = () => [200, results('running', [2])];
    await renderPanel();
    await findByText('running · version 2');
    expect(queryButton('Start version 2')).toBeNull();
    expect(button('Pause')).toBeTruthy();
    expect(button('Stop')).toBeTruthy();
    expect(bodyText()).toContain('4 entered · 1 in the journey now · 0 converted');
  });

  it('starts a new version while an older one runs with the plan of where its waiting profiles go', async () => {
    const plan: JourneyStartPlan = {
      journeyId: 'j1',
      version: 2,
      steps: [
        { stepId: 'hello', name: null, type: 'email' },
        { stepId: 'done', name: null, type: 'exit' },
      ],
      versions: [
        {
          version: 1,
          state: 'running',
          steps: [
            { stepId: 'hello', name: 'Welcome', type: 'email', waiting: 3, target: 'hello' },
            { stepId: 'nap', name: null, type: 'wait', waiting: 2, target: null },
          ],
        },
      ],
    };
    api.routes[`GET ${BASE}/results`] = () => [200, results('running', [1])];
    api.routes[`GET ${BASE}/start-plan`] = () => [200, plan];
    api.routes[`POST ${BASE}/start`] = () => [
      400,
      { error: { code: 'bad_request', message: JOURNEY_MESSAGES.migrateUnknownStep('1', 'nap') } },
    ];
    await renderPanel();
    await findByText('running · version 1');
    await click(button('Start version 2'));
    const dialog = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('[role="dialog"]');
      if (!found) throw new Error('No dialog');
      return found;
    });
    await findByText('3 profiles move to version 2 · 2 profiles finish where they are');
    const nap = byLabel<HTMLSelectElement>('Where the profiles waiting at nap of version 1 go');
    expect(nap.value).toBe('');
    expect(Array.from(nap.options).map((option) => option.text)).toEqual([
      'Finish on version 1',
      'hello · Send email (version 2)',
      'done · Exit (version 2)',
    ]);
    await act(async () => {
      nap.value = 'done';
      nap.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await findByText('5 profiles move to version 2 · 0 profiles finish where they are');
    const start = Array.from(dialog.querySelectorAll('button')).find(
      (candidate) => candidate.textContent?.trim() === 'Start version 2',
    )!;
    await click(start);
    await findByText(JOURNEY_MESSAGES.migrateUnknownStep('1', 'nap'), dialog);
    const sent = api.calls.find((call) => call.method === 'POST' && call.path === `${BASE}/start`);
    expect(sent?.body).toEqual({ migrate: { 1: { hello: 'hello', nap: 'done' } } });
  });

  it('shows no controls to a member who may not publish journeys', async () => {
    await renderPanel({ canRun: false });
    await findByText('Members who may publish journeys start, pause and stop them.');
    expect(queryButton('Start version 2')).toBeNull();
  });
});

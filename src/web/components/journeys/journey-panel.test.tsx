import { JOURNEY_MESSAGES, type JourneyResults } from '@shared/api/journeys';
import { installFakeApi, type FakeApi } from '@web/test/fake-api';
import { click, findByText, waitFor } from '@web/test/render';
import { bodyText, button, queryButton, renderUi } from '../item-form/test-utils';
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

  it('shows no controls to a member who may not publish journeys', async () => {
    await renderPanel({ canRun: false });
    await findByText('Members who may publish journeys start, pause and stop them.');
    expect(queryButton('Start version 2')).toBeNull();
  });
});

import { renderUi } from '@web/components/item-form/test-utils';
import { findByText, waitFor } from '@web/test/render';
import { installFakeApi } from '@web/test/fake-api';
import { useVisualisation } from '../api/visualisation';
import { VisualisationCard } from './visualisation-card';

/** Beside the card: says when the answer the card reads has arrived. */
function AnswerArrived() {
  return useVisualisation('acme').data ? <span data-testid="answer-arrived" /> : null;
}

const notConfigured = { configured: false, latest: null, history: [] };
const configured = {
  configured: true,
  latest: { key: '2025-06-01T10:00:00.000Z', result: { visits: 12 }, fetchedBy: 'u1' },
  history: [{ key: '2025-06-01T10:00:00.000Z', result: { visits: 12 }, fetchedBy: 'u1' }],
};

/** The element `selector` finds, or an error (so `waitFor` waits for it). */
function shown(selector: string): Element {
  const element = document.querySelector(selector);
  if (!element) throw new Error(`Nothing at ${selector}`);
  return element;
}

function answering(answer: unknown) {
  return installFakeApi({ 'GET /api/v1/workspaces/acme/visualisation': () => [200, answer] });
}

afterEach(() => vi.unstubAllGlobals());

describe('VisualisationCard', () => {
  it('is not shown to a member who cannot configure it', async () => {
    // Members who cannot switch the visualisation on were shown 'Visualisation not configured'.
    answering(notConfigured);
    await renderUi(
      <>
        <VisualisationCard workspaceId="acme" canRefresh={false} />
        <AnswerArrived />
      </>,
    );
    await waitFor(() => shown('[data-testid="answer-arrived"]'));
    expect(document.querySelector('[data-testid="visualisation-not-configured"]')).toBeNull();
    expect(document.body.textContent).not.toContain('Visualisation');
  });

  it('tells a manager it is not configured, and which setting switches it on', async () => {
    answering(notConfigured);
    await renderUi(<VisualisationCard workspaceId="acme" canRefresh />);
    const card = await waitFor(() => shown('[data-testid="visualisation-not-configured"]'));
    expect(card.textContent).toContain('Visualisation not configured');
    expect(card.querySelector('[data-testid="setting-hint"]')?.textContent).toBe(
      'Server setting: VISUALISATION_URL',
    );
  });

  it('shows the results to any member once configured', async () => {
    answering(configured);
    await renderUi(<VisualisationCard workspaceId="acme" canRefresh={false} />);
    await findByText(/^Latest result/);
    expect(document.body.textContent).not.toContain('Fetch now');
  });
});

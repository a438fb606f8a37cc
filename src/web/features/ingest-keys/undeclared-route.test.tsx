import { Suspense } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { UndeclaredList } from '@shared/api/undeclared';
import { renderUi } from '@web/components/item-form/test-utils';
import { installFakeApi } from '@web/test/fake-api';
import { makeWorkspace } from '@web/test/workspace';
import { click, cleanupRendered, findByText, waitFor } from '@web/test/render';
import UndeclaredRoute from './undeclared-route';

const URL = '/api/v1/workspaces/acme';
const seen = { count: 3, firstSeen: '2026-01-01T00:00:00.000Z', lastSeen: '2026-01-02T00:00:00.000Z' };

afterEach(() => {
  cleanupRendered();
  vi.unstubAllGlobals();
});

const list = (abilities: UndeclaredList['abilities']): UndeclaredList => ({
  events: [
    {
      key: 'page-view',
      ...seen,
      properties: [{ name: 'url', type: 'string', types: { string: 3 }, ...seen }],
    },
  ],
  properties: [],
  attributes: [{ key: 'age', type: 'number', types: { number: 2, string: 1 }, ...seen }],
  limits: { event: 100, property: 500, attribute: 200 },
  abilities,
});

async function renderScreen() {
  await renderUi(
    <MemoryRouter initialEntries={['/acme/_settings/undeclared']}>
      <Routes>
        <Route
          path="/:workspace/_settings/undeclared"
          element={
            <Suspense fallback="loading">
              <UndeclaredRoute />
            </Suspense>
          }
        />
      </Routes>
    </MemoryRouter>,
  );
}

const declareButton = (name: string) => document.querySelector(`button[aria-label="Declare ${name}"]`);

describe('undeclared data screen', () => {
  it('declares what the member may, and offers no button for the rest', async () => {
    const api = installFakeApi({
      [`GET ${URL}`]: () => [200, makeWorkspace()],
      [`GET ${URL}/undeclared`]: () => [200, list({ canDeclareEvents: false, canDeclareAttributes: true })],
      [`POST ${URL}/undeclared/declare`]: () => [201, { schema: 'customer-profile-attribute', id: 'a1' }],
    });
    await renderScreen();
    await findByText('page-view');
    expect(document.body.textContent).toContain('url: string');
    expect(document.body.textContent).toContain('also sent: string (1)');
    expect(declareButton('event page-view')).toBeNull();
    await click(declareButton('attribute age')!);
    await waitFor(() =>
      expect(api.calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
        { kind: 'attribute', key: 'age' },
      ]),
    );
  });
});

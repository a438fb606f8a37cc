import { Suspense } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { button, changeValue, renderUi } from '@web/components/item-form/test-utils';
import { installFakeApi } from '@web/test/fake-api';
import { makeWorkspace } from '@web/test/workspace';
import { click, cleanupRendered, findByText, waitFor } from '@web/test/render';
import WriteKeysRoute from './write-keys-route';

const URL = '/api/v1/workspaces/acme';

afterEach(() => {
  cleanupRendered();
  vi.unstubAllGlobals();
});

const inputLabelled = (text: string) => {
  const label = Array.from(document.querySelectorAll('label')).find((l) => l.textContent === text);
  return label ? (document.getElementById(label.htmlFor) as HTMLInputElement) : null;
};

describe('write keys screen', () => {
  it('creates a server key without origins and marks it in the list', async () => {
    const sent: unknown[] = [];
    const keys: object[] = [];
    installFakeApi({
      [`GET ${URL}`]: () => [200, makeWorkspace()],
      [`GET ${URL}/write-keys`]: () => [200, { keys }],
      [`POST ${URL}/write-keys`]: (body) => {
        sent.push(body);
        keys.push({
          id: 'k1',
          name: 'Back office',
          kind: 'server',
          origins: [],
          strict: false,
          createdBy: 'Mia',
          createdById: 'u1',
          createdAt: '2026-01-01T00:00:00.000Z',
          lastUsedAt: null,
        });
        return [201, { id: 'k1', key: 'mqs_secret' }];
      },
    });
    await renderUi(
      <MemoryRouter initialEntries={['/acme/_settings/write-keys']}>
        <Routes>
          <Route
            path="/:workspace/_settings/write-keys"
            element={
              <Suspense fallback="loading">
                <WriteKeysRoute />
              </Suspense>
            }
          />
        </Routes>
      </MemoryRouter>,
    );
    await findByText('No write keys yet');
    expect(inputLabelled('Allowed origins')).not.toBeNull();
    await click(await findByText('Server key (secret)'));
    await waitFor(() => expect(inputLabelled('Allowed origins')).toBeNull());
    await changeValue(inputLabelled('Name')!, 'Back office');
    await click(button('Create key'));
    await findByText('Server key');
    expect(sent).toEqual([{ name: 'Back office', kind: 'server', origins: [], strict: false }]);
  });
});

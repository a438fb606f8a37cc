import { Suspense } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { Workspace } from '@shared/api/workspaces';
import { bodyText, button, pickOption, renderUi } from '@web/components/item-form/test-utils';
import { installFakeApi, type FakeApi } from '@web/test/fake-api';
import { makeWorkspace } from '@web/test/workspace';
import { click, cleanupRendered, findByText } from '@web/test/render';
import RolesRoute from './roles-route';

const URL = '/api/v1/workspaces/acme';

const LOCALES = { tags: ['en-US', 'fr-FR'], default: 'en-US', fallback: { 'fr-FR': 'en-US' } };
const FRENCH = { name: 'French editor', canEdit: ['blog-post'], canPublish: [], mustApprove: [] };

/** Acme with fr-FR and a French editor not yet limited to locales, at version 4. */
const workspace = (overrides: Partial<Workspace> = {}): Workspace => {
  const base = makeWorkspace();
  return makeWorkspace({
    basics: { ...base.basics, locales: LOCALES },
    roles: { french: FRENCH },
    version: 4,
    ...overrides,
  });
};

let api: FakeApi;
afterEach(() => {
  cleanupRendered();
  vi.unstubAllGlobals();
});

async function renderRoles() {
  await renderUi(
    <MemoryRouter initialEntries={['/acme/_settings/roles']}>
      <Routes>
        <Route
          path="/:workspace/_settings/roles"
          element={
            <Suspense fallback="loading">
              <RolesRoute />
            </Suspense>
          }
        />
      </Routes>
    </MemoryRouter>,
  );
  await findByText('Can edit');
}

/** The input a visible label names (Mantine's MultiSelect is labelled by its <label for>). */
function inputLabelled(text: string) {
  const label = Array.from(document.querySelectorAll('label')).find((l) => l.textContent === text);
  return label ? (document.getElementById(label.htmlFor) as HTMLInputElement) : null;
}

describe('roles screen locales', () => {
  it('saves a role limited to fr-FR with the version it was based on', async () => {
    let sent: unknown;
    api = installFakeApi({
      [`GET ${URL}`]: () => [200, workspace()],
      [`PATCH ${URL}`]: (body) => {
        sent = body;
        const roles = (body as { roles: Workspace['roles'] }).roles;
        return [200, workspace({ roles, version: 5 })];
      },
    });
    await renderRoles();
    await pickOption(inputLabelled('Locales')!, 'fr-FR · French (France)');
    expect(bodyText()).toContain('fr-FR only');
    await click(button('Save roles'));
    await findByText('Roles saved');
    expect(sent).toEqual({
      roles: { french: { ...FRENCH, locales: ['fr-FR'], customerData: [] } },
      baseVersion: 4,
    });
    expect(api.calls.filter((call) => call.method === 'PATCH')).toHaveLength(1);
  });

  it('shows the server’s refusal and a stale version’s conflict, keeping the draft', async () => {
    const answers: [number, unknown][] = [
      [
        400,
        {
          error: {
            code: 'invalid_request',
            message: "roles.french.locales: de-DE is not one of the workspace's locales",
          },
        },
      ],
      [
        409,
        {
          error: {
            code: 'conflict',
            message: 'Someone else saved this workspace; reload to see their changes',
          },
        },
      ],
    ];
    api = installFakeApi({
      [`GET ${URL}`]: () => [200, workspace()],
      [`PATCH ${URL}`]: () => answers.shift()!,
    });
    await renderRoles();
    await pickOption(inputLabelled('Locales')!, 'fr-FR · French (France)');
    await click(button('Save roles'));
    await findByText("roles.french.locales: de-DE is not one of the workspace's locales");
    await click(button('Save roles'));
    await findByText(/^Someone else saved this workspace; reload to see their changes/);
    expect(bodyText()).toContain('Reload');
    expect(bodyText()).toContain('fr-FR only');
  });

  it('offers no locales in a workspace without any', async () => {
    const { locales: _none, ...basics } = workspace().basics;
    api = installFakeApi({ [`GET ${URL}`]: () => [200, workspace({ basics })] });
    await renderRoles();
    expect(inputLabelled('Can edit')).not.toBeNull();
    expect(inputLabelled('Locales')).toBeNull();
  });
});

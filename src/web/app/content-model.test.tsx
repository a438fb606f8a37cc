import { notifications } from '@mantine/notifications';
import { act } from 'react';
import type { ContentModelDoc } from '@shared/model/types';
import { builtInModelDoc } from '@shared/model/registry';
import type { SchemaType } from '@shared/schemas/types';
import type { Workspace } from '@shared/api/workspaces';
import { bodyText, button, byLabel, changeValue, queryByLabel } from '@web/components/item-form/test-utils';
import { installFakeApi, type FakeApi } from '@web/test/fake-api';
import { FakeEventSource } from '@web/test/fake-event-source';
import { freeLockRoutes, THIS_TAB_KEY } from '@web/test/item-lock';
import { click, findByText, waitFor } from '@web/test/render';
import { renderApp } from '@web/test/render-app';
import { testItem } from '@web/test/test-item';
import { makeWorkspace } from '@web/test/workspace';
import { forgetLocation } from './guard-actions';

/** A schema no built-in domain has: only the workspace's own model knows it. */
const recipe = (fields: SchemaType['fields']): SchemaType => ({
  name: 'recipe',
  title: 'Recipe',
  pluralTitle: 'Recipes',
  icon: 'article',
  fields,
  topFields: ['name'],
});
const nameField = { key: 'name', label: 'Name', type: 'text', required: true } as const;

/** The built-in model with the recipe schema in the blogging domain. */
function modelWith(schema: SchemaType): ContentModelDoc {
  const doc = builtInModelDoc();
  return {
    ...doc,
    domains: doc.domains.map((domain) =>
      domain.name === 'blogging' ? { ...domain, schemas: [...domain.schemas, schema] } : domain,
    ),
  };
}

const workspaceAt = (modelVersion: number): Workspace =>
  makeWorkspace({
    modelVersion,
    __permissions: { ...makeWorkspace().__permissions, canEdit: ['blog-post', 'recipe'] },
  });

const MODEL_PATH = 'GET /api/v1/workspaces/acme/content-model';

/** Signed in as a member of acme, whose model (at `version`) is `doc`. */
function answerWorkspace(version: number, doc: ContentModelDoc): FakeApi {
  return installFakeApi({
    'GET /api/v1/me': () => [
      200,
      { user: { id: 'u1', name: 'Ada', email: 'ada@example.com', emailVerified: true } },
    ],
    'GET /api/v1/workspaces': () => [
      200,
      { workspaces: [{ id: 'acme', name: 'Acme', oobeDone: true, isWorkspaceManager: true }] },
    ],
    'GET /api/v1/workspaces/acme': () => [200, workspaceAt(version)],
    [MODEL_PATH]: () => [200, { version, model: doc }],
    'GET /api/v1/workspaces/acme/items': () => [200, { items: [], nextCursor: null }],
    'GET /api/v1/workspaces/acme/items/recipe': () => [200, { items: [], nextCursor: null }],
    'GET /api/v1/workspaces/acme/members': () => [200, { members: [], invitations: [] }],
    'PUT /api/v1/workspaces/acme/live/presence': () => [200, { ok: true }],
  });
}

const modelRequests = (api: FakeApi) =>
  api.calls.filter((call) => `${call.method} ${call.path}` === MODEL_PATH).length;

beforeEach(() => {
  forgetLocation();
  FakeEventSource.opened = [];
  vi.stubGlobal('EventSource', FakeEventSource);
});

afterEach(() => {
  act(() => notifications.clean());
  vi.unstubAllGlobals();
});

describe("the web app reads schemas from the workspace's content model", () => {
  it('loads a changed model from the server and lists a schema only it has', async () => {
    const api = answerWorkspace(3, modelWith(recipe([nameField])));
    await renderApp('/acme/blogging/recipe');
    await findByText('Recipes created in this workspace will show up here.');
    expect(modelRequests(api)).toBe(1);
    // The user may edit recipes: Add opens the new recipe's form.
    await click(button('Add'));
    await findByText('New Recipe');
  });

  it('asks nothing for the built-in model (version 0), which has no such schema', async () => {
    const api = answerWorkspace(0, modelWith(recipe([nameField])));
    await renderApp('/acme/blogging/recipe');
    await findByText('Page not found');
    expect(modelRequests(api)).toBe(0);
  });
});

/** A recipe (name and notes) open for editing at model version 3; `saved.body` is what Save sends. */
async function editRecipe() {
  const notes = { key: 'notes', label: 'Notes', type: 'multiline' } as const;
  const api = answerWorkspace(3, modelWith(recipe([nameField, notes])));
  const stored = testItem('recipe', 'r1', { name: 'Soup', notes: 'Old notes' });
  const saved: { body?: unknown } = {};
  Object.assign(api.routes, {
    'GET /api/v1/workspaces/acme/items/recipe/r1': () => [200, stored],
    ...freeLockRoutes('/api/v1/workspaces/acme/items/recipe/r1'),
    'PUT /api/v1/workspaces/acme/items/recipe/r1': (body: unknown) => {
      saved.body = body;
      return [200, { ...stored, version: 2 }];
    },
  });
  await renderApp('/acme/blogging/recipe/r1');
  await waitFor(() => button('Edit'));
  await waitFor(() => expect(FakeEventSource.opened).toHaveLength(1));
  act(() => FakeEventSource.opened[0].send('ready', { key: THIS_TAB_KEY }));
  await click(button('Edit'));
  return { api, notes, saved };
}

describe('an open item form when the content model changes', () => {
  it('shows the new fields, drops the removed ones and keeps what the user typed', async () => {
    const { api, saved } = await editRecipe();
    await waitFor(() => byLabel('Name'));
    await changeValue(byLabel('Name'), 'Tomato soup');

    const cookingTime = { key: 'cookingTime', label: 'Cooking time', type: 'text' } as const;
    Object.assign(api.routes, {
      'GET /api/v1/workspaces/acme': () => [200, workspaceAt(4)],
      [MODEL_PATH]: () => [200, { version: 4, model: modelWith(recipe([nameField, cookingTime])) }],
    });
    await act(async () => FakeEventSource.opened[0].send('model', { version: 4 }));

    await waitFor(() => byLabel('Cooking time'));
    expect(byLabel('Name').value).toBe('Tomato soup');
    expect(queryByLabel('Notes')).toBeNull();
    expect(bodyText()).toContain(
      'The content model changed: the form now shows its new fields. Your unsaved changes are kept.',
    );

    await changeValue(byLabel('Cooking time'), '20 minutes');
    await click(button('Save'));
    await waitFor(() => expect(saved.body).toBeDefined());
    expect((saved.body as { data: Record<string, unknown> }).data).toEqual({
      name: 'Tomato soup',
      cookingTime: '20 minutes',
    });
  });

  it('moves what the user typed in a field renamed meanwhile to its new key', async () => {
    const { api, notes, saved } = await editRecipe();
    await waitFor(() => byLabel('Notes'));
    await changeValue(byLabel('Notes'), 'Simmer for an hour');

    const method = { ...notes, key: 'method' };
    const renamed = [{ schema: 'recipe', from: 'notes', to: 'method', until: '2999-01-01T00:00:00.000Z' }];
    Object.assign(api.routes, {
      'GET /api/v1/workspaces/acme': () => [200, workspaceAt(4)],
      [MODEL_PATH]: () => [200, { version: 4, model: modelWith(recipe([nameField, method])), renamed }],
    });
    await act(async () => FakeEventSource.opened[0].send('model', { version: 4 }));

    await waitFor(() => expect(bodyText()).toContain('Your unsaved changes are kept.'));
    expect(byLabel('Notes').value).toBe('Simmer for an hour');
    await click(button('Save'));
    await waitFor(() => expect(saved.body).toBeDefined());
    expect((saved.body as { data: Record<string, unknown> }).data).toEqual({
      name: 'Soup',
      method: 'Simmer for an hour',
    });
  });
});

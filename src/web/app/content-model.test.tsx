import { notifications } from '@mantine/notifications';
import { act } from 'react';
import type { ContentModelDoc } from '@shared/model/types';
import { builtInModelDoc } from '@shared/model/registry';
import type { SchemaType } from '@shared/schemas/types';
import type { Workspace } from '@shared/api/workspaces';
import { button } from '@web/components/item-form/test-utils';
import { installFakeApi, type FakeApi } from '@web/test/fake-api';
import { FakeEventSource } from '@web/test/fake-event-source';
import { click, findByText } from '@web/test/render';
import { renderApp } from '@web/test/render-app';
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

import { Suspense } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { screen, within } from '@testing-library/react';
import { CONTENT_MODEL_MESSAGES, type ModelChange, type PlanAnswer } from '@shared/api/content-model';
import type { ContentModelDoc, ModelOp } from '@shared/model/types';
import { bodyText, changeValue, pickOption, renderUi } from '@web/components/item-form/test-utils';
import { installFakeApi, type FakeApi } from '@web/test/fake-api';
import { makeWorkspace } from '@web/test/workspace';
import { click, findByText, waitFor } from '@web/test/render';
import ContentModelRoute from './content-model-route';

const WS = '/api/v1/workspaces/acme';
const MODEL_URL = `${WS}/content-model`;

const MODEL: ContentModelDoc = {
  domains: [
    {
      name: 'blogging',
      title: 'Blogging',
      landingSchema: 'blog-post',
      schemas: [
        {
          name: 'blog-post',
          title: 'Blog Post',
          pluralTitle: 'Blog Posts',
          icon: 'article',
          fields: [
            { key: 'name', label: 'Title', type: 'text', required: true, locked: true },
            { key: 'excerpt', label: 'Excerpt', type: 'multiline' },
            { key: 'tone', label: 'Tone', type: 'select', options: [{ value: 'calm', label: 'Calm' }] },
          ],
          topFields: ['name'],
        },
        {
          name: 'page',
          title: 'Page',
          pluralTitle: 'Pages',
          icon: 'file-text',
          fields: [{ key: 'name', label: 'Name', type: 'text', required: true }],
          topFields: ['name'],
        },
      ],
    },
  ],
  blockTypes: [],
};

let api: FakeApi;
afterEach(() => vi.unstubAllGlobals());

/** The fake API of a workspace whose model is at `version`; `routes` add or replace answers. */
function installApi(routes: Parameters<typeof installFakeApi>[0] = {}, version = 3) {
  sessionStorage.clear();
  api = installFakeApi({
    [`GET ${WS}`]: () => [200, makeWorkspace({ modelVersion: version })],
    [`GET ${MODEL_URL}`]: () => [200, { version, model: MODEL }],
    [`GET ${MODEL_URL}/changes`]: () => [200, { changes: [] }],
    ...routes,
  });
}

async function renderScreen() {
  await renderUi(
    <MemoryRouter initialEntries={['/acme/_settings/content-model']}>
      <Routes>
        <Route
          path="/:workspace/_settings/content-model"
          element={
            <Suspense fallback="loading">
              <ContentModelRoute />
            </Suspense>
          }
        />
      </Routes>
    </MemoryRouter>,
  );
  await findByText('Blog Post');
  await click(screen.getByRole('button', { name: /^Blog Post blog-post/ }));
  await screen.findByRole('button', { name: 'Add field to Blog Post' });
}

/** The dialog on top: a column's editor opens over its table's. */
const dialog = () => within(screen.getAllByRole('dialog').at(-1)!);
/** The dialog's input a label names (a required one's label ends in an asterisk). */
const input = (label: string) =>
  dialog().getByLabelText(new RegExp(`^${label}\\s*\\*?$`)) as HTMLInputElement;
const sentBodies = (path: string) =>
  api.calls
    .filter((call) => call.method === 'POST' && call.path === `${MODEL_URL}/${path}`)
    .map((call) => call.body);

/** The answer of POST …/apply and …/revert: the change made. */
const applied = (version: number, ops: unknown[]): { version: number; change: ModelChange } => ({
  version,
  change: {
    id: `c${version}`,
    baseVersion: version - 1,
    version,
    ops: ops as ModelOp[],
    reverts: null,
    by: { id: 'u1', name: 'Mia Manager' },
    at: '2026-03-02T10:00:00.000Z',
    state: 'done',
    progress: { total: 0, done: 0 },
    transformed: [],
    revertible: true,
  },
});

/**
 * A menu's item by its text. Without layout, floating-ui may take the menu's button for detached and
 * hide the dropdown, so the item is found in the document as `pickOption` finds options.
 */
const menuItem = (text: string) =>
  waitFor(() => {
    const found = Array.from(document.querySelectorAll<HTMLElement>('[role="menuitem"]')).find(
      (item) => item.textContent?.trim() === text,
    );
    if (!found) throw new Error(`No menu item "${text}"`);
    return found;
  });

async function openEditor(label: string) {
  await click(screen.getByRole('button', { name: `Edit ${label}` }));
}

async function submitDialog(name: string) {
  await click(dialog().getByRole('button', { name }));
}

describe('content model field editor', () => {
  it('adds a field from its label and type as one addField, and applies it', async () => {
    installApi({
      [`POST ${MODEL_URL}/apply`]: (body) => [200, applied(4, (body as { ops: unknown[] }).ops)],
    });
    await renderScreen();
    await click(screen.getByRole('button', { name: 'Add field to Blog Post' }));
    await changeValue(input('Label'), 'SEO description');
    expect((input('Key') as HTMLInputElement).value).toBe('seoDescription');
    await pickOption(input('Type'), 'Multiline text');
    await submitDialog('Add field');

    expect(bodyText()).toContain('1 change not applied');
    expect(bodyText()).toContain('Add field "seoDescription" (multiline) to "blog-post"');
    expect(screen.getByTestId('field-seoDescription')).toBeInTheDocument();
    await click(screen.getByRole('button', { name: 'Apply' }));
    await findByText('Content model updated');
    expect(sentBodies('apply')).toEqual([
      {
        baseVersion: 3,
        ops: [
          {
            op: 'addField',
            schema: 'blog-post',
            field: { key: 'seoDescription', label: 'SEO description', type: 'multiline' },
          },
        ],
      },
    ]);
    expect(bodyText()).not.toContain('not applied');
  });

  it('edits a field: a new key is a rename, the other changes one patch of what changed', async () => {
    installApi({
      [`POST ${MODEL_URL}/apply`]: (body) => [200, applied(4, (body as { ops: unknown[] }).ops)],
    });
    await renderScreen();
    await openEditor('Excerpt');
    await changeValue(input('Key'), 'summary');
    await click(dialog().getByRole('switch', { name: /Required/ }));
    await changeValue(input('Description'), 'Shown in lists');
    await submitDialog('Change field');
    await click(screen.getByRole('button', { name: 'Apply' }));
    await findByText('Content model updated');
    expect(sentBodies('apply')[0]).toEqual({
      baseVersion: 3,
      ops: [
        { op: 'renameField', schema: 'blog-post', from: 'excerpt', to: 'summary' },
        {
          op: 'updateField',
          schema: 'blog-post',
          key: 'summary',
          patch: { required: true, description: 'Shown in lists' },
        },
      ],
    });
  });

  it('makes a select hold several values by retyping it, and offers a locked field no rename, retype or removal', async () => {
    installApi({
      [`POST ${MODEL_URL}/apply`]: (body) => [200, applied(4, (body as { ops: unknown[] }).ops)],
    });
    await renderScreen();
    expect(screen.queryByRole('button', { name: 'More for Title' })).toBeNull();
    expect(screen.getByRole('button', { name: 'More for Tone' })).toBeInTheDocument();
    await openEditor('Title');
    expect(input('Key')).toBeDisabled();
    expect(input('Type')).toBeDisabled();
    await click(dialog().getByRole('button', { name: 'Cancel' }));

    await openEditor('Tone');
    await click(dialog().getByRole('switch', { name: /Several values/ }));
    await submitDialog('Change field');
    await click(screen.getByRole('button', { name: 'Apply' }));
    await findByText('Content model updated');
    expect(sentBodies('apply')[0]).toEqual({
      baseVersion: 3,
      ops: [
        {
          op: 'retypeField',
          schema: 'blog-post',
          key: 'tone',
          field: {
            key: 'tone',
            label: 'Tone',
            type: 'select',
            options: [{ value: 'calm', label: 'Calm' }],
            multiple: true,
          },
        },
      ],
    });
  });

  it('shows the engine’s refusal in the editor and adds nothing', async () => {
    installApi();
    await renderScreen();
    await click(screen.getByRole('button', { name: 'Add field to Blog Post' }));
    await changeValue(input('Label'), 'Excerpt');
    await submitDialog('Add field');
    expect(dialog().getByRole('alert').textContent).toBe('Schema "blog-post" already has a field "excerpt"');
    expect(bodyText()).not.toContain('not applied');
    await click(dialog().getByRole('button', { name: 'Cancel' }));
  });
});

const column = (key: string, label: string, type: 'text' | 'number') => ({ key, label, type });

/** The model with a table "specs" of two columns, and a locked table, on blog posts. */
const blogPost = MODEL.domains[0]!.schemas[0]!;
const WITH_TABLES: ContentModelDoc = {
  ...MODEL,
  domains: [
    {
      ...MODEL.domains[0]!,
      schemas: [
        {
          ...blogPost,
          fields: [
            ...blogPost.fields,
            {
              key: 'specs',
              label: 'Specs',
              type: 'table',
              columns: [column('size', 'Size', 'text'), column('weight', 'Weight', 'number')],
            },
            {
              key: 'links',
              label: 'Links',
              type: 'table',
              locked: true,
              columns: [column('url', 'URL', 'text')],
            },
          ],
        },
        ...MODEL.domains[0]!.schemas.slice(1),
      ],
    },
  ],
};

async function addColumn(table: string, label: string, type?: string) {
  await click(dialog().getByRole('button', { name: `Add column to ${table}` }));
  await changeValue(input('Label'), label);
  if (type) await pickOption(input('Type'), type);
  await submitDialog('Add column');
}

describe('content model table columns', () => {
  const applyingApi = (model = MODEL) =>
    installApi({
      [`GET ${MODEL_URL}`]: () => [200, { version: 3, model }],
      [`POST ${MODEL_URL}/apply`]: (body) => [200, applied(4, (body as { ops: unknown[] }).ops)],
    });

  it('adds a table field carrying its columns inline, and a column added later joins that addField', async () => {
    applyingApi();
    await renderScreen();
    await click(screen.getByRole('button', { name: 'Add field to Blog Post' }));
    await changeValue(input('Label'), 'Specs');
    await pickOption(input('Type'), 'Table');
    expect(dialog().getByText('No columns yet.')).toBeInTheDocument();
    await addColumn('Specs', 'Size');
    await addColumn('Specs', 'Weight', 'Number');
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    expect(dialog().getByTestId('column-size')).toBeInTheDocument();
    await submitDialog('Add field');
    expect(bodyText()).toContain('Add field "specs" (table) to "blog-post"');

    await openEditor('Specs');
    await addColumn('Specs', 'Colour');
    await submitDialog('Change field');
    await click(screen.getByRole('button', { name: 'Apply' }));
    await findByText('Content model updated');
    expect(sentBodies('apply')[0]).toEqual({
      baseVersion: 3,
      ops: [
        {
          op: 'addField',
          schema: 'blog-post',
          field: {
            key: 'specs',
            label: 'Specs',
            type: 'table',
            columns: [
              column('size', 'Size', 'text'),
              column('weight', 'Weight', 'number'),
              column('colour', 'Colour', 'text'),
            ],
          },
        },
      ],
    });
  });

  it("changes an existing table's columns by column operations: add, rename, retype, edit, move and remove", async () => {
    applyingApi(WITH_TABLES);
    await renderScreen();
    await openEditor('Specs');
    const columns = within(dialog().getByRole('table', { name: 'Columns of Specs' }));
    expect(columns.getByText('Size')).toBeInTheDocument();
    expect(columns.getByText('Number')).toBeInTheDocument();

    await click(dialog().getByRole('button', { name: 'More for Size' }));
    await click(await menuItem('Rename key'));
    await changeValue(input('Key'), 'dimensions');
    await submitDialog('Change column');
    expect(dialog().getByTestId('column-dimensions')).toHaveTextContent('Not applied');
    expect(dialog().getByTestId('column-weight')).not.toHaveTextContent('Not applied');
    await click(dialog().getByRole('button', { name: 'More for Weight' }));
    await click(await menuItem('Change type'));
    await pickOption(input('Type'), 'Text');
    await submitDialog('Change column');
    await click(dialog().getByRole('button', { name: 'Edit Weight' }));
    await click(dialog().getByRole('switch', { name: /Required/ }));
    await submitDialog('Change column');
    await addColumn('Specs', 'Colour');
    await click(dialog().getByRole('button', { name: 'Move Colour up' }));
    await click(dialog().getByRole('button', { name: 'More for Size' }));
    await click(await menuItem('Remove column'));
    expect(dialog().queryByTestId('column-dimensions')).toBeNull();
    await click(dialog().getByRole('button', { name: 'Cancel' }));

    expect(bodyText()).toContain('Rename field "size" of table "specs" of "blog-post" to "dimensions"');
    expect(bodyText()).toContain('Change the type of field "weight" of table "specs" of "blog-post" to text');
    await click(screen.getByRole('button', { name: 'Apply' }));
    await findByText('Content model updated');
    const table = { schema: 'blog-post', table: 'specs' };
    expect(sentBodies('apply')[0]).toEqual({
      baseVersion: 3,
      ops: [
        { op: 'renameField', ...table, from: 'size', to: 'dimensions' },
        { op: 'retypeField', ...table, key: 'weight', field: column('weight', 'Weight', 'text') },
        { op: 'updateField', ...table, key: 'weight', patch: { required: true } },
        { op: 'addField', ...table, field: column('colour', 'Colour', 'text') },
        { op: 'moveField', ...table, key: 'colour', index: 1 },
        { op: 'removeField', ...table, key: 'dimensions' },
      ],
    });
  });

  it('lists the columns of a locked table without any action, and offers no table or combinations to a column', async () => {
    applyingApi(WITH_TABLES);
    await renderScreen();
    await openEditor('Links');
    expect(
      dialog().getByText('Marquee relies on this table: its columns stay as they are.'),
    ).toBeInTheDocument();
    expect(dialog().getByTestId('column-url')).toBeInTheDocument();
    expect(dialog().queryByRole('button', { name: 'Add column to Links' })).toBeNull();
    expect(dialog().queryByRole('button', { name: 'Edit URL' })).toBeNull();
    await click(dialog().getByRole('button', { name: 'Cancel' }));

    await openEditor('Specs');
    await click(dialog().getByRole('button', { name: 'Add column to Specs' }));
    await expect(pickOption(input('Type'), 'Table')).rejects.toThrow('No option "Table"');
  });
});

describe('content model change set', () => {
  it('lists each pending operation in words, drops one, then discards the rest', async () => {
    installApi();
    await renderScreen();
    await click(screen.getByRole('button', { name: 'Move Excerpt down' }));
    await click(screen.getByRole('button', { name: 'More for Tone' }));
    await click(await menuItem('Remove field'));
    expect(bodyText()).toContain('2 changes not applied');
    const list = within(screen.getByRole('list', { name: 'Pending operations' }));
    expect(list.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Move field "excerpt" of "blog-post" to position 3',
      'Remove field "tone" from "blog-post"',
    ]);
    expect(screen.queryByTestId('field-tone')).toBeNull();

    await click(screen.getByRole('button', { name: 'Drop: Remove field "tone" from "blog-post"' }));
    expect(bodyText()).toContain('1 change not applied');
    expect(screen.getByTestId('field-tone')).toBeInTheDocument();
    await click(screen.getByRole('button', { name: 'Discard' }));
    expect(screen.queryByRole('region', { name: 'Pending changes' })).toBeNull();
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('reviews the plan: per operation the items touched, those becoming incomplete linked, and its warning', async () => {
    const plan: PlanAnswer = {
      baseVersion: 3,
      ops: [],
      impacts: [
        {
          op: { op: 'updateField', schema: 'blog-post', key: 'excerpt', patch: { required: true } },
          summary: 'Make excerpt of blog-post required',
          touched: 40,
          failing: { count: 12, ids: Array.from({ length: 12 }, (_, index) => `post-${index + 1}`) },
          warning: 'Items without an excerpt become incomplete',
        },
      ],
    };
    installApi({ [`POST ${MODEL_URL}/plan`]: () => [200, plan] });
    await renderScreen();
    await openEditor('Excerpt');
    await click(dialog().getByRole('switch', { name: /Required/ }));
    await submitDialog('Change field');
    await click(screen.getByRole('button', { name: 'Review' }));

    const review = within(await screen.findByTestId('plan'));
    expect(review.getByText('40 items touched')).toBeInTheDocument();
    expect(review.getByText('12 items would become incomplete')).toBeInTheDocument();
    expect(review.getByRole('link', { name: 'post-1' }).getAttribute('href')).toBe(
      '/acme/blogging/blog-post/post-1',
    );
    expect(review.getAllByRole('link')).toHaveLength(10);
    expect(review.getByText('and 2 more')).toBeInTheDocument();
    expect(review.getByText('Items without an excerpt become incomplete')).toBeInTheDocument();
    expect(sentBodies('plan')).toEqual([
      {
        baseVersion: 3,
        ops: [{ op: 'updateField', schema: 'blog-post', key: 'excerpt', patch: { required: true } }],
      },
    ]);
  });

  it('asks before removing a schema, naming how many items it has', async () => {
    const removal = { op: 'removeSchema', schema: 'page' };
    installApi({
      [`POST ${MODEL_URL}/plan`]: () => [
        200,
        {
          baseVersion: 3,
          ops: [removal],
          impacts: [{ op: removal, summary: 'Remove page', touched: 7, failing: { count: 0, ids: [] } }],
        },
      ],
      [`POST ${MODEL_URL}/apply`]: () => [200, applied(4, [removal])],
    });
    await renderScreen();
    expect(screen.queryByRole('button', { name: 'Remove schema Blog Post' })).toBeNull();
    await click(screen.getByRole('button', { name: /^Page page/ }));
    await click(await screen.findByRole('button', { name: 'Remove schema Page' }));
    await click(screen.getByRole('button', { name: 'Apply' }));
    await findByText('Page has 7 items');
    expect(sentBodies('apply')).toEqual([]);
    await click(screen.getByRole('button', { name: 'Remove and apply' }));
    await findByText('Content model updated');
    expect(sentBodies('apply')).toEqual([{ baseVersion: 3, ops: [removal] }]);
  });

  it('says when the model changed meanwhile (409) and reloads it, keeping the pending changes', async () => {
    let version = 3;
    installApi({
      [`GET ${WS}`]: () => [200, makeWorkspace({ modelVersion: version })],
      [`GET ${MODEL_URL}`]: () => [200, { version, model: MODEL }],
      [`POST ${MODEL_URL}/apply`]: (body) =>
        (body as { baseVersion: number }).baseVersion === 3
          ? [409, { error: { code: 'conflict', message: CONTENT_MODEL_MESSAGES.stale } }]
          : [200, applied(5, [])],
    });
    await renderScreen();
    await click(screen.getByRole('button', { name: 'Move Excerpt down' }));
    await click(screen.getByRole('button', { name: 'Apply' }));
    await findByText(new RegExp(CONTENT_MODEL_MESSAGES.stale));

    version = 4;
    await click(screen.getByRole('button', { name: 'Reload' }));
    await findByText('Content model reloaded at version 4');
    expect(bodyText()).toContain('1 change not applied');
    await click(screen.getByRole('button', { name: 'Apply' }));
    await findByText('Content model updated');
    expect(sentBodies('apply').map((body) => (body as { baseVersion: number }).baseVersion)).toEqual([3, 4]);
  });

  it('shows the server’s message for a change set it refuses (400)', async () => {
    const message = 'ops.0 (moveField): Schema "blog-post" has no field "excerpt"';
    installApi({
      [`POST ${MODEL_URL}/apply`]: () => [400, { error: { code: 'invalid_request', message } }],
    });
    await renderScreen();
    await click(screen.getByRole('button', { name: 'Move Excerpt down' }));
    await click(screen.getByRole('button', { name: 'Apply' }));
    await findByText(message);
    expect(bodyText()).toContain('1 change not applied');
  });
});

describe('content model history', () => {
  const change = (overrides: Partial<ModelChange>): Omit<ModelChange, 'transformed'> => {
    const { transformed: _transformed, ...summary } = { ...applied(2, []).change, ...overrides };
    return summary;
  };

  it('lists applied changes with their revert markers, shows what one transformed and reverts another', async () => {
    const removeExcerpt = { op: 'removeField', schema: 'blog-post', key: 'excerpt' } as const;
    const retypeTone = {
      op: 'retypeField',
      schema: 'blog-post',
      key: 'tone',
      field: { key: 'tone', label: 'Tone', type: 'number' },
    } as const;
    installApi({
      [`GET ${MODEL_URL}/changes`]: () => [
        200,
        {
          changes: [
            change({ id: 'c3', version: 3, baseVersion: 2, ops: [retypeTone] }),
            change({
              id: 'c2',
              version: 2,
              baseVersion: 1,
              ops: [removeExcerpt],
              reverts: 'c1',
              revertible: false,
            }),
            change({ id: 'c1', version: 1, baseVersion: 0, ops: [removeExcerpt] }),
          ],
        },
      ],
      [`GET ${MODEL_URL}/changes/c3`]: () => [
        200,
        {
          ...applied(3, [retypeTone]).change,
          transformed: [
            { schema: 'blog-post', id: 'post-1' },
            { schema: 'blog-post', id: 'post-2', failed: ['tone'] },
          ],
        },
      ],
      [`POST ${MODEL_URL}/changes/c3/revert`]: () => [200, applied(4, [])],
    });
    await renderScreen();
    await click(screen.getByRole('tab', { name: 'History' }));
    const v1 = within(await screen.findByTestId('change-v1'));
    expect(v1.getByText('Reverted in v2')).toBeInTheDocument();
    expect(v1.queryByRole('button', { name: 'Revert version 1' })).toBeNull();
    expect(within(screen.getByTestId('change-v2')).getByText('Reverts v1')).toBeInTheDocument();
    expect(screen.getByTestId('change-v3').textContent).toContain(
      'Change the type of field "tone" of "blog-post" to number',
    );

    await click(screen.getByRole('button', { name: 'Details of version 3' }));
    const details = within(await screen.findByTestId('change-details'));
    expect(
      details.getByText('2 items transformed, 1 with values that could not be converted'),
    ).toBeInTheDocument();
    expect(details.getByRole('link', { name: 'post-2' }).getAttribute('href')).toBe(
      '/acme/blogging/blog-post/post-2',
    );
    expect(details.getByText('tone')).toBeInTheDocument();
    await click(dialog().getByRole('button', { name: 'Close' }));

    await click(screen.getByRole('button', { name: 'Revert version 3' }));
    await click(await screen.findByRole('button', { name: 'Revert' }));
    await findByText('Version 3 reverted');
    await waitFor(() => expect(sentBodies('changes/c3/revert')).toEqual([{ baseVersion: 3 }]));
  });

  it('shows the progress of a change whose items are still being converted, and says so on apply', async () => {
    const rename = { op: 'renameField', schema: 'blog-post', from: 'excerpt', to: 'summary' } as const;
    const running = {
      ...applied(4, [rename]).change,
      state: 'running' as const,
      progress: { total: 1_000_000, done: 250_000 },
    };
    installApi({ [`POST ${MODEL_URL}/apply`]: () => [200, { version: 4, change: running }] });
    await renderScreen();
    expect(screen.queryByTestId('running-changes')).toBeNull();
    await openEditor('Excerpt');
    await changeValue(input('Key'), 'summary');
    await submitDialog('Change field');
    api.routes[`GET ${MODEL_URL}/changes`] = () => [200, { changes: [change(running)] }];
    await click(screen.getByRole('button', { name: 'Apply' }));
    await findByText(/Its items are being converted in the background\./);
    const notice = within(await screen.findByTestId('running-changes'));
    expect(notice.getByText(/Version 4: 250,000 of 1,000,000 items converted\./)).toBeInTheDocument();
    expect(notice.getByRole('progressbar', { name: 'Items of version 4 converted' })).toHaveAttribute(
      'aria-valuenow',
      '25',
    );
    await click(screen.getByRole('tab', { name: 'History' }));
    expect(
      within(await screen.findByTestId('change-v4')).getByText('Converting items 250,000 of 1,000,000'),
    ).toBeInTheDocument();
  });
});

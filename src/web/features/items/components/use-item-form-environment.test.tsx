import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Workspace } from '@shared/api/workspaces';
import { testCollection } from '@shared/schemas/admin';
import { ItemForm } from '@web/components/item-form/item-form';
import { bodyText, button, renderUi } from '@web/components/item-form/test-utils';
import { click, waitFor } from '@web/test/render';
import { useItemFormEnvironment } from './use-item-form-environment';

const workspace: Pick<Workspace, 'id' | 'basics' | 'modelVersion'> = {
  id: 'acme',
  modelVersion: 0,
  basics: {
    name: 'Acme',
    domains: ['marketing', 'admin'],
    stages: ['Live'],
    timezones: [],
    dateFormat: 'relative',
  } as Workspace['basics'],
};

function TestCollectionForm() {
  const environment = useItemFormEnvironment(workspace);
  return (
    <ItemForm
      schema={testCollection}
      value={{ name: 'Copy types', schema: 'copy', code: '  return true;' }}
      mode="view"
      canEdit
      onSave={async () => {}}
      {...environment}
    />
  );
}

async function renderForm(answer: () => Response) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      calls.push(String(input));
      return String(input).startsWith('/fun/items/generate-types/')
        ? answer()
        : new Response('', { status: 204 });
    }),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  await renderUi(
    <QueryClientProvider client={client}>
      <TestCollectionForm />
    </QueryClientProvider>,
  );
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

describe('Generate Types on the item screens', () => {
  it("shows the server's type definition and enables Copy", async () => {
    const calls = await renderForm(
      () => new Response('export interface Copy {\n  name: string;\n}\n', { status: 200 }),
    );
    expect(button('Copy').disabled).toBe(true);
    await click(button('Generate Types'));
    await waitFor(() => expect(bodyText()).toContain('export interface Copy'));
    expect(calls).toContain('/fun/items/generate-types/copy?__marquee_workspace=acme');
    expect(button('Copy').disabled).toBe(false);
  });

  it("reports 'Types not generated. {detail}' and logs typegen_failed", async () => {
    const calls = await renderForm(
      () =>
        new Response(JSON.stringify({ error: { code: 'not_found', message: 'Schema not found' } }), {
          status: 404,
        }),
    );
    await click(button('Generate Types'));
    await waitFor(() => expect(bodyText()).toContain('Types not generated. Schema not found'));
    expect(calls).toContain('/api/v1/events');
  });
});

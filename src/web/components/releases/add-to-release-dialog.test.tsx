import { MemoryRouter } from 'react-router';
import type { Workspace } from '@shared/api/workspaces';
import { installFakeApi, type FakeApi } from '@web/test/fake-api';
import { releaseAnswer, releaseSummary } from '@web/test/release-fixtures';
import { findByText, waitFor } from '@web/test/render';
import { button, changeValue, pickOption, renderUi } from '../item-form/test-utils';
import AddToReleaseDialog from './add-to-release-dialog';

const RELEASES = '/api/v1/workspaces/acme/releases';

const workspace = {
  id: 'acme',
  basics: { name: 'Acme', domains: ['marketing'], stages: ['Staging', 'Live'], timezones: ['Europe/Paris'] },
  __permissions: {
    canEdit: ['copy'],
    canPublish: ['copy'],
    canApprove: [],
    canManageWorkspace: true,
    roles: [],
  },
} as unknown as Workspace;

const summary = releaseSummary;
const items = [
  { schema: 'copy', itemId: 'spring', version: 3 },
  { schema: 'copy', itemId: 'summer', version: 1 },
];

/** The input a visible <label> names (Mantine links them with for/id). */
function byLabel(text: string): HTMLInputElement {
  const label = Array.from(document.querySelectorAll('label')).find(
    (l) => l.textContent?.replace('*', '').trim() === text,
  );
  const input = label && document.getElementById(label.htmlFor);
  if (!input) throw new Error(`No input labelled "${text}"`);
  return input as HTMLInputElement;
}

let api: FakeApi;
afterEach(() => vi.unstubAllGlobals());

async function open(onAdded = vi.fn()) {
  await renderUi(
    <MemoryRouter>
      <AddToReleaseDialog workspace={workspace} items={items} onClose={() => {}} onAdded={onAdded} />
    </MemoryRouter>,
  );
  return onAdded;
}
const entriesCall = () => api.calls.find((c) => c.method === 'POST' && c.path.endsWith('/entries'));

describe('AddToReleaseDialog', () => {
  it('creates a release when none is open for changes, then adds each item pinned at the version shown', async () => {
    api = installFakeApi({
      [`GET ${RELEASES}`]: () => [200, { releases: [summary({ id: 'old', state: 'published' })] }],
      [`POST ${RELEASES}`]: (body) => [201, summary({ id: 'new1', ...(body as object) })],
      [`POST ${RELEASES}/new1/entries`]: () => [200, releaseAnswer({ id: 'new1' })],
    });
    const onAdded = await open();
    // The only release went out already: the dialog starts on a new one.
    await waitFor(() => byLabel('Name'));
    await changeValue(byLabel('Name'), 'Spring launch');
    await pickOption(byLabel('Target stage'), 'Staging');
    button('Create and add 2 items').click();
    await findByText('2 items added to “Spring launch”.');
    expect(api.calls.find((c) => c.method === 'POST' && c.path === RELEASES)?.body).toEqual({
      name: 'Spring launch',
      description: '',
      stage: 'staging',
      publishAt: null,
      publishAtTz: null,
    });
    expect(entriesCall()?.body).toEqual({
      entries: [
        { schema: 'copy', itemId: 'spring', version: 3 },
        { schema: 'copy', itemId: 'summer', version: 1 },
      ],
    });
    expect(onAdded).toHaveBeenCalledTimes(1);
  });

  it('adds to a chosen draft release, and shows the server’s refusal without closing', async () => {
    api = installFakeApi({
      [`GET ${RELEASES}`]: () => [200, { releases: [summary({ id: 'r1', name: 'Launch', entryCount: 4 })] }],
      [`POST ${RELEASES}/r1/entries`]: () => [
        409,
        { error: { code: 'conflict', message: 'This release is published. Revert it before changing it.' } },
      ],
    });
    const onAdded = await open();
    await waitFor(() => byLabel('Release'));
    expect(button('Add 2 items').disabled).toBe(true);
    await pickOption(byLabel('Release'), 'Launch (Live, 4 entries)');
    button('Add 2 items').click();
    await findByText('This release is published. Revert it before changing it.');
    expect(entriesCall()?.path).toBe(`${RELEASES}/r1/entries`);
    expect(onAdded).not.toHaveBeenCalled();
  });

  it('offers, once added, the items the release references that are not current in its stage, in one click', async () => {
    const refs = [
      { schema: 'image', itemId: 'hero', label: 'Hero', currentVersion: 2, stageVersion: 1 },
      { schema: 'copy', itemId: 'terms', label: 'Terms', currentVersion: 1, stageVersion: null },
    ];
    let remaining = refs;
    api = installFakeApi({
      [`GET ${RELEASES}`]: () => [200, { releases: [summary({ id: 'r1', name: 'Launch', entryCount: 4 })] }],
      [`POST ${RELEASES}/r1/entries`]: (body) => {
        const added = (body as { entries: { itemId: string }[] }).entries.map((e) => e.itemId);
        remaining = remaining.filter((r) => !added.includes(r.itemId));
        return [200, releaseAnswer({ id: 'r1' })];
      },
      [`GET ${RELEASES}/r1/references`]: () => [200, { references: remaining }],
    });
    await open();
    await waitFor(() => byLabel('Release'));
    await pickOption(byLabel('Release'), 'Launch (Live, 4 entries)');
    button('Add 2 items').click();
    await findByText('2 items added to “Launch”.');
    const addRefs = await waitFor(() => button('Add the 2 items it references that are not current in Live'));
    addRefs.click();
    await findByText('2 items added to “Launch”. 2 items it references added too.');
    const calls = api.calls.filter((c) => c.method === 'POST' && c.path.endsWith('/entries'));
    expect(calls[1]?.body).toEqual({
      entries: [
        { schema: 'image', itemId: 'hero' },
        { schema: 'copy', itemId: 'terms' },
      ],
    });
    // Every reference is in the release now: nothing more to offer.
    await waitFor(() =>
      expect(() => button('Add the 2 items it references that are not current in Live')).toThrow(),
    );
  });
});

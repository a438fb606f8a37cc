import { act } from 'react';
import { MemoryRouter } from 'react-router';
import type { Item } from '@shared/api/items';
import type { Workspace } from '@shared/api/workspaces';
import { installFakeApi } from '@web/test/fake-api';
import { findByText } from '@web/test/render';
import { renderUi } from '@web/components/item-form/test-utils';
import { HistoryPanel } from './history-panel';

const locales = { tags: ['en-US', 'fr-FR'], default: 'en-US', fallback: { 'fr-FR': 'en-US' } };
const workspaceWith = (basics: object) =>
  ({ id: 'acme', basics: { name: 'Acme', domains: ['blogging'], ...basics } }) as unknown as Workspace;
const item = {
  id: 'p1',
  schema: 'blog-post',
  version: 4,
  abilities: { canEdit: false },
} as unknown as Item;

const entry = (num: number, changes?: { locales: string[]; shared: boolean }) => ({
  id: String(num),
  num,
  at: '2026-01-0' + num + 'T10:00:00Z',
  by: 'u1',
  byName: 'Ann',
  thisVersion: num,
  previousVersion: num > 1 ? num - 1 : null,
  ...(changes && { changes }),
});

const HISTORY = '/api/v1/workspaces/acme/items/blog-post/p1/history';

afterEach(() => vi.unstubAllGlobals());

async function renderPanel(versions: object[], workspace = workspaceWith({ locales }), locale?: string) {
  installFakeApi({
    [`GET ${HISTORY}`]: () => [200, { versions }],
    'GET /api/v1/workspaces/acme/members': () => [200, { members: [] }],
  });
  await renderUi(
    <MemoryRouter>
      <HistoryPanel workspace={workspace} domain="blogging" item={item} locale={locale} />
    </MemoryRouter>,
  );
  await findByText('Version 1');
}

const chipsOf = (num: number) =>
  Array.from(
    document.querySelectorAll(`[data-version="${num}"] [data-testid="locale-changes"] [role="listitem"]`),
  ).map((chip) => chip.textContent);
const shownVersions = () =>
  Array.from(document.querySelectorAll('[data-version]')).map((el) => el.getAttribute('data-version'));
const compareLink = (num: number) =>
  document.querySelector<HTMLAnchorElement>(`[data-version="${num}"] a[href*="from="]`)?.getAttribute('href');

async function filterOn(tag: string) {
  const select = document.querySelector<HTMLSelectElement>('select[data-testid="history-locale-filter"]')!;
  await act(async () => {
    select.value = tag;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

const versions = [
  entry(3, { locales: ['fr-FR'], shared: false }),
  entry(2, { locales: ['en-US'], shared: true }),
  entry(1, { locales: ['en-US', 'de-DE'], shared: true }),
];

describe('HistoryPanel locales', () => {
  it('shows on each version the locales it changed, and shared fields', async () => {
    await renderPanel(versions);
    expect(chipsOf(3)).toEqual(['fr-FR']);
    expect(chipsOf(2)).toEqual(['en-US', 'Shared fields']);
    expect(chipsOf(1)).toEqual(['en-US', 'de-DE', 'Shared fields']);
  });

  it("narrows to one locale's changes, a removed locale included, and compares in it", async () => {
    await renderPanel(versions);
    const options = Array.from(
      document.querySelectorAll<HTMLOptionElement>('select[data-testid="history-locale-filter"] option'),
    ).map((option) => option.textContent);
    expect(options).toEqual(['All changes', 'Changes in en-US', 'Changes in fr-FR', 'Changes in de-DE']);
    await filterOn('fr-FR');
    expect(shownVersions()).toEqual(['3']);
    expect(compareLink(3)).toContain('from=2&to=3&locale=fr-FR');
    await filterOn('de-DE');
    expect(shownVersions()).toEqual(['1']);
  });

  it('says so when no version changed the locale', async () => {
    await renderPanel([
      entry(2, { locales: ['en-US'], shared: false }),
      entry(1, { locales: ['en-US'], shared: false }),
    ]);
    await filterOn('fr-FR');
    expect(shownVersions()).toEqual([]);
    expect(document.body.textContent).toContain('No version changed fr-FR values.');
  });

  it('links comparisons in the locale the editor shows', async () => {
    await renderPanel(versions, undefined, 'fr-FR');
    expect(compareLink(2)).toContain('from=1&to=2&locale=fr-FR');
  });

  it('offers no filter or chips where the workspace has no locales', async () => {
    await renderPanel([entry(2), entry(1)], workspaceWith({}));
    expect(document.querySelector('[data-testid="history-locale-filter"]')).toBeNull();
    expect(document.querySelector('[data-testid="locale-changes"]')).toBeNull();
    expect(compareLink(2)).not.toContain('locale=');
  });
});

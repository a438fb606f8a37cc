import { act } from 'react';
import { localizedSchema } from '@shared/locales/locales';
import { BUILT_IN_MODEL } from '@shared/model/registry';
import { ApiError } from '@web/lib/api-client';
import { click, waitFor } from '@web/test/render';
import type { ItemData } from '../fields/types';
import { ItemForm, type ItemFormProps } from './item-form';
import type { FormLocales } from './item-locales';
import { bodyText, button, byLabel, changeValue, queryByLabel, renderUi } from './test-utils';

const settings = {
  tags: ['en-US', 'fr-FR', 'fr-CA'],
  default: 'en-US',
  fallback: { 'fr-CA': 'fr-FR', 'fr-FR': 'en-US' },
};
const post = localizedSchema(BUILT_IN_MODEL.schema('blog-post')!, settings);
const locales: FormLocales = { default: 'en-US', others: ['fr-FR', 'fr-CA'], fallback: settings.fallback };

const value: ItemData = {
  name: 'Good morning',
  slug: 'good-morning',
  body: '<p>Morning</p>',
  excerpt: 'Short',
  _locales: { 'fr-FR': { name: 'Bonjour', slug: 'bonjour' } },
};

async function renderPost(overrides: Partial<ItemFormProps> = {}) {
  const onSave = vi.fn<ItemFormProps['onSave']>(async () => {});
  await renderUi(
    <ItemForm
      schema={post}
      value={value}
      mode="edit"
      canEdit
      onSave={onSave}
      locales={locales}
      {...overrides}
    />,
  );
  return { onSave };
}

async function pickLocale(tag: string) {
  const select = document.querySelector<HTMLSelectElement>('[data-testid="locale-bar"] select')!;
  await act(async () => {
    select.value = tag;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

const statusOf = (key: string) =>
  document.querySelector(`[data-field="${key}"] [data-locale-status]`)?.textContent ?? null;

describe('item form locales', () => {
  it('edits a locale under _locales, marks each localised field and keeps shared fields shared', async () => {
    const { onSave } = await renderPost();
    expect(queryByLabel('Title (fr-FR)')).toBeNull();
    await pickLocale('fr-CA');
    expect(statusOf('name')).toBe('Falling back to fr-FR');
    expect(statusOf('body')).toBe('Falling back to en-US');
    expect(statusOf('excerpt')).toBeNull(); // shared: shown once, unmarked
    await pickLocale('fr-FR');
    expect(statusOf('name')).toBe('Translated');
    expect(byLabel('Title (fr-FR)').value).toBe('Bonjour');
    await changeValue(byLabel('Title (fr-FR)'), 'Bonjour à tous');
    await click(button('Save'));
    await waitFor(() => expect(onSave).toHaveBeenCalled());
    expect(onSave.mock.calls[0][0]).toMatchObject({
      name: 'Good morning',
      slug: 'good-morning',
      _locales: { 'fr-FR': { name: 'Bonjour à tous', slug: 'bonjour-a-tous' } },
    });
  });

  it('an emptied translation falls back again; a missing one says so', async () => {
    await renderPost({ value: { ...value, _locales: {} } });
    await pickLocale('fr-FR');
    expect(statusOf('name')).toBe('Falling back to en-US');
    await changeValue(byLabel('Title (fr-FR)'), 'Salut');
    expect(statusOf('name')).toBe('Translated');
    await changeValue(byLabel('Title (fr-FR)'), '');
    expect(statusOf('name')).toBe('Falling back to en-US');
    expect(statusOf('coverImage')).toBe('Missing');
  });

  it('side by side shows the default locale read-only beside the field being edited', async () => {
    await renderPost();
    await pickLocale('fr-FR');
    await click(
      document.querySelector<HTMLInputElement>('[data-testid="locale-bar"] input[type="checkbox"]')!,
    );
    const row = document.querySelector('[data-field="name"] [data-side-by-side]')!;
    expect(row.querySelector('[aria-label="Title (en-US)"]')!.textContent).toContain('Good morning');
    expect(byLabel('Title (fr-FR)').value).toBe('Bonjour');
  });

  it('shows a locale’s server errors under its field', async () => {
    const message = 'Title (fr-FR) is required';
    await renderPost({
      onSave: async () => {
        throw new ApiError(400, 'validation_failed', message, { errors: { '_locales.fr-FR.name': message } });
      },
    });
    await changeValue(byLabel('Excerpt'), 'Changed');
    await click(button('Save'));
    await pickLocale('fr-FR');
    await waitFor(() =>
      expect(
        byLabel('Title (fr-FR)')
          .closest('.mantine-InputWrapper-root')
          ?.querySelector('.mantine-InputWrapper-error')?.textContent,
      ).toBe(message),
    );
  });

  it('a locale-limited editor opens in its locale and sees the others read-only', async () => {
    await renderPost({ locales: { ...locales, editable: ['fr-FR'] } });
    expect(byLabel('Title (fr-FR)').value).toBe('Bonjour');
    expect(bodyText()).toContain('Short');
    expect(queryByLabel('Excerpt')).toBeNull(); // shared fields: read-only
    await pickLocale('en-US');
    expect(queryByLabel('Title')).toBeNull();
    expect(bodyText()).toContain('Good morning');
  });
});

describe('item form compare mode with locales', () => {
  const before: ItemData = { ...value, _locales: { 'fr-FR': { name: 'Bonjour', slug: 'bonjour' } } };
  const after: ItemData = { ...value, _locales: { 'fr-FR': { name: 'Salut', slug: 'salut' } } };
  const compare = (overrides: Partial<ItemFormProps> = {}) =>
    renderPost({
      mode: 'compare',
      value: after,
      compareWith: { label: 'Version 1', data: before },
      valueLabel: 'Version 2',
      ...overrides,
    });
  const compareSelect = () =>
    document.querySelector<HTMLSelectElement>('[data-testid="compare-locale-bar"] select')!;
  const options = () => Array.from(compareSelect().options).map((option) => option.textContent);
  const differing = () =>
    Array.from(
      document.querySelectorAll(
        '[data-testid="compare-locale-bar"] [data-testid="locale-changes"] [role="listitem"]',
      ),
    ).map((chip) => chip.textContent);
  const changedRows = () =>
    Array.from(document.querySelectorAll('[data-changed]')).map((row) => row.getAttribute('data-field'));
  async function pickCompareLocale(tag: string) {
    await act(async () => {
      compareSelect().value = tag;
      compareSelect().dispatchEvent(new Event('change', { bubbles: true }));
    });
  }
  const side = (key: string, which: 'before' | 'after') =>
    document.querySelector(`[data-field="${key}"] [data-side="${which}"]`)?.textContent ?? '';

  it('opens in the default locale, marking the locales that differ', async () => {
    await compare();
    expect(compareSelect().value).toBe('en-US');
    expect(options()).toEqual(['en-US', 'fr-FR (differs)', 'fr-CA']);
    expect(differing()).toEqual(['fr-FR']);
    expect(changedRows()).toEqual([]);
    expect(document.querySelector('[data-testid="locale-bar"]')).toBeNull();
  });

  it("shows the chosen locale's values side by side, never the raw _locales", async () => {
    const onLocaleChange = vi.fn();
    await compare({ onLocaleChange });
    await pickCompareLocale('fr-FR');
    expect(onLocaleChange).toHaveBeenCalledWith('fr-FR');
    expect(changedRows().sort()).toEqual(['name', 'slug']);
    expect(side('name', 'before')).toContain('Bonjour');
    expect(side('name', 'after')).toContain('Salut');
    expect(document.querySelector('[data-field="name"]')?.textContent).toContain('Title (fr-FR)');
    expect(document.querySelector(`[data-field="_locales"]`)).toBeNull();
    expect(bodyText()).not.toContain('_locales');
  });

  it('opens in the locale the editor shows, and marks a fallback', async () => {
    await compare({ initialLocale: 'fr-CA' });
    expect(compareSelect().value).toBe('fr-CA');
    expect(changedRows()).toEqual([]);
    expect(side('name', 'after')).toContain('Falling back to fr-FR');
  });

  it('still offers, and opens in, a locale removed from the workspace that the versions hold', async () => {
    await compare({
      initialLocale: 'de-DE',
      compareWith: {
        label: 'Version 1',
        data: { ...before, _locales: { 'de-DE': { name: 'Guten Morgen' } } },
      },
      value: { ...after, _locales: { 'de-DE': { name: 'Hallo' } } },
    });
    expect(options()).toEqual(['en-US', 'fr-FR', 'fr-CA', 'de-DE (differs)']);
    expect(compareSelect().value).toBe('de-DE');
    expect(side('name', 'before')).toContain('Guten Morgen');
    expect(side('name', 'after')).toContain('Hallo');
  });
});

import { act } from 'react';
import { localizedSchema } from '@shared/locales/locales';
import { getSchema } from '@shared/schemas/catalogue';
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
const post = localizedSchema(getSchema('blog-post')!, settings);
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

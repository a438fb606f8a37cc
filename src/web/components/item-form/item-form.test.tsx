import { act } from 'react';
import { BUILT_IN_MODEL } from '@shared/model/registry';
import { defineSchema } from '@shared/schemas/define';
import {
  CANCEL_CONFIRM_MESSAGE,
  CANCEL_CONFIRM_TITLE,
  INCOMPLETE_ITEM_MESSAGE,
  SAVE_BLOCKED_MESSAGE,
} from '@shared/validation/messages';
import { click, waitFor } from '@web/test/render';
import { SAMPLE_ITEMS } from '../../dev/sample-items';
import type { FieldProps, ItemData } from '../fields/types';
import { ItemForm, type ItemFormProps } from './item-form';
import { bodyText, button, byLabel, changeValue, queryButton, renderUi } from './test-utils';

const clientTask = BUILT_IN_MODEL.schema('client-task')!;
const audience = BUILT_IN_MODEL.schema('audience')!;
const attribute = BUILT_IN_MODEL.schema('customer-profile-attribute')!;

async function renderForm(overrides: Partial<ItemFormProps> = {}) {
  const onSave = vi.fn<ItemFormProps['onSave']>(async () => {});
  const onCancel = vi.fn();
  const onModeChange = vi.fn();
  await renderUi(
    <ItemForm
      schema={clientTask}
      value={{ name: 'Send report' }}
      mode="edit"
      canEdit
      onSave={onSave}
      onCancel={onCancel}
      onModeChange={onModeChange}
      {...overrides}
    />,
  );
  return { onSave, onCancel, onModeChange };
}

const isDisabled = (text: string) => button(text).disabled;

describe('ItemForm modes and rights', () => {
  it('offers Edit in view mode to editors, and switches to edit', async () => {
    const { onModeChange } = await renderForm({ mode: 'view' });
    expect(queryButton('Save')).toBeNull();
    await click(button('Edit'));
    expect(onModeChange).toHaveBeenCalledWith('edit');
    expect(button('Save')).toBeTruthy();
    expect(button('Reset')).toBeTruthy();
    expect(button('Cancel')).toBeTruthy();
  });

  it('is read-only for users who cannot edit the schema, even when asked for edit mode', async () => {
    await renderForm({ mode: 'edit', canEdit: false });
    expect(queryButton('Edit')).toBeNull();
    expect(queryButton('Save')).toBeNull();
    expect(document.querySelector('input')).toBeNull();
    expect(bodyText()).toContain('Read-only');
    expect(bodyText()).toContain('Send report');
  });
});

describe('ItemForm Save and Reset enablement', () => {
  it('disables Save and Reset until the form is dirty', async () => {
    await renderForm();
    expect(isDisabled('Save')).toBe(true);
    expect(isDisabled('Reset')).toBe(true);
    await changeValue(byLabel('Name'), 'Send the Q3 report');
    expect(isDisabled('Save')).toBe(false);
    expect(isDisabled('Reset')).toBe(false);
  });

  it('blocks saving an invalid item with the spec message', async () => {
    await renderForm();
    await changeValue(byLabel('Name'), '');
    expect(isDisabled('Save')).toBe(true);
    expect(isDisabled('Reset')).toBe(false);
    expect(bodyText()).toContain(SAVE_BLOCKED_MESSAGE);
    expect(bodyText()).toContain('Name is required');
  });

  it('Reset brings back the stored values and disables itself', async () => {
    await renderForm();
    await changeValue(byLabel('Name'), 'Changed');
    await click(button('Reset'));
    expect(byLabel('Name').value).toBe('Send report');
    expect(isDisabled('Reset')).toBe(true);
    expect(isDisabled('Save')).toBe(true);
  });

  it('saves the data without errors and returns to view mode', async () => {
    const { onSave, onModeChange } = await renderForm();
    await changeValue(byLabel('Name'), 'Send the Q3 report');
    await click(button('Save'));
    expect(onSave).toHaveBeenCalledWith({ name: 'Send the Q3 report' }, { hasErrors: false });
    await waitFor(() => expect(queryButton('Edit')).not.toBeNull());
    expect(onModeChange).toHaveBeenLastCalledWith('view');
    expect(bodyText()).toContain('Send the Q3 report');
  });

  it('stays in edit mode with the message when saving fails', async () => {
    await renderForm({
      onSave: async () => Promise.reject(new Error('Item update failed. Error: conflict')),
    });
    await changeValue(byLabel('Name'), 'Other');
    await click(button('Save'));
    await waitFor(() => expect(bodyText()).toContain('Item update failed. Error: conflict'));
    expect(queryButton('Save')).not.toBeNull();
  });

  it('lets a schema that allows saving with errors save an incomplete item, with the banner', async () => {
    const { onSave } = await renderForm({ schema: audience, value: { description: 'Draft' } });
    expect(bodyText()).toContain(INCOMPLETE_ITEM_MESSAGE);
    await changeValue(byLabel('Description'), 'Still a draft');
    expect(isDisabled('Save')).toBe(false);
    expect(bodyText()).not.toContain(SAVE_BLOCKED_MESSAGE);
    await click(button('Save'));
    expect(onSave).toHaveBeenCalledWith({ description: 'Still a draft' }, { hasErrors: true });
  });

  // Regression: a new audience opened with the incomplete banner before anything was typed.
  it('shows no incomplete banner on a new item until it is saved with errors', async () => {
    await renderForm({ schema: audience, value: {}, isNew: true });
    expect(bodyText()).not.toContain(INCOMPLETE_ITEM_MESSAGE);
    await changeValue(byLabel('Description'), 'Draft');
    expect(bodyText()).not.toContain(INCOMPLETE_ITEM_MESSAGE);
    await click(button('Save'));
    await waitFor(() => expect(bodyText()).toContain(INCOMPLETE_ITEM_MESSAGE));
  });

  it('shows no incomplete banner for a complete item', async () => {
    await renderForm({ schema: audience, value: { name: 'Buyers' } });
    expect(bodyText()).not.toContain(INCOMPLETE_ITEM_MESSAGE);
  });
});

describe('ItemForm Cancel', () => {
  it('leaves edit mode at once when nothing changed', async () => {
    const { onCancel } = await renderForm();
    await click(button('Cancel'));
    expect(onCancel).toHaveBeenCalled();
    expect(bodyText()).not.toContain(CANCEL_CONFIRM_TITLE);
    expect(queryButton('Edit')).not.toBeNull();
  });

  it('asks before losing changes; NO keeps editing', async () => {
    const { onCancel } = await renderForm();
    await changeValue(byLabel('Name'), 'Unsaved');
    await click(button('Cancel'));
    await waitFor(() => expect(bodyText()).toContain(CANCEL_CONFIRM_TITLE));
    expect(bodyText()).toContain(CANCEL_CONFIRM_MESSAGE);
    await click(button('NO'));
    expect(onCancel).not.toHaveBeenCalled();
    expect(byLabel('Name').value).toBe('Unsaved');
  });

  it('YES discards the changes and leaves edit mode', async () => {
    const { onCancel, onSave } = await renderForm();
    await changeValue(byLabel('Name'), 'Unsaved');
    await click(button('Cancel'));
    await waitFor(() => expect(queryButton('YES')).not.toBeNull());
    await click(button('YES'));
    expect(onCancel).toHaveBeenCalled();
    expect(onSave).not.toHaveBeenCalled();
    await waitFor(() => expect(queryButton('Edit')).not.toBeNull());
    expect(bodyText()).toContain('Send report');
    expect(bodyText()).not.toContain('Unsaved');
  });
});

describe('ItemForm fields', () => {
  it('derives the slug from the name until one is typed', async () => {
    await renderForm({ schema: attribute, value: {} });
    await changeValue(byLabel('Name'), 'Favourite Colour');
    expect(byLabel('Key').value).toBe('favourite-colour');
    await changeValue(byLabel('Key'), 'Fav Colour');
    await act(async () => byLabel('Key').dispatchEvent(new FocusEvent('focusout', { bubbles: true })));
    await changeValue(byLabel('Name'), 'Favourite Colours');
    expect(byLabel('Key').value).toBe('fav-colour');
  });

  it('does not star a required slug: left empty, it is derived from the name', async () => {
    // The Key field was starred as required while its help said 'Leave empty to derive it'.
    await renderForm({ schema: attribute, value: {} });
    const label = (key: string) => document.querySelector(`[data-field="${key}"] label`)!.textContent;
    expect(label('name')).toBe('Name*');
    expect(label('key')).toBe('Key');
    expect(bodyText()).toContain('Leave empty to derive it from the name.');
  });

  it('keeps the slug of a published item when the name changes', async () => {
    const value = { name: 'Favourite Colour', key: 'favourite-colour', attributeType: 'string' };
    await renderForm({ schema: attribute, value, hasBeenPublished: true });
    await changeValue(byLabel('Name'), 'Favourite Colours');
    expect(byLabel('Key').value).toBe('favourite-colour');
  });

  it('keeps a slug typed by hand before the last save when the name changes', async () => {
    await renderForm({ schema: attribute, value: { name: 'Favourite Colour', key: 'colour' } });
    await changeValue(byLabel('Name'), 'Favourite Colours');
    expect(byLabel('Key').value).toBe('colour');
  });

  it('hides fields whose display condition fails, and does not validate them', async () => {
    const { onSave } = await renderForm({
      schema: attribute,
      value: { name: 'Age', key: 'age', attributeType: 'number' },
    });
    expect(document.querySelector('[data-field="options"]')).toBeNull();
    await changeValue(byLabel('Description'), 'Years');
    await click(button('Save'));
    expect(onSave).toHaveBeenCalled();
  });

  it('shows a hidden field when its condition holds', async () => {
    await renderForm({ schema: attribute, value: { name: 'Size', attributeType: 'categorical' } });
    expect(document.querySelector('[data-field="options"]')).not.toBeNull();
  });

  it("lays labels out 5 columns wide by default, or the field's own width", async () => {
    await renderForm({ schema: audience, value: {}, mode: 'view' });
    expect(
      document.querySelector('[data-field="name"] [data-label-width]')?.getAttribute('data-label-width'),
    ).toBe('5');
    expect(
      document.querySelector('[data-field="criteria"] [data-label-width]')?.getAttribute('data-label-width'),
    ).toBe('12');
  });

  it('fills a generated field (length above 10) read-only, and leaves a short one editable', async () => {
    const schema = defineSchema({
      name: 'coupon',
      title: 'Coupon',
      icon: 'file-text',
      topFields: [],
      fields: [
        { key: 'code', label: 'Code', type: 'generatable', generateLength: 16 },
        { key: 'short', label: 'Short', type: 'generatable', generateLength: 8 },
      ],
    });
    await renderForm({ schema, value: {} });
    expect(byLabel('Code').value).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(byLabel('Code').readOnly).toBe(true);
    expect(byLabel('Short').value).toBe('');
    expect(byLabel('Short').readOnly).toBe(false);
    // Generated values are the starting point, not a change.
    expect(isDisabled('Reset')).toBe(true);
  });
});

describe('ItemForm compare mode', () => {
  it('shows both versions side by side and marks only the changed fields', async () => {
    const before: ItemData = { name: 'Send report', dueDate: '2025-09-30' };
    const after: ItemData = { name: 'Send report', description: 'With charts', dueDate: '2025-10-03' };
    await renderForm({
      mode: 'compare',
      value: after,
      compareWith: { label: 'Version 1', data: before },
      valueLabel: 'Version 2',
    });
    const changed = Array.from(document.querySelectorAll('[data-changed]')).map((row) =>
      row.getAttribute('data-field'),
    );
    expect(changed.sort()).toEqual(['description', 'dueDate']);
    expect(bodyText()).toContain('Version 1');
    expect(bodyText()).toContain('Version 2');
    const due = document.querySelector('[data-field="dueDate"]')!;
    expect(due.querySelector('[data-side="before"]')?.textContent).toContain('Tue Sep 30th, 2025');
    expect(due.querySelector('[data-side="after"]')?.textContent).toContain('Fri Oct 3rd, 2025');
  });

  it('falls back to view mode without a version to compare with', async () => {
    await renderForm({ mode: 'compare' });
    expect(document.querySelector('[data-mode="view"]')).not.toBeNull();
  });
});

describe('ItemForm over every built-in schema', () => {
  const schemas = BUILT_IN_MODEL.domains.flatMap((domain) => domain.schemas);
  it.each(schemas.map((schema) => [schema.name]))(
    'renders %s in view, edit and compare modes',
    async (name) => {
      const schema = BUILT_IN_MODEL.schema(name)!;
      const sample = SAMPLE_ITEMS[name];
      expect(sample).toBeDefined();
      for (const mode of ['view', 'edit', 'compare'] as const) {
        const { unmount } = await renderUi(
          <ItemForm
            schema={schema}
            value={sample.after}
            mode={mode}
            canEdit
            compareWith={{ label: 'Before', data: sample.before }}
            onSave={async () => {}}
          />,
        );
        const form = document.querySelector(`[data-item-form="${name}"]`);
        expect(form?.getAttribute('data-mode')).toBe(mode);
        expect(document.querySelectorAll('[data-field]').length).toBeGreaterThan(1);
        const nameRow = document.querySelector('[data-field="name"]')!;
        const shown = mode === 'edit' ? nameRow.querySelector('input')?.value : nameRow.textContent;
        expect(shown).toContain(String(sample.after.name));
        await unmount();
      }
    },
  );
});

describe('ItemForm drawing', () => {
  it('draws again only the field typed in, not the others', async () => {
    const draws = { other: 0 };
    const CountedField = (props: FieldProps) => {
      draws.other++;
      return <span>{String(props.value)}</span>;
    };
    const schema = defineSchema({
      name: 'note',
      title: 'Note',
      icon: 'file-text',
      topFields: [],
      fields: [
        { key: 'title', label: 'Title', type: 'text' },
        { key: 'done', label: 'Done', type: 'boolean' },
      ],
    });
    const changes: ItemData[] = [];
    await renderForm({
      schema,
      value: { title: 'A', done: true },
      fieldEditors: { boolean: CountedField },
      onDataChange: (data) => {
        changes.push(data);
      },
    });
    const drawnAtFirst = draws.other;
    await changeValue(byLabel('Title'), 'AB');
    await changeValue(byLabel('Title'), 'ABC');
    expect(changes.at(-1)).toMatchObject({ title: 'ABC', done: true });
    expect(draws.other).toBe(drawnAtFirst);
  });
});

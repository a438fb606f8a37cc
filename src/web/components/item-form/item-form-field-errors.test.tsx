import { BUILT_IN_MODEL } from '@shared/model/registry';
import { insertionErrors } from '@shared/media/insertion-rules';
import { click, waitFor } from '@web/test/render';
import { ApiError } from '@web/lib/api-client';
import type { ItemData } from '../fields/types';
import { errorsByField, fieldErrorsOf } from './field-errors';
import { ItemForm, type ItemFormProps } from './item-form';
import { bodyText, button, byLabel, changeValue, renderUi } from './test-utils';

const event = BUILT_IN_MODEL.schema('event')!;

const launch: ItemData = {
  name: 'Launch party',
  startTime: '2025-07-04T00:00:00.000Z',
  startTime_tz: 'America/New_York',
  endTime: '2025-07-04T04:00:00.000Z',
  endTime_tz: 'America/New_York',
  copy: [{ id: 'c1', schemaType: 'copy', label: 'Early bird' }],
};

const tooEarly = insertionErrors({ startTime: '2025-07-03T00:00:00.000Z' }, launch)[0];

/** What the item screens' onSave rejects with: the banner text, caused by the API's validation_failed answer. */
const rejected = () =>
  new Error(`Item update failed. Error: ${tooEarly}`, {
    cause: new ApiError(400, 'validation_failed', tooEarly, { errors: { 'copy.0': tooEarly } }),
  });

async function renderEvent(overrides: Partial<ItemFormProps> = {}) {
  const onSave = vi.fn<ItemFormProps['onSave']>(async () => {
    throw rejected();
  });
  await renderUi(
    <ItemForm schema={event} value={launch} mode="edit" canEdit onSave={onSave} {...overrides} />,
  );
  return { onSave };
}

const form = () => document.querySelector<HTMLElement>('[data-item-form]')!;
/** The message a Mantine input shows under itself (its wrapper's error). */
const fieldError = (label: string) =>
  byLabel(label).closest('.mantine-InputWrapper-root')?.querySelector('.mantine-InputWrapper-error')
    ?.textContent ?? null;

describe('field errors', () => {
  it('reads details.errors from the error or its cause, and shows list entries on the list field', () => {
    expect(fieldErrorsOf(rejected())).toEqual({ 'copy.0': tooEarly });
    expect(
      fieldErrorsOf(new ApiError(400, 'validation_failed', 'x', { errors: { name: 'Required' } })),
    ).toEqual({ name: 'Required' });
    expect(fieldErrorsOf(new Error('plain'))).toBeNull();
    expect(errorsByField({ 'copy.0': 'A.', 'copy.2': 'A.', 'images.1': 'B.', 'table.0.name': 'C.' })).toEqual(
      {
        copy: 'A.',
        images: 'B.',
        'table.0.name': 'C.',
      },
    );
  });
});

describe('ItemForm server field errors', () => {
  it("shows the server's message under the field, stays in edit mode, and clears it when that field is edited", async () => {
    const { onSave } = await renderEvent();
    await changeValue(byLabel('Name'), 'Launch party 2');
    await click(button('Save'));
    expect(onSave).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(fieldError('Copy')).toBe(tooEarly));
    expect(form().dataset.mode).toBe('edit');
    expect(bodyText()).toContain(`Item update failed. Error: ${tooEarly}`);

    // Editing another field keeps it; editing Copy clears it.
    await changeValue(byLabel('Name'), 'Launch party 3');
    expect(fieldError('Copy')).toBe(tooEarly);
    await click(byLabel('Remove Early bird'));
    expect(fieldError('Copy')).toBeNull();
  });

  it('Reset clears the server errors', async () => {
    await renderEvent();
    await changeValue(byLabel('Name'), 'Launch party 2');
    await click(button('Save'));
    await waitFor(() => expect(fieldError('Copy')).toBe(tooEarly));
    await click(button('Reset'));
    expect(fieldError('Copy')).toBeNull();
  });

  it('shows what validateAsync finds while editing, on the list field', async () => {
    const validateAsync = vi.fn<NonNullable<ItemFormProps['validateAsync']>>(
      async (_schema, data): Promise<Record<string, string>> =>
        Array.isArray(data.copy) && data.copy.length > 0 ? { 'copy.0': tooEarly } : {},
    );
    await renderEvent({ validateAsync });
    await waitFor(() => expect(fieldError('Copy')).toBe(tooEarly));
    expect(validateAsync).toHaveBeenCalledWith(event, expect.objectContaining({ name: 'Launch party' }));
    await click(byLabel('Remove Early bird'));
    await waitFor(() => expect(fieldError('Copy')).toBeNull());
  });
});

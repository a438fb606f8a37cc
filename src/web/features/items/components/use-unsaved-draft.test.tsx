import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BUILT_IN_MODEL } from '@shared/model/registry';
import { ItemForm } from '@web/components/item-form/item-form';
import {
  bodyText,
  button,
  byLabel,
  changeValue,
  queryButton,
  renderUi,
} from '@web/components/item-form/test-utils';
import { click } from '@web/test/render';
import { act } from 'react';
import { itemDraftKey, keepItemDraft, readItemDraft } from '@web/lib/item-drafts';
import { UnsavedDraftOffer } from './unsaved-draft-offer';
import { useUnsavedDraft } from './use-unsaved-draft';

const schema = BUILT_IN_MODEL.schema('client-task')!;
const key = itemDraftKey('acme', 'client-task', 'task1');

/** What the test changes of the item screen's live state: edit mode, the lock, the stored version. */
let setScreen: (next: Partial<ScreenState>) => void = () => {};
interface ScreenState {
  editing: boolean;
  lockLost: boolean;
  lockFree: boolean;
  storedVersion: number;
}

const onSave = vi.fn(async (_data: Record<string, unknown>, _base: number | undefined) => {});

/** The item screen's draft wiring (as the single item route has it) over a real form. */
function Screen() {
  const [state, setState] = useState<ScreenState>({
    editing: false,
    lockLost: false,
    lockFree: true,
    storedVersion: 2,
  });
  setScreen = (next) => setState((previous) => ({ ...previous, ...next }));
  const live = {
    editing: state.editing,
    lockLost: state.lockLost,
    edit: async () => {
      setState((previous) => ({ ...previous, editing: previous.lockFree }));
      return state.lockFree;
    },
  };
  const draft = useUnsavedDraft('acme', 'client-task', 'task1', live, state.storedVersion);
  return (
    <>
      {draft.offer && (
        <UnsavedDraftOffer
          draft={draft.offer}
          storedVersion={state.storedVersion}
          canEdit
          onRestore={() => void draft.restore()}
          onDiscard={draft.discard}
        />
      )}
      <ItemForm
        key={draft.restored?.savedAt ?? ''}
        schema={schema}
        value={{ name: 'Send report' }}
        initialData={draft.restored?.data}
        onDataChange={draft.noteData}
        mode={state.editing ? 'edit' : 'view'}
        onModeChange={(mode) => setState((previous) => ({ ...previous, editing: mode === 'edit' }))}
        canEdit
        onSave={(data) => onSave(data, draft.baseVersion).then(draft.saved)}
      />
    </>
  );
}

const change = (next: Partial<ScreenState>) => act(async () => setScreen(next));

describe('unsaved edits kept when the edit lock is lost', () => {
  beforeEach(() => {
    localStorage.clear();
    onSave.mockClear();
  });
  afterEach(() => localStorage.clear());

  it('keeps nothing while the lock is held', async () => {
    await renderUi(<Screen />);
    await change({ editing: true });
    await changeValue(byLabel('Name'), 'Send the Q3 report');
    expect(readItemDraft(key)).toBeNull();
    expect(bodyText()).not.toContain('Restore your unsaved changes');
  });

  it('keeps the edits once the lock is lost, and the later ones too, without offering them while editing', async () => {
    await renderUi(<Screen />);
    await change({ editing: true });
    await changeValue(byLabel('Name'), 'Send the Q3 report');
    await change({ lockLost: true });
    expect(readItemDraft(key)).toMatchObject({ version: 2, data: { name: 'Send the Q3 report' } });
    await changeValue(byLabel('Name'), 'Send the Q4 report');
    expect(readItemDraft(key)?.data).toMatchObject({ name: 'Send the Q4 report' });
    expect(bodyText()).not.toContain('Restore your unsaved changes');
  });

  it('offers kept edits when the item is opened; restored, they are in the form in edit mode and saved on their version', async () => {
    keepItemDraft(key, 2, { name: 'Send the Q3 report' });
    await renderUi(<Screen />);
    expect(bodyText()).toContain('Restore your unsaved changes from');
    expect(bodyText()).toContain('kept in this browser');
    await click(button('Restore'));
    expect(byLabel('Name').value).toBe('Send the Q3 report');
    expect(bodyText()).not.toContain('Restore your unsaved changes');
    await click(button('Save'));
    expect(onSave).toHaveBeenCalledWith(expect.objectContaining({ name: 'Send the Q3 report' }), 2);
    expect(readItemDraft(key)).toBeNull();
    expect(bodyText()).not.toContain('Restore your unsaved changes');
  });

  it('restores edits made on an older version on that version, so the save meets the version check', async () => {
    keepItemDraft(key, 1, { name: 'Send the Q3 report' });
    await renderUi(<Screen />);
    expect(bodyText()).toContain('made on version 1');
    await click(button('Restore'));
    await click(button('Save'));
    expect(onSave).toHaveBeenCalledWith(expect.anything(), 1);
  });

  it('a refused save keeps the draft; leaving edit mode offers it again', async () => {
    keepItemDraft(key, 1, { name: 'Send the Q3 report' });
    onSave.mockRejectedValueOnce(new Error('Item update failed. Error: Version conflict'));
    await renderUi(<Screen />);
    await click(button('Restore'));
    await click(button('Save'));
    expect(bodyText()).toContain('Version conflict');
    expect(readItemDraft(key)).not.toBeNull();
    await change({ editing: false });
    expect(bodyText()).toContain('Restore your unsaved changes');
    expect(bodyText()).toContain('Send report');
  });

  it('does not restore when another editor holds the lock', async () => {
    keepItemDraft(key, 2, { name: 'Send the Q3 report' });
    await renderUi(<Screen />);
    await change({ lockFree: false });
    await click(button('Restore'));
    expect(queryButton('Save')).toBeNull();
    expect(bodyText()).toContain('Restore your unsaved changes');
  });

  it('Discard forgets the kept edits', async () => {
    keepItemDraft(key, 2, { name: 'Send the Q3 report' });
    await renderUi(<Screen />);
    await click(button('Discard'));
    expect(readItemDraft(key)).toBeNull();
    expect(bodyText()).not.toContain('Restore your unsaved changes');
    expect(bodyText()).toContain('Send report');
  });

  it('reads only well-formed drafts', () => {
    localStorage.setItem(key, '{');
    expect(readItemDraft(key)).toBeNull();
    localStorage.setItem(key, JSON.stringify({ savedAt: 'x', data: {} }));
    expect(readItemDraft(key)).toBeNull();
  });
});

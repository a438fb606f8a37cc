import { useCallback } from 'react';
import type { Item } from '@shared/api/items';
import type { Workspace } from '@shared/api/workspaces';
import type { SchemaType } from '@shared/schemas/types';
import type { ItemData } from '@web/components/fields/types';
import { ItemForm } from '@web/components/item-form/item-form';
import { ItemConflictAlert } from './conflict-alert';
import { ItemLiveNotices } from './item-live-notices';
import { ModelChangeNotice, useFormDirty } from './model-change-notice';
import { UnsavedDraftOffer } from './unsaved-draft-offer';
import type { ItemLive } from './use-item-live';
import { formLocales, useItemFormEnvironment } from './use-item-form-environment';
import type { UnsavedDraft } from './use-unsaved-draft';

/**
 * The item form with what working together adds above it: who else is here and who edits, writes made
 * elsewhere (a deleted item stays shown, read-only), edits kept from a lost lock, a refused save, and a
 * content model that changed under the form.
 */
export function ItemLiveForm({
  workspace,
  schema,
  item,
  live,
  draft,
  locale,
  onLocaleChange,
  conflict,
  formKey,
  onSave,
  onReload,
  onDataChange,
}: {
  workspace: Workspace;
  schema: SchemaType;
  item: Item;
  live: ItemLive;
  draft: UnsavedDraft;
  /** The locale the form shows (comparisons open in it), and its changes. */
  locale: string | undefined;
  onLocaleChange: (locale: string) => void;
  /** A save was refused as out of date. */
  conflict: boolean;
  /** A new key shows the stored version afresh. */
  formKey: number;
  onSave: (data: ItemData) => Promise<void>;
  onReload: () => void;
  /** Told the form's values whenever they change (the preview pane shows them). */
  onDataChange?: (data: ItemData) => void;
}) {
  const environment = useItemFormEnvironment(workspace);
  const isDeleted = live.deleted !== null;
  const locales = formLocales(workspace, schema.name);
  const { noteData } = draft;
  const noteAndShare = useCallback(
    (data: ItemData, isDirty: boolean) => {
      noteData(data, isDirty);
      onDataChange?.(data);
    },
    [noteData, onDataChange],
  );
  const { dirty, handleDataChange } = useFormDirty(noteAndShare);
  return (
    <>
      <ItemLiveNotices
        ws={workspace.id}
        schema={schema}
        item={item}
        live={live}
        onReload={onReload}
        locales={locales}
        locale={locale}
      />
      {draft.offer && (
        <UnsavedDraftOffer
          draft={draft.offer}
          storedVersion={item.version}
          canEdit={item.abilities.canEdit && !isDeleted}
          onRestore={() => void draft.restore()}
          onDiscard={draft.discard}
        />
      )}
      {conflict && <ItemConflictAlert onReload={onReload} />}
      <ModelChangeNotice version={environment.model.version} schema={schema} dirty={dirty} />
      <ItemForm
        key={`${formKey}/${draft.restored?.savedAt ?? ''}`}
        schema={schema}
        value={item.data}
        initialData={draft.restored?.data}
        onDataChange={handleDataChange}
        hasBeenPublished={Object.keys(item.published).length > 0}
        mode={live.mode}
        onModeChange={live.handleModeChange}
        canEdit={item.abilities.canEdit && (!isDeleted || live.editing)}
        readOnlyReason={isDeleted ? 'Read-only: this item was deleted' : undefined}
        locales={locales}
        initialLocale={locale}
        onLocaleChange={onLocaleChange}
        onSave={(data) => onSave(data).then(draft.saved)}
        {...environment}
      />
    </>
  );
}

import { useEffect, useId, useMemo, useState, type ComponentType } from 'react';
import { Alert, Box, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconAlertTriangle } from '@tabler/icons-react';
import { isLocalized, LOCALES_KEY } from '@shared/locales/locales';
import { validateLocalizedItem } from '@shared/locales/validate';
import { sameValue } from '@shared/schemas/compare';
import { BUILT_IN_MODEL, type ContentModel } from '@shared/model/registry';
import { isFieldVisible } from '@shared/schemas/display-if';
import type { FieldDef, FieldType, SchemaType } from '@shared/schemas/types';
import { workspaceTimezones } from '@shared/time/format';
import { decideSave, formActions } from '@shared/validation/form-actions';
import {
  CANCEL_CONFIRM_MESSAGE,
  CANCEL_CONFIRM_TITLE,
  INCOMPLETE_ITEM_MESSAGE,
} from '@shared/validation/messages';
import { fixedNameSlugs } from '@shared/validation/name-slug';
import type { ValidationErrors } from '@shared/validation/validate-item';
import { useStableCallback } from '@web/lib/use-stable-callback';
import { FieldEnvironmentContext, schemaOptionsOf } from '../fields/field-environment';
import { useQuickViewLevel } from '../quick-view/quick-view-level';
import { FieldInput } from '../fields/field-input';
import type { FieldEnvironment, FieldProps, ItemData, ReferenceSearch } from '../fields/types';
import { CompareView } from './compare-view';
import { errorKey, errorsByField, fieldErrorsOf, withoutFields } from './field-errors';
import { FieldRow } from './field-row';
import { ItemFieldRow } from './item-field-row';
import { ItemFormToolbar } from './item-form-toolbar';
import {
  canEditLocale,
  LocaleBar,
  localePathPrefix,
  localeScope,
  localeStatus,
  LocaleStatusBadge,
  patchLocaleData,
  type FormLocales,
} from './item-locales';
import {
  patchItemData,
  prepareItemData,
  renamedBetween,
  withoutRemovedFields,
  withRenamedFields,
} from './prepare-item-data';

export type ItemFormMode = 'view' | 'edit' | 'compare';

export interface ItemFormProps {
  schema: SchemaType;
  /** The workspace's content model, which `schema` is part of (the built-in one when missing). */
  model?: ContentModel;
  /** The item's stored data (for a new item, `{}`). */
  value: ItemData;
  /** Values the form starts from instead of `value`'s (unsaved edits restored); `value` stays what Reset returns to. */
  initialData?: ItemData;
  /** Told the form's values whenever they change, and whether they differ from the stored data. */
  onDataChange?: (data: ItemData, dirty: boolean) => void;
  /** A new item, not saved yet: its empty fields are not an incomplete item. */
  isNew?: boolean;
  /** The item has been published in some stage: its name-slugs no longer follow the name. */
  hasBeenPublished?: boolean;
  mode: ItemFormMode;
  /** False for users who cannot edit the schema (spec §6): the form stays read-only. */
  canEdit: boolean;
  /** Why the form is read-only, when not for the user's rights (the toolbar's text). */
  readOnlyReason?: string;
  /** Compare mode: the other version, shown on the left; `value` is shown on the right. */
  compareWith?: { label: string; data: ItemData };
  /** Heading of `value` in compare mode. */
  valueLabel?: string;
  /** The workspace's basics.timezones; the spec's defaults when missing or empty. */
  timezones?: readonly string[];
  /**
   * Stores the data; `hasErrors` asks for the item to be stored with `__hasErrors`. Reject to stay in edit
   * mode with the error's message; an error (or its `cause`) carrying `details.errors` (path → message, as
   * the API's validation_failed answers) also shows each message under its field until that field is edited.
   */
  onSave: (data: ItemData, meta: { hasErrors: boolean }) => Promise<void>;
  /** After Cancel (confirmed when there were unsaved changes). */
  onCancel?: () => void;
  onModeChange?: (mode: ItemFormMode) => void;
  referenceSearch?: ReferenceSearch;
  /**
   * Checks that need the server's data (spec §5 insertion rules), run in edit mode whenever the data
   * changes: resolves path → message ('copy.0' is shown on 'copy'). Shown as the user edits; Save is not blocked.
   */
  validateAsync?: (schema: SchemaType, data: ItemData) => Promise<ValidationErrors>;
  thumbnailUrl?: (thumbId: string) => string;
  generateTypes?: (schemaName: string) => Promise<string>;
  schemaOptions?: readonly { value: string; label: string }[];
  /** Replacement editors per field type (rich text, criteria, files, …), from the screen. */
  fieldEditors?: Partial<Record<FieldType, ComponentType<FieldProps>>>;
  /**
   * The workspace's locales, when it has some: a schema with localised fields (`schema.locales`) then
   * offers a locale switcher and a side-by-side view.
   */
  locales?: FormLocales;
  /** The locale shown first (the default, or a locale-limited editor's first, when missing or unknown). */
  initialLocale?: string;
  /** The user picked another locale to show. */
  onLocaleChange?: (tag: string) => void;
}

/** Fields in form order: the schema's topFields first, then the rest in schema order. */
export function orderedFields(schema: Pick<SchemaType, 'fields' | 'topFields'>): FieldDef[] {
  const top = schema.topFields
    .map((key) => schema.fields.find((field) => field.key === key))
    .filter((field): field is FieldDef => !!field);
  return [...top, ...schema.fields.filter((field) => !schema.topFields.includes(field.key))];
}

function useSyncedState<T>(source: T, same: (a: T, b: T) => boolean = Object.is) {
  const [seen, setSeen] = useState(source);
  const changed = !same(seen, source);
  if (changed) setSeen(source);
  return changed;
}

/**
 * The form's data and the stored data it started from (`baseline`); new stored data replaces both
 * unless the user has changes. A new shape of the schema (its content model changed) keeps the user's
 * values, under their new keys for fields renamed, less those of fields it no longer has.
 */
function useItemDraft({ schema, model, value, initialData, onDataChange }: ItemFormProps) {
  const [prepared, setPrepared] = useState(() => prepareItemData(schema, value));
  const [baseline, setBaseline] = useState<ItemData>(prepared.data);
  const [data, setData] = useState<ItemData>(initialData ?? prepared.data);
  const [shapedBy, setShapedBy] = useState({ schema, model });
  if (shapedBy.schema !== schema) {
    setShapedBy({ schema, model });
    const renames = renamedBetween(shapedBy.model, model, schema.name);
    const reshape = (previous: ItemData) =>
      withoutRemovedFields(shapedBy.schema, schema, withRenamedFields(renames, previous));
    setBaseline(reshape);
    setData(reshape);
  }
  const dirty = !sameValue(baseline, data);
  useEffect(() => {
    onDataChange?.(data, dirty);
  }, [onDataChange, data, dirty]);
  if (useSyncedState(value, sameValue) && !dirty) {
    const next = prepareItemData(schema, value);
    setPrepared(next);
    setBaseline(next.data);
    setData(next.data);
  }
  return { prepared, baseline, setBaseline, data, setData, dirty };
}

/** Leaves at once without unsaved changes; asks first with them. */
function confirmLeaving(dirty: boolean, leave: () => void) {
  if (!dirty) return leave();
  modals.openConfirmModal({
    title: CANCEL_CONFIRM_TITLE,
    children: <Text size="sm">{CANCEL_CONFIRM_MESSAGE}</Text>,
    labels: { confirm: 'YES', cancel: 'NO' },
    confirmProps: { color: 'red' },
    centered: true,
    onConfirm: leave,
  });
}

/** What the fields need from outside the form: the workspace's zones and the API's helpers. */
function useItemFieldEnvironment(
  props: ItemFormProps,
  loadedDefaults: FieldEnvironment['loadedDefaults'],
): FieldEnvironment {
  const { schema, timezones, referenceSearch, thumbnailUrl, generateTypes, schemaOptions, fieldEditors } =
    props;
  const model = props.model ?? BUILT_IN_MODEL;
  // A quick view is little room: long read-only values are summed up there.
  const compactDisplay = useQuickViewLevel() > 0;
  return useMemo(
    () => ({
      schema,
      model,
      timezones: timezones?.length ? workspaceTimezones({ timezones }) : workspaceTimezones(),
      referenceSearch,
      thumbnailUrl,
      generateTypes,
      schemaOptions: schemaOptions ?? schemaOptionsOf(model),
      loadedDefaults,
      fieldEditors: fieldEditors ?? {},
      compactDisplay,
    }),
    [
      schema,
      model,
      timezones,
      referenceSearch,
      thumbnailUrl,
      generateTypes,
      schemaOptions,
      fieldEditors,
      loadedDefaults,
      compactDisplay,
    ],
  );
}

const keepIfSame = (previous: ValidationErrors, next: ValidationErrors) =>
  sameValue(previous, next) ? previous : next;

/** Server-backed checks follow the data while editing; an answer for data since replaced is dropped. */
function useAsyncErrors(
  editing: boolean,
  validateAsync: ItemFormProps['validateAsync'],
  schema: SchemaType,
  data: ItemData,
): ValidationErrors {
  const [asyncErrors, setAsyncErrors] = useState<ValidationErrors>({});
  useEffect(() => {
    if (!editing || !validateAsync) return;
    let current = true;
    validateAsync(schema, data).then(
      // The same messages keep the same object: the form is not drawn again for them.
      (found) => {
        if (current) setAsyncErrors((previous) => keepIfSame(previous, errorsByField(found)));
      },
      () => {
        if (current) setAsyncErrors((previous) => keepIfSame(previous, {}));
      },
    );
    return () => {
      current = false;
    };
  }, [editing, validateAsync, schema, data]);
  return asyncErrors;
}

/** How the fields show a locale: the one edited, its settings and whether the default sits beside it. */
interface LocaleView {
  locales: FormLocales;
  locale: string;
  sideBySide: boolean;
}

/** One localised field in a non-default locale: its status, and the default's value beside it when asked. */
function LocalizedFieldRow({
  formId,
  field,
  data,
  scope,
  editing,
  errors,
  view,
  onPatch,
}: {
  formId: string;
  field: FieldDef;
  data: ItemData;
  /** The data with each localised field holding the shown locale's value. */
  scope: ItemData;
  editing: boolean;
  errors: ValidationErrors;
  view: LocaleView;
  onPatch: (patch: Readonly<ItemData>, tag: string) => void;
}) {
  const { locales, locale } = view;
  const editable = editing && canEditLocale(locales, locale);
  const inputId = `${formId}-${locale}-${field.key}`;
  // Required in another locale only where the workspace says so.
  const required = field.requiredInLocales?.includes(locale) === true;
  const labelled = { ...field, label: `${field.label} (${locale})`, required } as FieldDef;
  const input = (
    <FieldInput
      field={labelled}
      scope={scope}
      onPatch={(patch) => onPatch(patch, locale)}
      readOnly={!editable}
      errors={errors}
      pathPrefix={localePathPrefix(locales, locale)}
      inputId={inputId}
    />
  );
  return (
    <FieldRow
      field={labelled}
      inputId={inputId}
      editing={editable}
      status={<LocaleStatusBadge status={localeStatus(data, field.key, locale, locales)} />}
    >
      {view.sideBySide ? (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" data-side-by-side>
          <Box aria-label={`${field.label} (${locales.default})`} role="group">
            <Text size="xs" c="dimmed">
              {locales.default}
            </Text>
            <FieldInput field={field} scope={data} onPatch={() => {}} readOnly errors={{}} />
          </Box>
          <Box>
            <Text size="xs" c="dimmed">
              {locale}
            </Text>
            {input}
          </Box>
        </SimpleGrid>
      ) : (
        input
      )}
    </FieldRow>
  );
}

/** The visible fields of the item, each in its labelled row; localised ones in the locale shown. */
function ItemFormFields({
  formId,
  schema,
  data,
  editing,
  errors,
  onPatch,
  localeView,
}: {
  formId: string;
  schema: SchemaType;
  data: ItemData;
  editing: boolean;
  errors: ValidationErrors;
  /** With `tag`: a patch of that locale's values. */
  onPatch: (patch: Readonly<ItemData>, tag?: string) => void;
  localeView?: LocaleView;
}) {
  const visibleFields = orderedFields(schema).filter((field) => isFieldVisible(field, data));
  const inDefault = !localeView || localeView.locale === localeView.locales.default;
  const scope = inDefault ? data : localeScope(schema, data, localeView.locale);
  return (
    <Paper p={{ base: 'sm', sm: 'lg' }} radius="md">
      <Stack gap="sm">
        {visibleFields.map((field) => {
          if (localeView && !inDefault && isLocalized(field))
            return (
              <LocalizedFieldRow
                key={field.key}
                formId={formId}
                field={field}
                data={data}
                scope={scope}
                editing={editing}
                errors={errors}
                view={localeView}
                onPatch={onPatch}
              />
            );
          const inputId = `${formId}-${field.key}`;
          // A locale-limited editor edits only its locales' values: never the shared fields.
          const editable =
            editing &&
            (!localeView ||
              (isLocalized(field)
                ? canEditLocale(localeView.locales, localeView.locales.default)
                : !localeView.locales.editable));
          return (
            <ItemFieldRow
              key={field.key}
              field={field}
              scope={data}
              onPatch={onPatch}
              readOnly={!editable}
              editing={editable}
              errors={errors}
              inputId={inputId}
            />
          );
        })}
      </Stack>
    </Paper>
  );
}

/** The mode shown: the one asked for (by the parent or the toolbar), when the item allows it. */
function useItemFormMode({
  mode: modeProp,
  compareWith,
  canEdit,
  onModeChange,
}: Pick<ItemFormProps, 'mode' | 'compareWith' | 'canEdit' | 'onModeChange'>) {
  const [requestedMode, setRequestedMode] = useState<ItemFormMode>(modeProp);
  // A new mode from the parent wins.
  if (useSyncedState(modeProp)) setRequestedMode(modeProp);
  const mode: ItemFormMode =
    requestedMode === 'compare' && compareWith
      ? 'compare'
      : requestedMode === 'edit' && canEdit
        ? 'edit'
        : 'view';
  const changeMode = (next: ItemFormMode) => {
    setRequestedMode(next);
    onModeChange?.(next);
  };
  return { mode, changeMode };
}

/**
 * The errors shown while editing: the form's own on the fields the user touched (all of them after a
 * refused Save), the server-backed checks, and the last save's field errors until their field is edited.
 */
function useShownErrors({
  editing,
  errors,
  asyncErrors,
}: {
  editing: boolean;
  errors: ValidationErrors;
  /** Undefined when the screen has no server-backed checks. */
  asyncErrors: ValidationErrors | undefined;
}) {
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [showAllErrors, setShowAllErrors] = useState(false);
  const [serverErrors, setServerErrors] = useState<ValidationErrors>({});

  const shownErrors: ValidationErrors = useMemo(() => {
    if (!editing) return {};
    const own = showAllErrors
      ? errors
      : Object.fromEntries(Object.entries(errors).filter(([path]) => touched.has(errorKey(path))));
    return { ...asyncErrors, ...serverErrors, ...own };
  }, [editing, showAllErrors, errors, touched, asyncErrors, serverErrors]);

  const touch = (keys: string[]) => {
    setTouched((previous) =>
      keys.every((key) => previous.has(key)) ? previous : new Set([...previous, ...keys]),
    );
    setServerErrors((previous) => withoutFields(previous, keys));
  };
  const forget = () => {
    setTouched(new Set());
    setShowAllErrors(false);
    setServerErrors({});
  };
  const showAll = () => setShowAllErrors(true);
  return { shownErrors, showAllErrors, showAll, touch, forget, setServerErrors };
}

/** The incomplete-item banner and the last save's error. */
function ItemFormNotices({
  incomplete,
  saveError,
  onDismissSaveError,
}: {
  incomplete: boolean;
  saveError: string | null;
  onDismissSaveError: () => void;
}) {
  return (
    <>
      {incomplete && (
        <Alert
          color="yellow"
          variant="light"
          icon={<IconAlertTriangle size={18} />}
          data-testid="incomplete-banner"
        >
          {INCOMPLETE_ITEM_MESSAGE}
        </Alert>
      )}
      {saveError && (
        <Alert color="red" variant="light" withCloseButton onClose={onDismissSaveError} role="alert">
          {saveError}
        </Alert>
      )}
    </>
  );
}

/**
 * What the schema's rules say of the draft: its errors, whether Save and Reset are offered, whether Save
 * is blocked, and whether the stored item is incomplete.
 */
function useItemValidation({
  schema,
  data,
  baseline,
  dirty,
  editing,
  isSaved,
}: {
  schema: SchemaType;
  data: ItemData;
  baseline: ItemData;
  dirty: boolean;
  editing: boolean;
  isSaved: boolean;
}) {
  const allowSaveWithErrors = schema.allowSaveWithErrors === true;
  const errors = useMemo(() => validateLocalizedItem(schema, data), [schema, data]);
  const valid = Object.keys(errors).length === 0;
  const { canSave, canReset } = formActions({ dirty, valid, allowSaveWithErrors });
  const blocked = editing && dirty && !valid && !allowSaveWithErrors;
  // The banner speaks of the stored item (spec §5): shown once it was saved with errors, not while a
  // new item is still being filled in.
  const isStoredIncomplete = useMemo(
    () => allowSaveWithErrors && isSaved && Object.keys(validateLocalizedItem(schema, baseline)).length > 0,
    [allowSaveWithErrors, isSaved, schema, baseline],
  );
  return { errors, canSave, canReset, blocked, isStoredIncomplete };
}

/** The locale a form opens in: the one asked for, the default, or a locale-limited editor's first. */
const firstLocale = (locales: FormLocales | undefined, initial: string | undefined) =>
  locales && initial && (initial === locales.default || locales.others.includes(initial))
    ? initial
    : !locales || canEditLocale(locales, locales.default)
      ? (locales?.default ?? '')
      : (locales.editable?.find((tag) => locales.others.includes(tag)) ?? locales.default);

/** A patch of the default locale's values and shared fields, or (with `tag`) of one other locale's values. */
const patchDraft = (
  schema: SchemaType,
  previous: ItemData,
  patch: Readonly<ItemData>,
  fixedSlugs: ReadonlySet<string>,
  tag?: string,
) =>
  tag ? patchLocaleData(schema, previous, tag, patch) : patchItemData(schema, previous, patch, fixedSlugs);

/** The locale the fields show and whether the default sits beside it; the locale bar's props. */
function useShownLocale(
  locales: FormLocales | undefined,
  { initialLocale, onLocaleChange }: Pick<ItemFormProps, 'initialLocale' | 'onLocaleChange'>,
) {
  // Asked for or picked; a comparison also shows a locale only its versions hold (removed since).
  const [picked, setPicked] = useState(initialLocale);
  const locale = firstLocale(locales, picked);
  const [sideBySide, setSideBySide] = useState(false);
  const changeLocale = (tag: string) => {
    setPicked(tag);
    onLocaleChange?.(tag);
  };
  return {
    view: locales && { locales, locale, sideBySide: sideBySide && locale !== locales.default },
    compare: { locales, initialLocale: picked ?? locale, onLocaleChange: changeLocale },
    bar: locales && {
      locales,
      locale,
      onLocaleChange: changeLocale,
      sideBySide,
      onSideBySideChange: setSideBySide,
    },
  };
}

/** The name-slugs that no longer follow the name (stored ones, once published). */
function useFixedSlugs(schema: SchemaType, baseline: ItemData, hasBeenPublished: boolean) {
  return useMemo(
    () => fixedNameSlugs(schema.fields, baseline, hasBeenPublished),
    [schema.fields, baseline, hasBeenPublished],
  );
}

/**
 * The item form (spec §2, §4, §5): view, edit and compare modes over a schema's fields. Edit offers
 * Save (only when dirty and valid, or when the schema allows saving with errors), Reset (only when
 * dirty) and Cancel (confirmed when there are unsaved changes); view offers Edit to those who may.
 */
export function ItemForm(props: ItemFormProps) {
  const { schema, canEdit, compareWith, onSave, onCancel, validateAsync } = props;
  const formId = useId();
  const { prepared, baseline, setBaseline, data, setData, dirty } = useItemDraft(props);
  const { mode, changeMode } = useItemFormMode(props);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [isSaved, setSaved] = useState(!props.isNew);

  const editing = mode === 'edit';
  const shown = useShownLocale(schema.locales ? props.locales : undefined, props);
  const validation = useItemValidation({ schema, data, baseline, dirty, editing, isSaved });
  const { errors } = validation;

  const asyncErrors = useAsyncErrors(editing, validateAsync, schema, data);
  const feedback = useShownErrors({ editing, errors, asyncErrors: validateAsync ? asyncErrors : undefined });
  const environment = useItemFieldEnvironment(props, prepared.loadedDefaults);

  const fixedSlugs = useFixedSlugs(schema, baseline, props.hasBeenPublished === true);

  // The same function on every render: the field rows are memoised.
  const handlePatch = useStableCallback((patch: Readonly<ItemData>, tag?: string) => {
    setData((previous) => patchDraft(schema, previous, patch, fixedSlugs, tag));
    feedback.touch(Object.keys(patch).map((key) => (tag ? `${LOCALES_KEY}.${tag}.${key}` : key)));
    setSaveError(null);
  });

  const resetForm = () => {
    setData(baseline);
    feedback.forget();
    setSaveError(null);
  };

  const handleSave = async () => {
    const decision = decideSave(errors, schema.allowSaveWithErrors === true);
    if (!decision.allowed) return feedback.showAll();
    setSaving(true);
    setSaveError(null);
    feedback.setServerErrors({});
    try {
      await onSave(data, { hasErrors: decision.hasErrors });
      setBaseline(data);
      setSaved(true);
      feedback.forget();
      changeMode('view');
    } catch (failure) {
      setSaveError(failure instanceof Error ? failure.message : String(failure));
      const fieldErrors = fieldErrorsOf(failure);
      if (fieldErrors) feedback.setServerErrors(errorsByField(fieldErrors));
    } finally {
      setSaving(false);
    }
  };

  const handleCancel = () =>
    confirmLeaving(dirty, () => {
      resetForm();
      changeMode('view');
      onCancel?.();
    });

  return (
    <FieldEnvironmentContext.Provider value={environment}>
      <Stack gap="md" data-item-form={schema.name} data-mode={mode}>
        <ItemFormToolbar
          schema={schema}
          mode={mode}
          canEdit={canEdit}
          readOnlyReason={props.readOnlyReason}
          dirty={dirty}
          blocked={validation.blocked}
          showAllErrors={feedback.showAllErrors}
          onShowAllErrors={feedback.showAll}
          actions={{ canSave: validation.canSave, canReset: validation.canReset, saving }}
          onModeChange={changeMode}
          onCancel={handleCancel}
          onReset={resetForm}
          onSave={handleSave}
        />
        <ItemFormNotices
          incomplete={validation.isStoredIncomplete && mode !== 'compare'}
          saveError={saveError}
          onDismissSaveError={() => setSaveError(null)}
        />
        {shown.bar && mode !== 'compare' && <LocaleBar {...shown.bar} />}
        {mode === 'compare' && compareWith ? (
          <CompareView
            schema={schema}
            fields={orderedFields(schema)}
            before={compareWith}
            after={{ label: props.valueLabel ?? 'Current version', data }}
            {...shown.compare}
          />
        ) : (
          <ItemFormFields
            formId={formId}
            schema={schema}
            data={data}
            editing={editing}
            errors={feedback.shownErrors}
            onPatch={handlePatch}
            localeView={shown.view}
          />
        )}
      </Stack>
    </FieldEnvironmentContext.Provider>
  );
}

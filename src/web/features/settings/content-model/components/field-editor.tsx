import { useState } from 'react';
import {
  Alert,
  Button,
  Fieldset,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm, type UseFormReturnType } from '@mantine/form';
import { IconInfoCircle, IconLock } from '@tabler/icons-react';
import { LOCALIZABLE_TYPES } from '@shared/locales/locales';
import type { ContentModelDoc, FieldOwner, ModelOp } from '@shared/model/types';
import { FIELD_TYPES, type FieldDef, type FieldType } from '@shared/schemas/types';
import { draftOf, fieldEditOps, fieldOf, keyFromLabel, type FieldDraft } from '../field-draft';
import { columnsWithOps } from '../change-set';
import { FIELD_TYPE_LABELS, TYPES_NOT_IN_COLUMNS, TYPES_NOT_OFFERED } from '../field-types';
import { FieldRules } from './field-rules';
import { changedKeys, FieldTable, type FieldAction } from './field-table';
import { FieldTypeOptions } from './field-type-options';
import { RefusalAlert } from './model-dialogs';
import { useDialog } from './use-dialog';

const KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_-]*$/;

export interface FieldEditorProps {
  owner: FieldOwner;
  /** How the owner is named in the title: 'Blog Post', 'Hero block'. */
  ownerTitle: string;
  /** The field edited; none for a new field. */
  field?: FieldDef;
  /** The owner's fields (the edited one included), for slug sources and display conditions. */
  fields: readonly FieldDef[];
  /** The pending model, for reference targets and block types. */
  model: ContentModelDoc;
  /** The model as applied, to mark the columns the pending operations change. */
  applied?: ContentModelDoc;
  /** The workspace's locales other than its default one. */
  otherLocales: readonly string[];
  /** Which input to focus first. */
  focus?: 'label' | 'key' | 'type';
  /** Adds the field's operations to the change set; answers why they cannot be made, if so. */
  onSubmit: (ops: ModelOp[]) => string | undefined;
  onClose: () => void;
}

const typeOptions = (isColumn: boolean, current?: FieldType) =>
  FIELD_TYPES.filter(
    (type) => type === current || !(isColumn ? TYPES_NOT_IN_COLUMNS : TYPES_NOT_OFFERED).includes(type),
  ).map((type) => ({ value: type, label: FIELD_TYPE_LABELS[type] }));

/** The owner's fields in the pending model, or the columns of its table. */
function fieldsOf(model: ContentModelDoc, owner: FieldOwner): readonly FieldDef[] {
  const holder =
    owner.blockType !== undefined
      ? model.blockTypes.find((blockType) => blockType.name === owner.blockType)
      : model.domains.flatMap((domain) => domain.schemas).find((schema) => schema.name === owner.schema);
  const fields = holder?.fields ?? [];
  if (owner.table === undefined) return fields;
  const table = fields.find((field) => field.key === owner.table);
  return table?.type === 'table' ? table.columns : [];
}

/**
 * A field's definition in a dialog: key, label, type and the options of that type. Saving adds the
 * operations that make the change (add, or rename, retype and update) to the pending change set.
 */
export function FieldEditor({
  owner,
  ownerTitle,
  field,
  fields,
  model,
  applied,
  otherLocales,
  focus = 'label',
  onSubmit,
  onClose,
}: FieldEditorProps) {
  const isNew = field === undefined;
  const isLocked = field?.locked === true;
  const [isKeyTouched, setKeyTouched] = useState(!isNew);
  const [refusal, setRefusal] = useState<string>();
  const [isColumnOpen, setColumnOpen] = useState(false);
  const form = useForm<FieldDraft>({
    mode: 'controlled',
    initialValues: draftOf(field),
    validate: {
      label: (value) => (value.trim() ? null : 'A field needs a label'),
      key: (value) =>
        KEY_PATTERN.test(value.trim())
          ? null
          : 'Letters, digits, _ or -, starting with a letter (for example seoDescription)',
    },
  });
  const siblings = fields.filter((other) => other.key !== field?.key);

  const handleLabelChange = (label: string) => {
    form.setFieldValue('label', label);
    if (!isKeyTouched) form.setFieldValue('key', keyFromLabel(label));
  };

  const handleSubmit = form.onSubmit((draft) => {
    const next = fieldOf(draft, siblings, field);
    const ops: ModelOp[] = field
      ? fieldEditOps(owner, field, next)
      : [{ op: 'addField', ...owner, field: next }];
    if (ops.length === 0) return onClose();
    const problem = onSubmit(ops);
    if (problem) setRefusal(problem);
    else onClose();
  });

  const isRetype = field !== undefined && form.values.type !== field.type;
  const isRename = field !== undefined && form.values.key.trim() !== field.key;
  const noun = owner.table === undefined ? 'field' : 'column';
  const title = isNew ? `New ${noun} in ${ownerTitle}` : `Edit ${noun} “${field.label}” of ${ownerTitle}`;

  return (
    <Modal
      opened
      onClose={onClose}
      // Escape closes only the column editor above this one.
      closeOnEscape={!isColumnOpen}
      title={<Text fw={650}>{title}</Text>}
      size={form.values.type === 'table' ? 'xl' : 'lg'}
    >
      <form
        onSubmit={(event) => {
          // A column editor's form is inside this one in React's tree, though not in the page's.
          event.stopPropagation();
          handleSubmit(event);
        }}
        noValidate
        aria-label={title}
      >
        <Stack gap="md">
          <ChangeNotes isLocked={isLocked} />
          <KeyAndType
            form={form}
            field={field}
            isColumn={owner.table !== undefined}
            focus={focus}
            onKeyTouched={() => setKeyTouched(true)}
            onLabelChange={handleLabelChange}
          />
          <ChangeNotes isRename={isRename} isRetype={isRetype} />
          <CommonOptions form={form} otherLocales={otherLocales} />
          <FieldTypeOptions form={form} siblings={siblings} model={model} isLocked={isLocked} />
          {form.values.type === 'table' && (
            <TableColumns
              form={form}
              onEditing={setColumnOpen}
              {...{ owner, field, model, applied, otherLocales, onSubmit }}
            />
          )}
          <FieldRules form={form} siblings={siblings} />
          <RefusalAlert message={refusal} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit">{isNew ? `Add ${noun}` : `Change ${noun}`}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** What the edit does to the field's values: none for a locked field, or moved and converted. */
function ChangeNotes({
  isLocked = false,
  isRename = false,
  isRetype = false,
}: {
  isLocked?: boolean;
  isRename?: boolean;
  isRetype?: boolean;
}) {
  if (isLocked)
    return (
      <Alert variant="light" color="gray" icon={<IconLock size={18} />}>
        Marquee relies on this field: its key, its type and what its values are stay as they are.
      </Alert>
    );
  if (!isRename && !isRetype) return null;
  return (
    <Alert variant="light" color="blue" icon={<IconInfoCircle size={18} />}>
      {isRename && 'Existing values move to the new key. '}
      {isRetype &&
        'Existing values are converted to the new type; any that cannot be are listed in this change’s details under History.'}
    </Alert>
  );
}

/** The options every field type has. */
function CommonOptions({
  form,
  otherLocales,
}: {
  form: UseFormReturnType<FieldDraft>;
  otherLocales: readonly string[];
}) {
  const isLocalizable = LOCALIZABLE_TYPES.includes(form.values.type);
  return (
    <Fieldset legend="Options" variant="filled">
      <Stack gap="sm">
        <Switch
          label="Required"
          description="An item with this field empty is incomplete"
          {...form.getInputProps('required', { type: 'checkbox' })}
        />
        <TextInput
          label="Description"
          description="Help shown under the field in the item form"
          {...form.getInputProps('description')}
        />
        <NumberInput
          label="Label width"
          description="Grid columns of the label, 1 to 12 (12 puts it above the input)"
          placeholder="5"
          min={1}
          max={12}
          allowDecimal={false}
          {...form.getInputProps('labelWidth')}
        />
        {isLocalizable && (
          <Switch
            label="Localized"
            description="One value per locale"
            {...form.getInputProps('localized', { type: 'checkbox' })}
          />
        )}
        {isLocalizable && form.values.localized && otherLocales.length > 0 && (
          <MultiSelect
            label="Also required in"
            placeholder="Choose locales"
            description="Locales besides the default one that must have a value"
            data={[...otherLocales]}
            {...form.getInputProps('requiredInLocales')}
          />
        )}
      </Stack>
    </Fieldset>
  );
}

function KeyAndType({
  form,
  field,
  isColumn,
  focus,
  onKeyTouched,
  onLabelChange,
}: {
  form: UseFormReturnType<FieldDraft>;
  field?: FieldDef;
  isColumn: boolean;
  focus: FieldEditorProps['focus'];
  onKeyTouched: () => void;
  onLabelChange: (label: string) => void;
}) {
  const isLocked = field?.locked === true;
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Label"
          description="What editors see beside the input"
          required
          data-autofocus={focus === 'label' || undefined}
          {...form.getInputProps('label')}
          onChange={(event) => onLabelChange(event.currentTarget.value)}
        />
        <TextInput
          label="Key"
          required
          description="The field's name in item data and the API"
          disabled={isLocked}
          data-autofocus={focus === 'key' || undefined}
          {...form.getInputProps('key')}
          onChange={(event) => {
            onKeyTouched();
            form.setFieldValue('key', event.currentTarget.value);
          }}
        />
      </SimpleGrid>
      <Select
        label="Type"
        data={typeOptions(isColumn, field?.type)}
        searchable
        allowDeselect={false}
        disabled={isLocked}
        data-autofocus={focus === 'type' || undefined}
        {...form.getInputProps('type')}
      />
    </>
  );
}

/**
 * A table's columns, each edited in a nested field editor. The columns of a table in the model change
 * at once by column operations (`table: key`) added to the change set; a new table, or a field becoming
 * one, keeps them in the draft and carries them in its own operation.
 */
function TableColumns({
  owner,
  form,
  field,
  model,
  applied,
  otherLocales,
  onSubmit,
  onEditing,
}: {
  owner: FieldOwner;
  form: UseFormReturnType<FieldDraft>;
  field?: FieldDef;
  model: ContentModelDoc;
  applied?: ContentModelDoc;
  otherLocales: readonly string[];
  onSubmit: (ops: ModelOp[]) => string | undefined;
  onEditing: (isEditing: boolean) => void;
}) {
  const [editing, openEditor, closeEditor] = useDialog<FieldAction>();
  const setEditing = (action: FieldAction | undefined) => {
    if (action) openEditor(action);
    else closeEditor();
    onEditing(action !== undefined);
  };
  const [refusal, setRefusal] = useState<string>();
  const isInModel = field?.type === 'table';
  const tableKey = isInModel ? field.key : form.values.key.trim() || 'table';
  const columnOwner: FieldOwner = { ...owner, table: tableKey };
  const columns = isInModel ? fieldsOf(model, columnOwner) : form.values.columns;
  const isReadOnly = field?.locked === true || owner.table !== undefined;
  const tableTitle = form.values.label.trim() || 'the table';
  const isApplied = applied && isInModel && fieldsOf(applied, owner).some((f) => f.key === tableKey);
  const appliedColumns = isApplied ? fieldsOf(applied, columnOwner) : undefined;

  const change = (ops: ModelOp[]): string | undefined => {
    if (isInModel) return onSubmit(ops);
    try {
      const table = { key: tableKey, label: tableTitle, type: 'table', columns } as FieldDef;
      form.setFieldValue('columns', columnsWithOps(table, ops));
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  };
  const act = (ops: ModelOp[]) => setRefusal(change(ops));

  return (
    <Fieldset legend="Columns" variant="filled">
      <Stack gap="xs">
        <Text size="xs" c="dimmed">
          {field?.locked
            ? 'Marquee relies on this table: its columns stay as they are.'
            : isInModel
              ? 'Column changes join the pending changes as you make them; existing rows follow them.'
              : 'Every row of the table has these columns.'}
        </Text>
        <FieldTable
          owner={columnOwner}
          ownerTitle={tableTitle}
          fields={columns}
          changed={changedKeys(columns, appliedColumns, new Set())}
          noun="column"
          isReadOnly={isReadOnly}
          onEdit={setEditing}
          onChange={(ops) => {
            const problem = change(ops);
            setRefusal(problem);
            return problem;
          }}
          onRemove={(key) => act([{ op: 'removeField', ...columnOwner, key }])}
        />
        <RefusalAlert message={refusal} />
      </Stack>
      {editing && (
        <FieldEditor
          owner={columnOwner}
          ownerTitle={tableTitle}
          field={editing.field}
          fields={columns}
          model={model}
          otherLocales={otherLocales}
          focus={editing.focus}
          onSubmit={change}
          onClose={() => setEditing(undefined)}
        />
      )}
    </Fieldset>
  );
}

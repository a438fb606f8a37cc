import { useEffect, useRef, useState, type ReactNode } from 'react';
import {
  Alert,
  Button,
  Group,
  Modal,
  MultiSelect,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm, type FormValidateInput, type UseFormReturnType } from '@mantine/form';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ContentModelDoc, ModelOp } from '@shared/model/types';
import type { BlockType, FieldDef, SchemaType } from '@shared/schemas/types';
import { toKebabCase } from '@shared/text/slug';
import { SCHEMA_ICON_NAMES, SchemaIcon } from '@web/components/schema-icon';
import { InputRows } from './input-rows';

type Submit = (ops: ModelOp[]) => string | undefined;

const ICON_OPTIONS = SCHEMA_ICON_NAMES.map((name) => ({ value: name, label: name }));

const nameProblem = (value: string) =>
  /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/.test(value)
    ? null
    : 'Kebab-case: lowercase letters, digits and single dashes, starting with a letter';
const titleProblem = (value: string) => (value.trim() ? null : 'A title is needed');

/** Why the engine refused a change, scrolled into view at the foot of a long dialog. */
export function RefusalAlert({ message }: { message?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.scrollIntoView?.({ block: 'nearest' }), [message]);
  if (!message) return null;
  return (
    <Alert ref={ref} color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
      {message}
    </Alert>
  );
}

/** A dialog whose form adds operations to the change set and shows the engine's refusal. */
function OpDialog({
  title,
  submitLabel,
  onSubmit,
  onClose,
  children,
}: {
  title: string;
  submitLabel: string;
  onSubmit: () => string | undefined;
  onClose: () => void;
  children: ReactNode;
}) {
  const [refusal, setRefusal] = useState<string>();
  return (
    <Modal opened onClose={onClose} title={<Text fw={650}>{title}</Text>} size="lg">
      <form
        noValidate
        aria-label={title}
        onSubmit={(event) => {
          event.preventDefault();
          const problem = onSubmit();
          if (problem) setRefusal(problem);
          else onClose();
        }}
      >
        <Stack gap="md">
          {children}
          <RefusalAlert message={refusal} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit">{submitLabel}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** A title and the kebab-case name it gives, until the name is typed itself. */
function useTitledForm<T extends Record<string, unknown> & { title: string; name: string }>(
  initialValues: T,
  isNameFixed = false,
) {
  const [isNameTouched, setNameTouched] = useState(isNameFixed);
  const form = useForm<T>({
    mode: 'controlled',
    initialValues,
    validate: { title: titleProblem, name: nameProblem } as FormValidateInput<T>,
  });
  const titleProps = {
    ...form.getInputProps('title'),
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
      const title = event.currentTarget.value;
      form.setFieldValue('title', title as never);
      if (!isNameTouched) form.setFieldValue('name', toKebabCase(title) as never);
    },
  };
  const nameProps = {
    ...form.getInputProps('name'),
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
      setNameTouched(true);
      form.setFieldValue('name', event.currentTarget.value as never);
    },
  };
  return { form, titleProps, nameProps };
}

/** Submits a form's values as operations once they validate. */
const submitted =
  <T extends Record<string, unknown>>(
    form: UseFormReturnType<T>,
    ops: (values: T) => ModelOp[],
    onChange: Submit,
  ) =>
  () =>
    form.validate().hasErrors ? 'Check the fields marked above' : onChange(ops(form.getValues()));

export function AddDomainDialog({ onChange, onClose }: { onChange: Submit; onClose: () => void }) {
  const { form, titleProps, nameProps } = useTitledForm({ title: '', name: '' });
  return (
    <OpDialog
      title="Add a domain"
      submitLabel="Add domain"
      onClose={onClose}
      onSubmit={submitted(
        form,
        ({ title, name }) => [{ op: 'addDomain', domain: { name, title: title.trim() } }],
        onChange,
      )}
    >
      <Text size="sm" c="dimmed">
        A domain groups schemas in the navigation. Members see it once it is enabled under Basics.
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Title" required data-autofocus {...titleProps} />
        <TextInput label="Name" required description="In URLs: /workspace/name" {...nameProps} />
      </SimpleGrid>
    </OpDialog>
  );
}

/** A copy of a schema under another name: Marquee's own fields are not locked in the copy. */
function copyOf(schema: SchemaType, name: string, title: string): SchemaType {
  const unlocked = (fields: readonly FieldDef[]): FieldDef[] =>
    fields.map(({ locked: _locked, ...field }) =>
      field.type === 'table' ? { ...field, columns: unlocked(field.columns) } : field,
    ) as FieldDef[];
  const { blockTypes: _blockTypes, locales: _locales, ...stored } = schema;
  return {
    ...structuredClone(stored),
    name,
    title,
    pluralTitle: `${title}s`,
    fields: unlocked(schema.fields),
  };
}

const fromScratch = (name: string, title: string, icon: string): SchemaType => ({
  name,
  title,
  pluralTitle: `${title}s`,
  icon,
  fields: [{ key: 'name', label: 'Name', type: 'text', required: true }],
  topFields: ['name'],
});

export function AddSchemaDialog({
  model,
  domain,
  onChange,
  onClose,
}: {
  model: ContentModelDoc;
  domain: string;
  onChange: Submit;
  onClose: () => void;
}) {
  const [mode, setMode] = useState<'scratch' | 'copy'>('scratch');
  const { form, titleProps, nameProps } = useTitledForm({
    title: '',
    name: '',
    icon: 'file-text',
    copyFrom: '',
    domain,
  });
  const schemas = model.domains.flatMap((d) => d.schemas);
  const opsOf = (values: typeof form.values): ModelOp[] => {
    const title = values.title.trim();
    const source = schemas.find((schema) => schema.name === values.copyFrom);
    const schema =
      mode === 'copy' && source
        ? { ...copyOf(source, values.name, title), icon: values.icon }
        : fromScratch(values.name, title, values.icon);
    return [{ op: 'addSchema', domain: values.domain, schema }];
  };
  return (
    <OpDialog
      title="Add a schema"
      submitLabel="Add schema"
      onClose={onClose}
      onSubmit={() =>
        mode === 'copy' && !form.values.copyFrom
          ? 'Choose the schema to copy'
          : submitted(form, opsOf, onChange)()
      }
    >
      <SegmentedControl
        value={mode}
        onChange={(value) => setMode(value as 'scratch' | 'copy')}
        data={[
          { value: 'scratch', label: 'From scratch' },
          { value: 'copy', label: 'Copy of a schema' },
        ]}
        aria-label="How to start"
      />
      {mode === 'copy' && (
        <Select
          label="Schema to copy"
          description="Its fields, top fields and settings; its items stay where they are"
          data={model.domains
            .filter((d) => d.schemas.length > 0)
            .map((d) => ({
              group: d.title,
              items: d.schemas.map((s) => ({ value: s.name, label: s.title })),
            }))}
          searchable
          {...form.getInputProps('copyFrom')}
          onChange={(value) => {
            form.setFieldValue('copyFrom', value ?? '');
            const icon = schemas.find((schema) => schema.name === value)?.icon;
            if (icon) form.setFieldValue('icon', icon);
          }}
        />
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Title" required data-autofocus placeholder="Landing Page" {...titleProps} />
        <TextInput label="Name" required description="In URLs and the API" {...nameProps} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label="Domain"
          data={model.domains.map((d) => ({ value: d.name, label: d.title }))}
          allowDeselect={false}
          {...form.getInputProps('domain')}
        />
        <IconSelect {...form.getInputProps('icon')} />
      </SimpleGrid>
      {mode === 'scratch' && (
        <Text size="sm" c="dimmed">
          It starts with a required Name field; add more once it is there.
        </Text>
      )}
    </OpDialog>
  );
}

function IconSelect(props: { value?: string; onChange?: (value: string | null) => void; error?: ReactNode }) {
  return (
    <Select
      label="Icon"
      data={ICON_OPTIONS}
      allowDeselect={false}
      leftSection={<SchemaIcon name={props.value ?? ''} size={16} />}
      renderOption={({ option }) => (
        <Group gap="xs">
          <SchemaIcon name={option.value} size={16} />
          <Text size="sm">{option.label}</Text>
        </Group>
      )}
      {...props}
    />
  );
}

/** What a patch of the changed properties is: those whose value differs from before. */
function changedOnly<T extends Record<string, unknown>>(before: T, after: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(after).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(before[key])),
  ) as Partial<T>;
}

export function EditSchemaDialog({
  schema,
  onChange,
  onClose,
}: {
  schema: SchemaType;
  onChange: Submit;
  onClose: () => void;
}) {
  const initial = {
    title: schema.title,
    pluralTitle: schema.pluralTitle,
    icon: schema.icon,
    topFields: [...schema.topFields],
    previewUrls: [...(schema.previewUrls ?? [])],
  };
  const form = useForm({
    mode: 'controlled',
    initialValues: initial,
    validate: { title: titleProblem, pluralTitle: titleProblem },
  });
  const handleSubmit = () => {
    if (form.validate().hasErrors) return 'Check the fields marked above';
    const values = form.getValues();
    const previewUrls = values.previewUrls.map((url) => url.trim()).filter(Boolean);
    const patch = changedOnly(initial, { ...values, title: values.title.trim(), previewUrls });
    return Object.keys(patch).length === 0
      ? undefined
      : onChange([{ op: 'updateSchema', schema: schema.name, patch }]);
  };
  return (
    <OpDialog
      title={`Edit schema ${schema.title}`}
      submitLabel="Change schema"
      onClose={onClose}
      onSubmit={handleSubmit}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Title" required data-autofocus {...form.getInputProps('title')} />
        <TextInput label="Plural title" required {...form.getInputProps('pluralTitle')} />
      </SimpleGrid>
      <IconSelect {...form.getInputProps('icon')} />
      <MultiSelect
        label="Top fields"
        description="Shown first in the item form and in lists"
        data={schema.fields.map((field) => ({ value: field.key, label: field.label }))}
        {...form.getInputProps('topFields')}
      />
      <PreviewUrlRows
        count={form.values.previewUrls.length}
        inputProps={(index) => form.getInputProps(`previewUrls.${index}`)}
        onAdd={() => form.insertListItem('previewUrls', '')}
        onRemove={(index) => form.removeListItem('previewUrls', index)}
      />
    </OpDialog>
  );
}

/** Where the schema's items are seen on the website, for the preview pane beside the item form. */
function PreviewUrlRows({
  count,
  inputProps,
  onAdd,
  onRemove,
}: {
  count: number;
  inputProps: (index: number) => ReturnType<UseFormReturnType<{ previewUrls: string[] }>['getInputProps']>;
  onAdd: () => void;
  onRemove: (index: number) => void;
}) {
  return (
    <Stack gap={6} role="group" aria-labelledby="preview-urls-label">
      <div>
        <Text id="preview-urls-label" size="sm" fw={500}>
          Preview URLs
        </Text>
        <Text size="xs" c="dimmed">
          Pages of the website that show an item, such as https://www.example.com/blog/{'{slug}'}
          ?locale={'{locale}'}: placeholders name a field, {'{locale}'} or {'{id}'}. Their origins must be
          listed under Settings › Preview.
        </Text>
      </div>
      <InputRows
        count={count}
        noun="preview URL"
        renderRow={(index) => (
          <TextInput
            aria-label={`Preview URL ${index + 1}`}
            placeholder="https://www.example.com/{slug}"
            style={{ flex: 1 }}
            {...inputProps(index)}
          />
        )}
        onAdd={onAdd}
        onRemove={onRemove}
      />
    </Stack>
  );
}

export function BlockTypeDialog({
  blockType,
  onChange,
  onClose,
}: {
  blockType?: BlockType;
  onChange: Submit;
  onClose: () => void;
}) {
  const { form, titleProps, nameProps } = useTitledForm(
    {
      title: blockType?.title ?? '',
      name: blockType?.name ?? '',
      icon: blockType?.icon ?? 'file-text',
    },
    blockType !== undefined,
  );
  const opsOf = ({ title, name, icon }: typeof form.values): ModelOp[] => {
    if (!blockType)
      return [{ op: 'addBlockType', blockType: { name, title: title.trim(), icon, fields: [] } }];
    const patch = changedOnly(
      { title: blockType.title, icon: blockType.icon ?? '' },
      { title: title.trim(), icon },
    );
    return Object.keys(patch).length === 0
      ? []
      : [{ op: 'updateBlockType', blockType: blockType.name, patch }];
  };
  return (
    <OpDialog
      title={blockType ? `Edit block type ${blockType.title}` : 'Add a block type'}
      submitLabel={blockType ? 'Change block type' : 'Add block type'}
      onClose={onClose}
      onSubmit={() => {
        if (form.validate().hasErrors) return 'Check the fields marked above';
        const ops = opsOf(form.getValues());
        return ops.length === 0 ? undefined : onChange(ops);
      }}
    >
      <Text size="sm" c="dimmed">
        A block type is a piece of modular content (a hero, a quote, a gallery) that blocks fields offer.
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Title" required data-autofocus {...titleProps} />
        <TextInput label="Name" required disabled={!!blockType} {...nameProps} />
      </SimpleGrid>
      <IconSelect {...form.getInputProps('icon')} />
    </OpDialog>
  );
}

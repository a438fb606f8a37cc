import {
  Fieldset,
  Group,
  MultiSelect,
  NumberInput,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { ContentModelDoc } from '@shared/model/types';
import type { FieldDef } from '@shared/schemas/types';
import { toKebabCase } from '@shared/text/slug';
import type { FieldDraft } from '../field-draft';
import { InputRows } from './input-rows';

interface Props {
  form: UseFormReturnType<FieldDraft>;
  siblings: readonly FieldDef[];
  model: ContentModelDoc;
  /** A locked field's values stay what they are: its options, targets and block types are fixed. */
  isLocked: boolean;
}

/** The options only some field types have, for the type chosen. */
export function FieldTypeOptions({ form, siblings, model, isLocked }: Props) {
  const { type } = form.values;
  const body = optionsOf(type, { form, siblings, model, isLocked });
  if (!body) return null;
  return (
    <Fieldset legend="Type options" variant="filled">
      <Stack gap="sm">{body}</Stack>
    </Fieldset>
  );
}

function optionsOf(type: FieldDraft['type'], props: Props) {
  switch (type) {
    case 'text':
    case 'multiline':
    case 'name-slug':
    case 'generatable':
    case 'file':
      return <TextOptions {...props} />;
    case 'number':
    case 'range':
    case 'date':
      return <LimitOptions {...props} />;
    case 'select':
      return <SelectTypeOptions {...props} />;
    case 'reference':
    case 'reference-list':
      return <ReferenceOptions {...props} />;
    case 'blocks':
      return <BlocksOptions {...props} />;
    default:
      return null;
  }
}

/** Options of the types that hold text or a file. */
function TextOptions({ form, siblings, isLocked }: Props) {
  switch (form.values.type) {
    case 'text':
      return <TextInput label="Placeholder" {...form.getInputProps('placeholder')} />;
    case 'multiline':
      return (
        <NumberInput
          label="Rows"
          placeholder="3"
          min={1}
          max={40}
          allowDecimal={false}
          w={200}
          {...form.getInputProps('rows')}
        />
      );
    case 'name-slug':
      return (
        <Select
          label="Made from"
          description="The field whose text becomes the slug when the slug is left empty"
          data={siblings.map((field) => ({ value: field.key, label: `${field.label} (${field.key})` }))}
          disabled={isLocked}
          {...form.getInputProps('from')}
        />
      );
    case 'generatable':
      return (
        <NumberInput
          label="Generate length"
          description="Above 10, the field is read-only and filled with a random code of this length"
          placeholder="12"
          min={1}
          max={64}
          allowDecimal={false}
          w={{ base: '100%', sm: 320 }}
          {...form.getInputProps('generateLength')}
        />
      );
    default:
      return (
        <TextInput
          label="Accepts"
          description="File types uploads may have, as a file chooser takes them (image/*, application/pdf)"
          placeholder="image/*"
          disabled={isLocked}
          {...form.getInputProps('accept')}
        />
      );
  }
}

function LimitOptions({ form }: Props) {
  const { type } = form.values;
  if (type === 'date')
    return (
      <Group grow align="flex-start">
        <TextInput label="Earliest date" type="date" {...form.getInputProps('minDate')} />
        <TextInput label="Latest date" type="date" {...form.getInputProps('maxDate')} />
      </Group>
    );
  return (
    <Group grow align="flex-start">
      <NumberInput
        label="Min"
        placeholder={type === 'range' ? '0' : undefined}
        {...form.getInputProps('min')}
      />
      <NumberInput
        label="Max"
        placeholder={type === 'range' ? '100' : undefined}
        {...form.getInputProps('max')}
      />
    </Group>
  );
}

function SelectTypeOptions({ form, isLocked }: Props) {
  return (
    <>
      <SelectOptions form={form} isLocked={isLocked} />
      <Switch
        label="Several values"
        description="Members pick any number of the options"
        disabled={isLocked}
        {...form.getInputProps('multiple', { type: 'checkbox' })}
      />
    </>
  );
}

function ReferenceOptions({ form, model, isLocked }: Props) {
  return (
    <MultiSelect
      label="Items of"
      description="The schemas whose items it may reference"
      placeholder="Choose schemas"
      data={model.domains
        .filter((domain) => domain.schemas.length > 0)
        .map((domain) => ({
          group: domain.title,
          items: domain.schemas.map((schema) => ({ value: schema.name, label: schema.title })),
        }))}
      searchable
      disabled={isLocked}
      {...form.getInputProps('schemaTypes')}
    />
  );
}

function BlocksOptions({ form, model, isLocked }: Props) {
  return (
    <>
      {model.blockTypes.length === 0 ? (
        <Text size="sm" c="dimmed">
          The model has no block types yet: add one under Block types first.
        </Text>
      ) : (
        <MultiSelect
          label="Allowed block types"
          placeholder="Choose block types"
          data={model.blockTypes.map((blockType) => ({ value: blockType.name, label: blockType.title }))}
          disabled={isLocked}
          {...form.getInputProps('blockTypes')}
        />
      )}
      <NumberInput
        label="Max blocks"
        placeholder="No limit"
        min={1}
        allowDecimal={false}
        w={200}
        {...form.getInputProps('maxBlocks')}
      />
    </>
  );
}

/** A select field's options: value and label rows. */
function SelectOptions({ form, isLocked }: { form: UseFormReturnType<FieldDraft>; isLocked: boolean }) {
  const { options } = form.values;
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        Options
      </Text>
      {options.length === 0 && (
        <Text size="sm" c="dimmed">
          A select needs at least one option.
        </Text>
      )}
      <InputRows
        count={options.length}
        noun="option"
        isDisabled={isLocked}
        renderRow={(index) => (
          <>
            <TextInput
              aria-label={`Option ${index + 1} label`}
              placeholder="Label"
              disabled={isLocked}
              style={{ flex: 1 }}
              {...form.getInputProps(`options.${index}.label`)}
              onChange={(event) => {
                const label = event.currentTarget.value;
                // The value follows the label until it is typed itself.
                if (options[index].value === toKebabCase(options[index].label))
                  form.setFieldValue(`options.${index}.value`, toKebabCase(label));
                form.setFieldValue(`options.${index}.label`, label);
              }}
            />
            <TextInput
              aria-label={`Option ${index + 1} value`}
              placeholder="Value"
              disabled={isLocked}
              style={{ flex: 1 }}
              {...form.getInputProps(`options.${index}.value`)}
            />
          </>
        )}
        onAdd={() => form.insertListItem('options', { value: '', label: '' })}
        onRemove={(index) => form.removeListItem('options', index)}
      />
    </Stack>
  );
}

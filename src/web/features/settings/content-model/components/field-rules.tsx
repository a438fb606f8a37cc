import { Fieldset, Select, Stack, TagsInput, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { FieldDef } from '@shared/schemas/types';
import type { ConditionKind, FieldDraft } from '../field-draft';
import { InputRows } from './input-rows';

const CONDITION_KINDS: { value: ConditionKind; label: string }[] = [
  { value: 'none', label: 'Always' },
  { value: 'equals', label: 'When another field equals a value' },
  { value: 'in', label: 'When another field is one of some values' },
  { value: 'notEmpty', label: 'When another field is not empty' },
];

interface Props {
  form: UseFormReturnType<FieldDraft>;
  siblings: readonly FieldDef[];
}

/** A field's validators and display condition. */
export function FieldRules({ form, siblings }: Props) {
  return (
    <>
      <Validators form={form} />
      <DisplayCondition form={form} siblings={siblings} />
    </>
  );
}

function Validators({ form }: { form: UseFormReturnType<FieldDraft> }) {
  const { validators } = form.values;
  return (
    <Fieldset legend="Validators" variant="filled">
      <Stack gap="xs">
        <Text size="sm" c="dimmed">
          A value must match each regular expression; otherwise its message is shown. In the message, %l
          stands for the field’s label and %v for its value.
        </Text>
        <InputRows
          count={validators.length}
          noun="validator"
          renderRow={(index) => (
            <>
              <TextInput
                aria-label={`Validator ${index + 1} expression`}
                placeholder="^[^<>]*$"
                ff="monospace"
                style={{ flex: 1 }}
                {...form.getInputProps(`validators.${index}.expression`)}
              />
              <TextInput
                aria-label={`Validator ${index + 1} message`}
                placeholder="%l may not hold < or >"
                style={{ flex: 1 }}
                {...form.getInputProps(`validators.${index}.message`)}
              />
            </>
          )}
          onAdd={() => form.insertListItem('validators', { expression: '', message: '' })}
          onRemove={(index) => form.removeListItem('validators', index)}
        />
      </Stack>
    </Fieldset>
  );
}

function DisplayCondition({ form, siblings }: Props) {
  const { condition } = form.values;
  const compared = siblings.find((field) => field.key === condition.field);
  const valueChoices =
    compared?.type === 'boolean'
      ? ['true', 'false']
      : compared?.type === 'select'
        ? compared.options.map((option) => option.value)
        : undefined;
  return (
    <Fieldset legend="Display condition" variant="filled">
      <Stack gap="sm">
        <Select
          label="Show this field"
          data={CONDITION_KINDS}
          allowDeselect={false}
          {...form.getInputProps('condition.kind')}
        />
        {condition.kind !== 'none' && (
          <Select
            label="Other field"
            data={siblings.map((field) => ({ value: field.key, label: `${field.label} (${field.key})` }))}
            searchable
            {...form.getInputProps('condition.field')}
          />
        )}
        {condition.kind === 'equals' &&
          (valueChoices ? (
            <Select label="Value" data={valueChoices} {...form.getInputProps('condition.value')} />
          ) : (
            <TextInput label="Value" {...form.getInputProps('condition.value')} />
          ))}
        {condition.kind === 'in' && (
          <TagsInput
            label="Values"
            description="Press Enter after each value"
            data={valueChoices}
            {...form.getInputProps('condition.values')}
          />
        )}
      </Stack>
    </Fieldset>
  );
}

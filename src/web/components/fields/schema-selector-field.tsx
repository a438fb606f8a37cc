import { useState } from 'react';
import { Button, Code, CopyButton, Group, ScrollArea, Select, Stack } from '@mantine/core';
import { IconCheck, IconCopy, IconFileCode } from '@tabler/icons-react';
import type { SchemaSelectorField as SchemaSelectorFieldDef } from '@shared/schemas/types';
import { OLD_VALUE_PREFIX } from '@shared/validation/messages';
import { useFieldEnvironment } from './field-environment';
import type { FieldProps } from './types';
import { INPUT_ORDER, ViewValue } from './view-value';
import { showToast } from '@web/lib/toast';

/** Spec §8: the failure of 'Generate Types' is a persistent centre notification. */
const typesNotGenerated = (detail: string) => `Types not generated. ${detail}`;

/** The name of a schema, with 'Generate Types' (its type definition text) and 'Copy' (spec §2). */
export function SchemaSelectorField({
  field,
  value,
  onChange,
  readOnly,
  error,
  inputId,
  compact,
}: FieldProps<SchemaSelectorFieldDef>) {
  const { schemaOptions, generateTypes } = useFieldEnvironment();
  const [types, setTypes] = useState<string | null>(null);
  const [generating, setGenerating] = useState(false);
  const name = typeof value === 'string' && value ? value : null;
  const known = schemaOptions.find((option) => option.value === name);
  const data =
    name && !known ? [...schemaOptions, { value: name, label: `${OLD_VALUE_PREFIX}${name}` }] : schemaOptions;

  const handleGenerate = async () => {
    if (!name || !generateTypes) return;
    setGenerating(true);
    try {
      setTypes(await generateTypes(name));
    } catch (failure) {
      showToast({
        color: 'red',
        position: 'top-center',
        autoClose: false,
        message: typesNotGenerated(failure instanceof Error ? failure.message : String(failure)),
      });
    } finally {
      setGenerating(false);
    }
  };

  return (
    <Stack gap="xs">
      {readOnly ? (
        <ViewValue>{name ? (known?.label ?? `${OLD_VALUE_PREFIX}${name}`) : ''}</ViewValue>
      ) : (
        <Select
          id={inputId}
          aria-label={field.label}
          data={data}
          value={name}
          searchable
          clearable={!field.required}
          placeholder="Choose a schema…"
          inputWrapperOrder={INPUT_ORDER}
          description={compact ? undefined : field.description}
          error={error}
          comboboxProps={{ withinPortal: true }}
          onChange={(next) => {
            setTypes(null);
            onChange(next);
          }}
        />
      )}
      <Group gap="xs">
        <Button
          size="xs"
          variant="light"
          leftSection={<IconFileCode size={16} />}
          disabled={!name || !generateTypes}
          loading={generating}
          onClick={handleGenerate}
        >
          Generate Types
        </Button>
        <CopyButton value={types ?? ''}>
          {({ copied, copy }) => (
            <Button
              size="xs"
              variant="default"
              leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              disabled={!types}
              onClick={copy}
            >
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
      {types !== null && (
        <ScrollArea.Autosize mah={320} type="auto">
          <Code block data-testid="generated-types">
            {types}
          </Code>
        </ScrollArea.Autosize>
      )}
    </Stack>
  );
}

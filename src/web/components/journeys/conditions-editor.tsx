import { ActionIcon, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { JourneyCondition } from '@shared/api/journeys';

const OPERATORS: { value: JourneyCondition['op']; label: string }[] = [
  { value: '==', label: 'is' },
  { value: '!=', label: 'is not' },
  { value: '>', label: 'more than' },
  { value: '>=', label: 'at least' },
  { value: '<', label: 'less than' },
  { value: '<=', label: 'at most' },
  { value: 'contains', label: 'contains' },
  { value: 'exists', label: 'is set' },
  { value: 'not-exists', label: 'is not set' },
];
const HAS_NO_VALUE = new Set(['exists', 'not-exists']);

/** A typed value from what was typed: numbers and true/false compare as such, the rest as text. */
export function typedValue(text: string): string | number | boolean {
  if (/^-?\d+(\.\d+)?$/.test(text.trim())) return Number(text);
  if (text === 'true' || text === 'false') return text === 'true';
  return text;
}

interface ConditionsEditorProps {
  /** What the keys compare: an event's properties or a profile's attributes. */
  subject: 'property' | 'attribute';
  value: unknown;
  onChange: (conditions: JourneyCondition[]) => void;
  readOnly: boolean;
}

/** A list of conditions that must all hold, each a key, a comparison and a value. */
export function ConditionsEditor({ subject, value, onChange, readOnly }: ConditionsEditorProps) {
  const conditions = (Array.isArray(value) ? value : []) as JourneyCondition[];
  const change = (index: number, patch: Partial<JourneyCondition>) =>
    onChange(conditions.map((each, at) => (at === index ? { ...each, ...patch } : each)));
  const noun = subject === 'property' ? 'Property' : 'Attribute';
  return (
    <Stack gap={6}>
      {conditions.length === 0 && (
        <Text size="xs" c="dimmed">
          No conditions.
        </Text>
      )}
      {conditions.map((condition, index) => (
        <Group key={index} gap={4} wrap="nowrap" align="flex-end">
          <TextInput
            size="xs"
            aria-label={`${noun} of condition ${index + 1}`}
            placeholder={noun}
            value={condition.key}
            readOnly={readOnly}
            onChange={(event) => change(index, { key: event.currentTarget.value })}
            style={{ flex: 1 }}
          />
          <Select
            size="xs"
            w={100}
            aria-label={`Comparison of condition ${index + 1}`}
            data={OPERATORS}
            value={condition.op}
            allowDeselect={false}
            readOnly={readOnly}
            onChange={(op) => op && change(index, { op: op as JourneyCondition['op'] })}
          />
          {!HAS_NO_VALUE.has(condition.op) && (
            <TextInput
              size="xs"
              aria-label={`Value of condition ${index + 1}`}
              placeholder="Value"
              value={condition.value === undefined ? '' : String(condition.value)}
              readOnly={readOnly}
              onChange={(event) => change(index, { value: typedValue(event.currentTarget.value) })}
              style={{ flex: 1 }}
            />
          )}
          {!readOnly && (
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={`Remove condition ${index + 1}`}
              onClick={() => onChange(conditions.filter((_, at) => at !== index))}
            >
              <IconTrash size={14} />
            </ActionIcon>
          )}
        </Group>
      ))}
      {!readOnly && (
        <Button
          size="compact-xs"
          variant="subtle"
          leftSection={<IconPlus size={12} />}
          onClick={() => onChange([...conditions, { key: '', op: '==', value: '' }])}
          style={{ alignSelf: 'flex-start' }}
        >
          Add condition
        </Button>
      )}
    </Stack>
  );
}

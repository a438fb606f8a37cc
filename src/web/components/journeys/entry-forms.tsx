import type { ComponentType } from 'react';
import { Code, Stack, Text, TextInput } from '@mantine/core';
import { ConditionsEditor } from './conditions-editor';
import type { CanvasEntry } from './definition';

interface EntryFormProps {
  entry: CanvasEntry;
  onChange: (entry: CanvasEntry) => void;
  readOnly: boolean;
}

function EventEntryForm({ entry, onChange, readOnly }: EntryFormProps) {
  return (
    <Stack gap="xs">
      <TextInput
        size="xs"
        label="Event"
        description="The behavioral event's key, such as signup"
        value={typeof entry.event === 'string' ? entry.event : ''}
        readOnly={readOnly}
        onChange={(event) => onChange({ ...entry, event: event.currentTarget.value })}
      />
      <Text size="xs" fw={500}>
        Event conditions
      </Text>
      <ConditionsEditor
        subject="property"
        value={entry.conditions}
        readOnly={readOnly}
        onChange={(conditions) => onChange({ ...entry, conditions })}
      />
    </Stack>
  );
}

function ApiEntryForm() {
  return (
    <Text size="xs" c="dimmed">
      Profiles enter when they are posted to the journey&apos;s enter route, while it runs.
    </Text>
  );
}

function UnknownEntryForm({ entry }: EntryFormProps) {
  return (
    <Code block data-testid="unknown-entry-json">
      {JSON.stringify(entry, null, 2)}
    </Code>
  );
}

export interface EntryKind {
  title: string;
  create: () => CanvasEntry;
  Form: ComponentType<EntryFormProps>;
}

/** The ways into a journey, each with its form: adding one is one entry here. */
export const ENTRY_KINDS: Record<string, EntryKind> = {
  event: {
    title: 'An event happens',
    create: () => ({ kind: 'event', event: '', conditions: [] }),
    Form: EventEntryForm,
  },
  api: { title: 'Through the API', create: () => ({ kind: 'api' }), Form: ApiEntryForm },
};

export const entryKindOf = (kind: string): EntryKind =>
  Object.hasOwn(ENTRY_KINDS, kind)
    ? ENTRY_KINDS[kind]
    : { title: kind, create: () => ({ kind }), Form: UnknownEntryForm };

/** One line saying how profiles enter, for the entry's node. */
export function entrySummary(entry: CanvasEntry) {
  if (entry.kind === 'event')
    return typeof entry.event === 'string' && entry.event ? `Event “${entry.event}”` : 'An event';
  return entryKindOf(entry.kind).title;
}

import type { ComponentType } from 'react';
import { Code, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { ConditionsEditor } from './conditions-editor';
import type { CanvasEntry } from './definition';
import { AudienceSelect } from './pickers';
import { DateFields } from './step-forms/schedule-step-forms';

interface EntryFormProps {
  entry: CanvasEntry;
  onChange: (entry: CanvasEntry) => void;
  readOnly: boolean;
  workspaceId: string;
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

function AudienceEntryForm({ entry, onChange, readOnly }: EntryFormProps) {
  return (
    <Stack gap="xs">
      <AudienceSelect
        label="Audience"
        value={entry.audience}
        readOnly={readOnly}
        onChange={(audience) => onChange({ ...entry, audience })}
      />
      <SegmentedControl
        size="xs"
        aria-label="Profiles enter on"
        data={[
          { value: 'enter', label: 'Joining it' },
          { value: 'leave', label: 'Leaving it' },
        ]}
        value={entry.on === 'leave' ? 'leave' : 'enter'}
        readOnly={readOnly}
        onChange={(on) => onChange({ ...entry, on })}
      />
    </Stack>
  );
}

const TIME_ZONES = [
  { value: 'profile', label: "The profile's (else the workspace's)" },
  { value: 'workspace', label: "The workspace's" },
];

function DateEntryForm({ entry, onChange, readOnly, workspaceId }: EntryFormProps) {
  return (
    <Stack gap="xs">
      <DateFields
        value={entry}
        onChange={(next) => onChange({ ...entry, ...next })}
        readOnly={readOnly}
        workspaceId={workspaceId}
        yearlyDefault
      />
      <Select
        size="xs"
        label="Time zone"
        data={TIME_ZONES}
        value={entry.timeZone === 'workspace' ? 'workspace' : 'profile'}
        allowDeselect={false}
        readOnly={readOnly}
        onChange={(timeZone) => timeZone && onChange({ ...entry, timeZone })}
      />
    </Stack>
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
  audience: {
    title: 'Audience membership changes',
    create: () => ({ kind: 'audience', on: 'enter' }),
    Form: AudienceEntryForm,
  },
  date: {
    title: 'A date comes',
    create: () => ({ kind: 'date', offsetDays: 0, at: '09:00', timeZone: 'profile', yearly: true }),
    Form: DateEntryForm,
  },
};

export const entryKindOf = (kind: string): EntryKind =>
  Object.hasOwn(ENTRY_KINDS, kind)
    ? ENTRY_KINDS[kind]
    : { title: kind, create: () => ({ kind }), Form: UnknownEntryForm };

/** One line saying how profiles enter, for the entry's node. */
export function entrySummary(entry: CanvasEntry) {
  if (entry.kind === 'event')
    return typeof entry.event === 'string' && entry.event ? `Event “${entry.event}”` : 'An event';
  if (entry.kind === 'audience')
    return entry.audience ? `On ${entry.on === 'leave' ? 'leaving' : 'joining'} the audience` : 'An audience';
  if (entry.kind === 'date')
    return typeof entry.attribute === 'string' && entry.attribute ? `Date “${entry.attribute}”` : 'A date';
  return entryKindOf(entry.kind).title;
}

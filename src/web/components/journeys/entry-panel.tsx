import { Checkbox, Divider, NumberInput, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { ConditionsEditor } from './conditions-editor';
import type { CanvasDefinition } from './definition';
import { ENTRY_KINDS, entryKindOf } from './entry-forms';
import { AudienceSelect } from './pickers';

const REENTRY_MODES = [
  { value: 'once', label: 'Once ever' },
  { value: 'after-exit', label: 'Again after it finished' },
  { value: 'every', label: 'At most every N days' },
];

interface EntryPanelProps {
  definition: CanvasDefinition;
  onChange: (definition: CanvasDefinition) => void;
  readOnly: boolean;
  workspaceId: string;
}

/** The side panel of the entry: how profiles enter, how often they may, and the goal that ends a run. */
export function EntryPanel({ definition, onChange, readOnly, workspaceId }: EntryPanelProps) {
  const { entry, goal } = definition;
  const reentry = definition.reentry ?? { mode: 'once' };
  const kind = entryKindOf(entry.kind);
  const kinds = Object.entries(ENTRY_KINDS).map(([value, { title }]) => ({ value, label: title }));
  if (!Object.hasOwn(ENTRY_KINDS, entry.kind)) kinds.push({ value: entry.kind, label: entry.kind });
  return (
    <Stack gap="sm" data-testid="journey-entry-panel">
      <Title order={3} size="h5">
        Entry
      </Title>
      <Select
        size="xs"
        label="Profiles enter when"
        data={kinds}
        value={entry.kind}
        allowDeselect={false}
        readOnly={readOnly}
        onChange={(value) => value && onChange({ ...definition, entry: entryKindOf(value).create() })}
      />
      <kind.Form
        entry={entry}
        readOnly={readOnly}
        workspaceId={workspaceId}
        onChange={(next) => onChange({ ...definition, entry: next })}
      />
      <AudienceSelect
        label="Only members of"
        placeholder="Any profile"
        clearable
        value={definition.entryAudience}
        readOnly={readOnly}
        onChange={(entryAudience) => onChange({ ...definition, entryAudience: entryAudience ?? null })}
      />
      <Select
        size="xs"
        label="A profile may enter"
        data={REENTRY_MODES}
        value={reentry.mode}
        allowDeselect={false}
        readOnly={readOnly}
        onChange={(mode) =>
          mode && onChange({ ...definition, reentry: mode === 'every' ? { mode, days: 30 } : { mode } })
        }
      />
      {reentry.mode === 'every' && (
        <NumberInput
          size="xs"
          label="Days between entries"
          min={1}
          allowDecimal={false}
          value={typeof reentry.days === 'number' ? reentry.days : 30}
          readOnly={readOnly}
          onChange={(days) =>
            onChange({ ...definition, reentry: { mode: 'every', days: Number(days) || 1 } })
          }
        />
      )}
      <Divider />
      <Checkbox
        size="xs"
        label="Goal: an event that ends the journey as a conversion"
        checked={!!goal}
        disabled={readOnly}
        onChange={(event) =>
          onChange({
            ...definition,
            goal: event.currentTarget.checked ? { event: '', conditions: [] } : null,
          })
        }
      />
      {goal && (
        <>
          <TextInput
            size="xs"
            label="Goal event"
            value={goal.event}
            readOnly={readOnly}
            onChange={(event) =>
              onChange({ ...definition, goal: { ...goal, event: event.currentTarget.value } })
            }
          />
          <Text size="xs" fw={500}>
            Goal event conditions
          </Text>
          <ConditionsEditor
            subject="property"
            value={goal.conditions}
            readOnly={readOnly}
            onChange={(conditions) => onChange({ ...definition, goal: { ...goal, conditions } })}
          />
        </>
      )}
    </Stack>
  );
}

import { Button, Checkbox, Group, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { CreateReleaseBody, ReleaseSummary } from '@shared/api/releases';
import type { Workspace } from '@shared/api/workspaces';
import { stageValue } from '@shared/publishing/stages';
import { dayjs } from '@shared/time/dayjs';
import { FormError } from '@web/components/form-error';
import { publishAtErrorOf } from '@web/lib/release-labels';

/** The id of the publish time field, for a link or button that takes the person to it. */
export const PUBLISH_AT_FIELD_ID = 'release-publish-at';

interface DetailsValues {
  name: string;
  description: string;
  stage: string;
  hasTime: boolean;
  localTime: string;
  zone: string;
}

function zonesOf(workspace: Workspace) {
  return workspace.basics.timezones.length ? workspace.basics.timezones : [dayjs.tz.guess()];
}

function initialValues(workspace: Workspace, release?: ReleaseSummary): DetailsValues {
  const zone = release?.publishAtTz ?? zonesOf(workspace)[0];
  const at = release?.publishAt
    ? dayjs(release.publishAt).tz(zone)
    : dayjs().tz(zone).add(1, 'day').startOf('hour');
  return {
    name: release?.name ?? '',
    description: release?.description ?? '',
    stage: release?.stage ?? 'live',
    hasTime: Boolean(release?.publishAt),
    localTime: at.format('YYYY-MM-DDTHH:mm'),
    zone,
  };
}

/** The form's values as the API takes them: the publish time in its zone, with the offset. */
function releaseBody(values: DetailsValues): Required<CreateReleaseBody> {
  const at = values.hasTime ? dayjs.tz(values.localTime, values.zone) : null;
  return {
    name: values.name.trim(),
    description: values.description,
    stage: values.stage,
    publishAt: at ? at.format() : null,
    publishAtTz: at ? values.zone : null,
  };
}

/** Name, description, target stage and an optional publish time with its zone: creating and editing a release. */
export function ReleaseDetailsForm({
  workspace,
  release,
  submitLabel,
  isSaving,
  error,
  readOnly = false,
  scheduleReadOnly = readOnly,
  onSubmit,
  onCancel,
}: {
  workspace: Workspace;
  release?: ReleaseSummary;
  submitLabel: string;
  isSaving: boolean;
  error: unknown;
  readOnly?: boolean;
  /** The target stage and publish time cannot change (the member may not publish every entry). */
  scheduleReadOnly?: boolean;
  onSubmit: (body: Required<CreateReleaseBody>) => void;
  onCancel?: () => void;
}) {
  const form = useForm<DetailsValues>({
    mode: 'controlled',
    initialValues: initialValues(workspace, release),
    validate: {
      name: (v) => (v.trim() ? null : 'Name is required'),
      localTime: (v, values) =>
        values.hasTime && !dayjs.tz(v, values.zone).isValid() ? 'Not a date and time' : null,
    },
  });
  const stageOptions = workspace.basics.stages.map((label) => ({ value: stageValue(label), label }));
  // A refused publish time (in the past) is shown under its field, not above the form.
  const timeError = publishAtErrorOf(error);
  return (
    <form
      onSubmit={form.onSubmit((values) => onSubmit(releaseBody(values)))}
      noValidate
      aria-label="Release details"
    >
      <FormError error={timeError ? null : error} />
      <Stack gap="sm">
        <TextInput label="Name" required readOnly={readOnly} data-autofocus {...form.getInputProps('name')} />
        <Textarea
          label="Description"
          autosize
          minRows={2}
          readOnly={readOnly}
          {...form.getInputProps('description')}
        />
        <Select
          label="Target stage"
          data={stageOptions}
          allowDeselect={false}
          disabled={scheduleReadOnly}
          {...form.getInputProps('stage')}
        />
        <Checkbox
          label="Set a publish time"
          disabled={scheduleReadOnly}
          {...form.getInputProps('hasTime', { type: 'checkbox' })}
        />
        {form.values.hasTime && (
          <Group grow align="flex-start">
            <TextInput
              type="datetime-local"
              label="Publish at"
              id={PUBLISH_AT_FIELD_ID}
              readOnly={scheduleReadOnly}
              {...form.getInputProps('localTime')}
              error={form.errors.localTime ?? timeError}
            />
            <Select
              label="Time zone"
              data={[...new Set([...zonesOf(workspace), form.values.zone])]}
              allowDeselect={false}
              searchable
              disabled={scheduleReadOnly}
              {...form.getInputProps('zone')}
            />
          </Group>
        )}
      </Stack>
      {!readOnly && (
        <Group justify="flex-end" mt="md">
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
          )}
          <Button type="submit" loading={isSaving}>
            {submitLabel}
          </Button>
        </Group>
      )}
    </form>
  );
}

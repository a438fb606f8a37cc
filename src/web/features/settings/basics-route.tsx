import { Card, Select, Stack, TextInput, Title, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Basics } from '@shared/api/workspaces';
import { normaliseStages } from '@shared/publishing/stages';
import { DATE_DISPLAY_FORMAT } from '@shared/time/zones';
import { DomainPicker } from '@web/components/workspace-basics/domain-picker';
import { StagesInput } from '@web/components/workspace-basics/stages-input';
import { TimezonesInput } from '@web/components/workspace-basics/timezones-input';
import { useCurrentWorkspace, useUpdateWorkspace } from '@web/lib/workspace';
import { SaveErrorAlert } from './components/conflict-alert';
import { SaveBar } from './components/save-bar';
import { showToast } from '@web/lib/toast';

const DATE_FORMATS = [
  { value: 'relative', label: 'Relative (3 hours ago)' },
  { value: DATE_DISPLAY_FORMAT, label: 'Full (Mon Jan 1st, 2024 9:30 AM)' },
  { value: 'YYYY-MM-DD HH:mm', label: 'ISO (2024-01-01 09:30)' },
];

/** /{workspace}/_settings/basics: name, domains, stages, time zones and date format. */
export default function BasicsRoute() {
  const workspace = useCurrentWorkspace();
  const update = useUpdateWorkspace(workspace.id);
  const initialValues = {
    name: workspace.basics.name,
    domains: [...workspace.basics.domains],
    stages: normaliseStages(workspace.basics.stages),
    timezones: [...workspace.basics.timezones],
    dateFormat: workspace.basics.dateFormat || 'relative',
  };
  const form = useForm({
    mode: 'controlled',
    initialValues,
    validate: {
      name: (value) => (Basics.shape.name.safeParse(value).success ? null : 'Name is required'),
      timezones: (value) => (value.length ? null : 'Choose at least one time zone'),
    },
  });

  const handleReset = () => {
    form.setInitialValues(initialValues);
    form.reset();
  };

  const handleSubmit = form.onSubmit((values) =>
    update.mutate(
      {
        basics: { ...values, name: values.name.trim(), stages: normaliseStages(values.stages) },
        baseVersion: workspace.version,
      },
      {
        onSuccess: (saved) => {
          const next = {
            name: saved.basics.name,
            domains: [...saved.basics.domains],
            stages: normaliseStages(saved.basics.stages),
            timezones: [...saved.basics.timezones],
            dateFormat: saved.basics.dateFormat || 'relative',
          };
          form.setInitialValues(next);
          form.setValues(next);
          showToast({ color: 'teal', message: 'Basics saved' });
        },
      },
    ),
  );

  const dateFormats = DATE_FORMATS.some((f) => f.value === form.values.dateFormat)
    ? DATE_FORMATS
    : [...DATE_FORMATS, { value: form.values.dateFormat, label: form.values.dateFormat }];

  return (
    <form onSubmit={handleSubmit} noValidate>
      <SaveErrorAlert error={update.error} workspaceId={workspace.id} onReload={handleReset} />
      <Stack gap="lg">
        <Card p="lg">
          <Stack gap="md">
            <TextInput label="Workspace name" {...form.getInputProps('name')} />
            <TextInput
              label="Workspace address"
              value={`/${workspace.id}`}
              readOnly
              variant="filled"
              description="The address cannot be changed."
            />
          </Stack>
        </Card>
        <Card p="lg">
          <Stack gap="sm">
            <Title order={5}>Domains</Title>
            <Text size="sm" c="dimmed">
              Turning a domain off hides its content types; roles keep only the types that still exist.
            </Text>
            <DomainPicker
              value={form.values.domains}
              onChange={(value) => form.setFieldValue('domains', value)}
            />
          </Stack>
        </Card>
        <Card p="lg">
          <Stack gap="md">
            <StagesInput
              value={form.values.stages}
              onChange={(value) => form.setFieldValue('stages', value)}
            />
            <TimezonesInput
              value={form.values.timezones}
              onChange={(value) => form.setFieldValue('timezones', value)}
              error={form.errors.timezones as string | undefined}
            />
            <Select
              label="Date format"
              data={dateFormats}
              allowDeselect={false}
              {...form.getInputProps('dateFormat')}
            />
          </Stack>
        </Card>
      </Stack>
      <SaveBar isDirty={form.isDirty()} isSaving={update.isPending} onReset={handleReset} />
    </form>
  );
}

import { useState } from 'react';
import { Alert, Button, Group, Paper, Radio, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCalendarTime, IconWorldOff } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { errorMessage } from '@web/lib/api-client';
import { formatDateTime } from '@web/lib/dates';
import { useUnpublishItem } from './api/publish-item';
import { useCreateSchedule } from './api/schedules';
import { SchedulePicker, useSchedulePicker } from './components/schedule-picker';
import { ItemSubScreen, type ItemScreenContext } from './components/item-sub-screen';
import { publishChips } from './item-labels';
import { itemScreenPath } from './item-paths';
import { showToast } from '@web/lib/toast';

/** /{workspace}/{domain}/{schema}/{id}/un-publish: removes the copy from a stage. */
export default function UnpublishRoute() {
  return <ItemSubScreen section="Unpublish">{(context) => <UnpublishScreen {...context} />}</ItemSubScreen>;
}

function UnpublishScreen({ workspace, domain, schema, item }: ItemScreenContext) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const published = publishChips(item.publishStatus, workspace.basics.stages, { publishedOnly: true });
  const [stage, setStage] = useState(
    () => published.find((c) => c.stage === params.get('stage'))?.stage ?? published[0]?.stage ?? '',
  );
  const unpublish = useUnpublishItem();
  const picker = useSchedulePicker(workspace);
  const schedule = useCreateSchedule(workspace.id, schema.name, item.id);
  const back = itemScreenPath(workspace.id, domain.name, schema.name, item.id);
  const chosen = published.find((c) => c.stage === stage);

  if (!published.length) {
    return (
      <Stack gap="md">
        <Text>This item is not published in any stage.</Text>
        <Group>
          <Button component={Link} to={back} variant="default">
            Back to the item
          </Button>
        </Group>
      </Stack>
    );
  }

  const handleUnpublish = () =>
    unpublish.mutate(
      { ws: workspace.id, schema: schema.name, id: item.id, stage },
      {
        onSuccess: () => {
          showToast({ color: 'teal', message: `Unpublished from ${chosen?.stageLabel ?? stage}` });
          navigate(back);
        },
      },
    );

  const handleSchedule = () =>
    picker.at &&
    schedule.mutate(
      { stage, action: 'unpublish', at: picker.at.toISOString() },
      {
        onSuccess: () => {
          showToast({
            color: 'violet',
            message: `Scheduled to unpublish from ${chosen?.stageLabel ?? stage} ${picker.label} (${picker.zone})`,
          });
          navigate(back);
        },
      },
    );

  return (
    <Stack gap="md">
      {!item.abilities.canPublish && (
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
          You do not have permission to unpublish {schema.pluralTitle}.
        </Alert>
      )}
      <Paper withBorder radius="md" p="md">
        <Radio.Group label="Remove the published copy from" value={stage} onChange={setStage}>
          <Stack gap="xs" mt="xs">
            {published.map((chip) => {
              const copy = item.published[chip.stage];
              return (
                <Radio
                  key={chip.stage}
                  value={chip.stage}
                  label={`${chip.stageLabel}${copy ? ` (version ${copy.version}, published ${formatDateTime(copy.publishedAt)})` : ''}`}
                />
              );
            })}
          </Stack>
        </Radio.Group>
        <SchedulePicker picker={picker} nowLabel="Unpublish now" />
      </Paper>
      <Text size="sm" c="dimmed">
        The item itself and its change log stay; only the copy that websites and apps read from the stage is
        removed.
      </Text>
      {schedule.isError && (
        <Alert color="red" variant="light" role="alert" title="Scheduling failed">
          {errorMessage(schedule.error)}
        </Alert>
      )}
      {unpublish.isError && (
        <Alert color="red" variant="light" role="alert" title="Unpublishing failed">
          {errorMessage(unpublish.error)}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button component={Link} to={back} variant="default">
          Cancel
        </Button>
        {!picker.isLater ? (
          <Button
            color="red"
            leftSection={<IconWorldOff size={16} />}
            onClick={handleUnpublish}
            loading={unpublish.isPending}
            disabled={!item.abilities.canPublish}
          >
            Unpublish from {chosen?.stageLabel ?? stage}
          </Button>
        ) : (
          <Button
            leftSection={<IconCalendarTime size={16} />}
            onClick={handleSchedule}
            loading={schedule.isPending}
            disabled={!item.abilities.canPublish || !picker.at}
          >
            Schedule for {picker.label}
          </Button>
        )}
      </Group>
    </Stack>
  );
}

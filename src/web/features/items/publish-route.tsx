import { useState } from 'react';
import { Alert, Badge, Button, Checkbox, Group, Paper, Radio, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCalendarTime, IconUpload } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { approverRoleLabel } from '@shared/publishing/approvals';
import { errorMessage } from '@web/lib/api-client';
import { useCreateSchedule } from './api/schedules';
import { SchedulePicker, useSchedulePicker } from './components/schedule-picker';
import { usePublishItem } from './api/publish-item';
import { ItemSubScreen, type ItemScreenContext } from './components/item-sub-screen';
import { publishChips } from './item-labels';
import { itemScreenPath } from './item-paths';
import { showToast } from '@web/lib/toast';

/** /{workspace}/{domain}/{schema}/{id}/publish: copies the current version to a stage. */
export default function PublishRoute() {
  return <ItemSubScreen section="Publish">{(context) => <PublishScreen {...context} />}</ItemSubScreen>;
}

function PublishScreen({ workspace, domain, schema, item }: ItemScreenContext) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const chips = publishChips(item.publishStatus, workspace.basics.stages);
  const [stage, setStage] = useState(
    () => chips.find((c) => c.stage === params.get('stage'))?.stage ?? chips[0]?.stage ?? 'live',
  );
  const [publishRefs, setPublishRefs] = useState(true);
  const picker = useSchedulePicker(workspace);
  const publish = usePublishItem();
  const schedule = useCreateSchedule(workspace.id, schema.name, item.id);
  const back = itemScreenPath(workspace.id, domain.name, schema.name, item.id);
  const chosen = chips.find((c) => c.stage === stage);
  const hasRefs = Object.keys(item._references).length > 0;
  // The server refuses these (409); say so beside the button instead of after a click.
  const refusal = !item.abilities.canPublish
    ? null
    : item.remainingApprovals.length > 0
      ? 'Publishing is refused until every approval is in.'
      : item.hasErrors
        ? 'Publishing is refused until the item is complete.'
        : null;

  const handlePublish = () =>
    publish.mutate(
      { ws: workspace.id, schema: schema.name, id: item.id, stage, publishRefs: hasRefs && publishRefs },
      {
        onSuccess: (result) => {
          const others = result.published.length - 1;
          showToast({
            color: 'teal',
            message: `Published version ${item.version} to ${chosen?.stageLabel ?? stage}${others > 0 ? ` with ${others} referenced item(s)` : ''}`,
          });
          navigate(back);
        },
      },
    );

  const handleSchedule = () =>
    picker.at &&
    schedule.mutate(
      { stage, action: 'publish', at: picker.at.toISOString() },
      {
        onSuccess: () => {
          showToast({
            color: 'violet',
            message: `Scheduled to publish to ${chosen?.stageLabel ?? stage} ${picker.label} (${picker.zone})`,
          });
          navigate(back);
        },
      },
    );

  return (
    <Stack gap="md">
      {!item.abilities.canPublish && (
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
          You do not have permission to publish {schema.pluralTitle}.
        </Alert>
      )}
      {item.remainingApprovals.length > 0 && (
        <Alert
          color="yellow"
          variant="light"
          icon={<IconAlertTriangle size={18} />}
          title="Approvals remaining"
          data-testid="approvals-remaining"
        >
          Version {item.version} still needs approval from{' '}
          {item.remainingApprovals.map((roleId) => approverRoleLabel(workspace.roles, roleId)).join(', ')}.
          Publishing is refused until then.
        </Alert>
      )}
      {item.hasErrors && (
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />}>
          This item is incomplete. Finish editing before publishing.
        </Alert>
      )}
      <Paper withBorder radius="md" p="md">
        <Radio.Group label="Stage" value={stage} onChange={setStage}>
          <Stack gap="xs" mt="xs">
            {chips.map((chip) => (
              <Radio
                key={chip.stage}
                value={chip.stage}
                label={
                  <Group gap="xs">
                    <Text size="sm">{chip.stageLabel}</Text>
                    <Badge size="sm" color={chip.color} variant="light" tt="none">
                      {chip.status === 'CURRENT'
                        ? 'Current'
                        : chip.status === 'MODIFIED'
                          ? 'Modified'
                          : 'Not published'}
                    </Badge>
                  </Group>
                }
              />
            ))}
          </Stack>
        </Radio.Group>
        {hasRefs && (
          <Checkbox
            mt="md"
            label={`Also publish referenced items that are not current in ${chosen?.stageLabel ?? stage}`}
            checked={publishRefs}
            onChange={(e) => setPublishRefs(e.currentTarget.checked)}
          />
        )}
        <SchedulePicker picker={picker} nowLabel="Publish now" />
      </Paper>
      {chosen?.status === 'CURRENT' && (
        <Text size="sm" c="dimmed">
          Version {item.version} is already published to {chosen.stageLabel}. Publishing again refreshes the
          copy.
        </Text>
      )}
      {schedule.isError && (
        <Alert color="red" variant="light" role="alert" title="Scheduling failed">
          {errorMessage(schedule.error)}
        </Alert>
      )}
      {publish.isError && (
        <Alert color="red" variant="light" role="alert" title="Publishing failed">
          {errorMessage(publish.error)}
        </Alert>
      )}
      <Group justify="flex-end" wrap="wrap">
        {refusal && !picker.isLater && (
          <Text size="sm" c="orange.9" id="publish-refusal" data-testid="publish-refusal">
            {refusal}
          </Text>
        )}
        <Button component={Link} to={back} variant="default">
          Cancel
        </Button>
        {!picker.isLater ? (
          <Button
            leftSection={<IconUpload size={16} />}
            onClick={handlePublish}
            loading={publish.isPending}
            disabled={!item.abilities.canPublish || refusal !== null}
            aria-describedby={refusal ? 'publish-refusal' : undefined}
          >
            Publish to {chosen?.stageLabel ?? stage}
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

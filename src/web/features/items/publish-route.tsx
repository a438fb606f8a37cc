import { useState } from 'react';
import { Alert, Badge, Button, Checkbox, Group, Paper, Radio, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconUpload } from '@tabler/icons-react';
import type { Item } from '@shared/api/items';
import type { Workspace } from '@shared/api/workspaces';
import { approverRoleLabel } from '@shared/publishing/approvals';
import type { SchemaType } from '@shared/schemas/types';
import { SchedulePicker } from './components/schedule-picker';
import { usePublishItem } from './api/publish-item';
import { ItemSubScreen, type ItemScreenContext } from './components/item-sub-screen';
import { StageActionFooter } from './components/stage-action-footer';
import { UrlChangeWarning } from './components/url-change-warning';
import { useStageAction } from './components/use-stage-action';
import { publishChips, type PublishChip } from './item-labels';

/** /{workspace}/{domain}/{schema}/{id}/publish: copies the current version to a stage. */
export default function PublishRoute() {
  return <ItemSubScreen section="Publish">{(context) => <PublishScreen {...context} />}</ItemSubScreen>;
}

/** Why the server would refuse (409) a permitted publish, said beside the button instead of after a click. */
function publishRefusal(item: Item) {
  if (!item.abilities.canPublish) return null;
  if (item.remainingApprovals.length > 0) return 'Publishing is refused until every approval is in.';
  if (item.hasErrors) return 'Publishing is refused until the item is complete.';
  return null;
}

/** What stands in the way of publishing: permission, approvals still to come, an incomplete item. */
function PublishObstacles({
  item,
  schema,
  roles,
}: {
  item: Item;
  schema: SchemaType;
  roles: Workspace['roles'];
}) {
  return (
    <>
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
          {item.remainingApprovals.map((roleId) => approverRoleLabel(roles, roleId)).join(', ')}. Publishing
          is refused until then.
        </Alert>
      )}
      {item.hasErrors && (
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />}>
          This item is incomplete. Finish editing before publishing.
        </Alert>
      )}
    </>
  );
}

function StageWithStatus({ chip }: { chip: PublishChip }) {
  return (
    <Group gap="xs">
      <Text size="sm">{chip.stageLabel}</Text>
      <Badge size="sm" color={chip.color} variant="light" tt="none">
        {chip.status === 'CURRENT' ? 'Current' : chip.status === 'MODIFIED' ? 'Modified' : 'Not published'}
      </Badge>
    </Group>
  );
}

function PublishScreen(context: ItemScreenContext) {
  const { workspace, schema, item } = context;
  const chips = publishChips(item.publishStatus, workspace.basics.stages);
  const flow = useStageAction(context, chips, { action: 'publish', fallbackStage: 'live' });
  const { stage, chosen, stageLabel, picker } = flow;
  const [publishRefs, setPublishRefs] = useState(true);
  const publish = usePublishItem();
  const hasRefs = Object.keys(item._references).length > 0;
  const refusal = publishRefusal(item);

  const handlePublish = () =>
    publish.mutate(
      { ws: workspace.id, schema: schema.name, id: item.id, stage, publishRefs: hasRefs && publishRefs },
      {
        onSuccess: (result) => {
          const others = result.published.length - 1;
          flow.finish(
            'teal',
            `Published version ${item.version} to ${stageLabel}${others > 0 ? ` with ${others} referenced item(s)` : ''}`,
          );
        },
      },
    );

  return (
    <Stack gap="md">
      <PublishObstacles item={item} schema={schema} roles={workspace.roles} />
      <UrlChangeWarning workspaceId={workspace.id} schema={schema} item={item} stage={stage} />
      <Paper withBorder radius="md" p="md">
        <Radio.Group label="Stage" value={stage} onChange={flow.setStage}>
          <Stack gap="xs" mt="xs">
            {chips.map((chip) => (
              <Radio key={chip.stage} value={chip.stage} label={<StageWithStatus chip={chip} />} />
            ))}
          </Stack>
        </Radio.Group>
        {hasRefs && (
          <Checkbox
            mt="md"
            label={`Also publish referenced items that are not current in ${stageLabel}`}
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
      <StageActionFooter
        flow={flow}
        canAct={item.abilities.canPublish}
        error={publish.error}
        errorTitle="Publishing failed"
        note={
          refusal &&
          !picker.isLater && (
            <Text size="sm" c="orange.9" id="publish-refusal" data-testid="publish-refusal">
              {refusal}
            </Text>
          )
        }
        nowButton={
          <Button
            leftSection={<IconUpload size={16} />}
            onClick={handlePublish}
            loading={publish.isPending}
            disabled={!item.abilities.canPublish || refusal !== null}
            aria-describedby={refusal ? 'publish-refusal' : undefined}
          >
            Publish to {stageLabel}
          </Button>
        }
      />
    </Stack>
  );
}

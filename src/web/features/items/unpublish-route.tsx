import { Alert, Button, Group, Paper, Radio, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconWorldOff } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatDateTime } from '@web/lib/dates';
import { useUnpublishItem } from './api/publish-item';
import { SchedulePicker } from './components/schedule-picker';
import { ItemSubScreen, type ItemScreenContext } from './components/item-sub-screen';
import { StageActionFooter } from './components/stage-action-footer';
import { useStageAction } from './components/use-stage-action';
import { publishChips } from './item-labels';

/** /{workspace}/{domain}/{schema}/{id}/un-publish: removes the copy from a stage. */
export default function UnpublishRoute() {
  return <ItemSubScreen section="Unpublish">{(context) => <UnpublishScreen {...context} />}</ItemSubScreen>;
}

function UnpublishScreen(context: ItemScreenContext) {
  const { workspace, schema, item } = context;
  const published = publishChips(item.publishStatus, workspace.basics.stages, { publishedOnly: true });
  const flow = useStageAction(context, published, { action: 'unpublish', fallbackStage: '' });
  const { stage, stageLabel, picker } = flow;
  const unpublish = useUnpublishItem();

  if (!published.length) {
    return (
      <Stack gap="md">
        <Text>This item is not published in any stage.</Text>
        <Group>
          <Button component={Link} to={flow.back} variant="default">
            Back to the item
          </Button>
        </Group>
      </Stack>
    );
  }

  const handleUnpublish = () =>
    unpublish.mutate(
      { ws: workspace.id, schema: schema.name, id: item.id, stage },
      { onSuccess: () => flow.finish('teal', `Unpublished from ${stageLabel}`) },
    );

  return (
    <Stack gap="md">
      {!item.abilities.canPublish && (
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
          You do not have permission to unpublish {schema.pluralTitle}.
        </Alert>
      )}
      <Paper withBorder radius="md" p="md">
        <Radio.Group label="Remove the published copy from" value={stage} onChange={flow.setStage}>
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
      <StageActionFooter
        flow={flow}
        canAct={item.abilities.canPublish}
        error={unpublish.error}
        errorTitle="Unpublishing failed"
        nowButton={
          <Button
            color="red"
            leftSection={<IconWorldOff size={16} />}
            onClick={handleUnpublish}
            loading={unpublish.isPending}
            disabled={!item.abilities.canPublish}
          >
            Unpublish from {stageLabel}
          </Button>
        }
      />
    </Stack>
  );
}

import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconUpload, IconWorldOff } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Item } from '@shared/api/items';
import type { Workspace } from '@shared/api/workspaces';
import { formatDateTime } from '@web/lib/dates';
import { publishChips } from '../item-labels';
import { publishPath, unpublishPath } from '@web/lib/item-paths';

/** Publishing per stage: status chip, the copy's version, and Publish / Unpublish for publishers. */
export function PublishingPanel({
  workspace,
  domain,
  item,
}: {
  workspace: Workspace;
  domain: string;
  item: Item;
}) {
  const chips = publishChips(item.publishStatus, workspace.basics.stages);
  const { canPublish } = item.abilities;
  return (
    <Stack gap="sm" data-testid="publishing-panel">
      {chips.map((chip) => {
        const copy = item.published[chip.stage];
        return (
          <Paper key={chip.stage} withBorder radius="md" p="sm">
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Stack gap={2} style={{ minWidth: 0 }}>
                <Text fw={600} size="sm">
                  {chip.stageLabel}
                </Text>
                <Text size="xs" c="dimmed">
                  {copy
                    ? `Version ${copy.version} published ${formatDateTime(copy.publishedAt)}`
                    : 'No published copy'}
                </Text>
              </Stack>
              {chip.clickable ? (
                <Badge
                  component={Link}
                  to={publishPath(workspace.id, domain, item.schema, item.id, chip.stage)}
                  color={chip.color}
                  variant="light"
                  tt="none"
                  style={{ cursor: 'pointer', flexShrink: 0 }}
                  data-status={chip.status}
                >
                  {chip.status === 'CURRENT' ? 'Current' : 'Modified'}
                </Badge>
              ) : (
                <Badge
                  color="gray"
                  variant="outline"
                  tt="none"
                  style={{ flexShrink: 0 }}
                  data-status={chip.status}
                >
                  Not published
                </Badge>
              )}
            </Group>
            {canPublish && (
              <Group gap="xs" mt="xs">
                {chip.status !== 'CURRENT' && (
                  <Button
                    component={Link}
                    to={publishPath(workspace.id, domain, item.schema, item.id, chip.stage)}
                    size="xs"
                    leftSection={<IconUpload size={14} />}
                  >
                    {chip.status === 'MODIFIED' ? 'Publish changes' : 'Publish'}
                  </Button>
                )}
                {chip.status !== 'NOT_PUBLISHED' && (
                  <Button
                    component={Link}
                    to={unpublishPath(workspace.id, domain, item.schema, item.id, chip.stage)}
                    size="xs"
                    variant="default"
                    leftSection={<IconWorldOff size={14} />}
                  >
                    Unpublish
                  </Button>
                )}
              </Group>
            )}
          </Paper>
        );
      })}
      {!canPublish && (
        <Text size="xs" c="dimmed">
          You cannot publish this type of item.
        </Text>
      )}
    </Stack>
  );
}

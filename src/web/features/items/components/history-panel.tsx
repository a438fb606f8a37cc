import { Alert, Anchor, Button, Loader, Stack, Text, Timeline } from '@mantine/core';
import { IconGitCompare } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Item } from '@shared/api/items';
import type { Workspace } from '@shared/api/workspaces';
import { errorMessage } from '@web/lib/api-client';
import { formatDateTime } from '@web/lib/dates';
import { useHistory } from '../api/get-history';
import { useMembers } from '@web/lib/members';
import { userLabel } from '../item-labels';
import { changelogPath } from '@web/lib/item-paths';
import { RestoreVersionButton } from './restore-version-button';

/** The newest versions of the change log, each linking to a comparison with the one before. */
export function HistoryPanel({
  workspace,
  domain,
  item,
}: {
  workspace: Workspace;
  domain: string;
  item: Item;
}) {
  const history = useHistory(workspace.id, item.schema, item.id);
  const members = useMembers(workspace.id);
  const base = changelogPath(workspace.id, domain, item.schema, item.id);
  if (history.isPending) return <Loader size="sm" />;
  if (history.isError) {
    return (
      <Alert color="red" variant="light" role="alert">
        {errorMessage(history.error)}
      </Alert>
    );
  }
  const versions = history.data.versions.slice(0, 8);
  return (
    <Stack gap="md" data-testid="history-panel">
      <Timeline bulletSize={14} lineWidth={2} active={0}>
        {versions.map((version) => (
          <Timeline.Item
            key={version.id}
            title={
              <Text size="sm" fw={600}>
                Version {version.thisVersion}
              </Text>
            }
          >
            <Text size="xs" c="dimmed">
              {userLabel(version.by, version.byName, members.data?.members)} · {formatDateTime(version.at)}
            </Text>
            {version.previousVersion !== null && (
              <Anchor
                component={Link}
                to={`${base}?from=${version.previousVersion}&to=${version.thisVersion}`}
                size="xs"
              >
                Compare with version {version.previousVersion}
              </Anchor>
            )}
            <RestoreVersionButton ws={workspace.id} item={item} num={version.thisVersion} />
          </Timeline.Item>
        ))}
      </Timeline>
      <Button component={Link} to={base} variant="light" size="xs" leftSection={<IconGitCompare size={14} />}>
        Open change log
      </Button>
    </Stack>
  );
}

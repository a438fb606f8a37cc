import { useState } from 'react';
import { Anchor, Badge, Button, Card, EmptyState, Group, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconPackage, IconPlus } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import type { ReleaseSummary } from '@shared/api/releases';
import type { Workspace } from '@shared/api/workspaces';
import { FormError } from '@web/components/form-error';
import { PageHeader } from '@web/components/page-header';
import { useCurrentWorkspace } from '@web/lib/workspace';
import { useReleases } from '@web/lib/releases';
import { NewReleaseModal } from './components/new-release-modal';
import {
  RELEASE_STATE_LABELS,
  SCHEDULE_COLORS,
  releaseTimeLabel,
  scheduleLabel,
  stageLabelOf,
} from '@web/lib/release-labels';
import { useMemberName } from '@web/lib/members';
import { releasePath } from '@web/lib/release-paths';

/** /{workspace}/_releases: the workspace's releases and 'New release'. */
export default function ReleasesRoute() {
  const workspace = useCurrentWorkspace();
  const navigate = useNavigate();
  const { data, isPending, error } = useReleases(workspace.id);
  const [isCreating, setCreating] = useState(false);
  const mayCreate = workspace.__permissions.canPublish.length > 0;
  const isWide = useMediaQuery('(min-width: 48em)', true);

  return (
    <>
      <PageHeader
        title="Releases"
        description="Items published or unpublished together in one stage, all or nothing."
        actions={
          mayCreate && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
              New release
            </Button>
          )
        }
      />
      <FormError error={error} />
      {isPending ? (
        <Skeleton h={160} radius="md" />
      ) : data && data.releases.length === 0 ? (
        <Card p={48} withBorder>
          <EmptyState
            icon={<IconPackage size={28} />}
            variant="light"
            title="No releases yet"
            description={
              mayCreate
                ? 'Create one, then add items to it from their screen or from a list.'
                : 'Members who may publish create releases here.'
            }
          />
        </Card>
      ) : data ? (
        <Card p={0} withBorder>
          {isWide ? (
            <ReleasesTable workspace={workspace} releases={data.releases} />
          ) : (
            <ReleaseCards workspace={workspace} releases={data.releases} />
          )}
        </Card>
      ) : null}
      {isCreating && (
        <NewReleaseModal
          workspace={workspace}
          opened
          onClose={() => setCreating(false)}
          onCreated={(release) => navigate(releasePath(workspace.id, release.id))}
        />
      )}
    </>
  );
}

interface ReleasesProps {
  workspace: Workspace;
  releases: ReleaseSummary[];
}

function StateBadge({ release }: { release: ReleaseSummary }) {
  const state = RELEASE_STATE_LABELS[release.state];
  return (
    <Badge color={state.color} variant="light" tt="none">
      {state.label}
    </Badge>
  );
}

/** Where the release's scheduled publish stands; nothing without a schedule. */
function ScheduleLine({ ws, release }: { ws: string; release: ReleaseSummary }) {
  const nameOf = useMemberName(ws);
  const line = scheduleLabel(release, nameOf(release.scheduledBy));
  if (!line || !release.scheduleStatus) return null;
  return (
    <Text size="xs" c={`${SCHEDULE_COLORS[release.scheduleStatus]}.8`} data-testid="release-schedule">
      {line}
    </Text>
  );
}

function ReleasesTable({ workspace, releases }: ReleasesProps) {
  return (
    <Table verticalSpacing="sm" horizontalSpacing="md" aria-label="Releases" highlightOnHover>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th>Stage</Table.Th>
          <Table.Th>Entries</Table.Th>
          <Table.Th>State</Table.Th>
          <Table.Th>Publish time</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {releases.map((release) => (
          <Table.Tr key={release.id} data-testid="release-row">
            <Table.Td maw={320}>
              <Anchor component={Link} to={releasePath(workspace.id, release.id)} fw={600}>
                {release.name}
              </Anchor>
              {release.description && (
                <Text size="xs" c="dimmed" truncate="end">
                  {release.description}
                </Text>
              )}
            </Table.Td>
            <Table.Td>{stageLabelOf(workspace.basics.stages, release.stage)}</Table.Td>
            <Table.Td>{release.entryCount}</Table.Td>
            <Table.Td>
              <StateBadge release={release} />
            </Table.Td>
            <Table.Td>
              <Text size="sm">{releaseTimeLabel(release)}</Text>
              <ScheduleLine ws={workspace.id} release={release} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** On phones each release is a card: its name, then stage, size, state and time. */
function ReleaseCards({ workspace, releases }: ReleasesProps) {
  return (
    <Stack gap={0} component="ul" p={0} m={0} aria-label="Releases" style={{ listStyle: 'none' }}>
      {releases.map((release, i) => (
        <Stack
          component="li"
          key={release.id}
          gap={4}
          p="md"
          data-testid="release-row"
          style={i > 0 ? { borderTop: '1px solid var(--mantine-color-default-border)' } : undefined}
        >
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Anchor component={Link} to={releasePath(workspace.id, release.id)} fw={600}>
              {release.name}
            </Anchor>
            <StateBadge release={release} />
          </Group>
          <Text size="sm" c="dimmed">
            {stageLabelOf(workspace.basics.stages, release.stage)} · {release.entryCount}{' '}
            {release.entryCount === 1 ? 'entry' : 'entries'} · {releaseTimeLabel(release)}
          </Text>
          <ScheduleLine ws={workspace.id} release={release} />
        </Stack>
      ))}
    </Stack>
  );
}

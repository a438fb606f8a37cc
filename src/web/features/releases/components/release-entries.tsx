import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Group,
  List,
  Stack,
  Table,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconCircleCheck, IconClockHour4, IconPin, IconX } from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { Link } from 'react-router';
import type { Release, ReleaseEntry } from '@shared/api/releases';
import type { ContentModel } from '@shared/model/registry';
import { useContentModel } from '@web/lib/content-model';
import { PUBLISH_STATUS_COLORS, PUBLISH_STATUS_WORDS } from '@web/lib/publish-status';
import { approvalsPath, itemPathOf } from '@web/lib/item-paths';
import { entryPublishStatus, entryVersionLabel } from '@web/lib/release-labels';

interface EntryActions {
  /** Draft releases change; published ones are read as they went out. */
  isEditable: boolean;
  onPin: (entry: ReleaseEntry, version: number) => void;
  onRemove: (entry: ReleaseEntry) => void;
  busyItemId: string | null;
}

/** The entry's state in the release's stage, as the item chips show it (spec §4). */
function EntryPublishChip({ entry, stageLabel }: { entry: ReleaseEntry; stageLabel: string }) {
  const status = entryPublishStatus(entry);
  return (
    <Badge
      color={PUBLISH_STATUS_COLORS[status]}
      variant={status === 'NOT_PUBLISHED' ? 'outline' : 'light'}
      tt="none"
      data-status={status}
      data-testid="entry-publish-chip"
    >
      {`${stageLabel}: ${PUBLISH_STATUS_WORDS[status]}`}
    </Badge>
  );
}

function EntryApprovalChip({ ws, domain, entry }: { ws: string; domain: string; entry: ReleaseEntry }) {
  if (entry.action === 'unpublish') return null;
  const approved = entry.fullyApproved;
  return (
    <Badge
      component={Link}
      to={approvalsPath(ws, domain, entry.schema, entry.itemId)}
      color={approved ? 'teal' : 'yellow'}
      variant={approved ? 'light' : 'outline'}
      tt="none"
      style={{ cursor: 'pointer' }}
      leftSection={approved ? <IconCircleCheck size={12} /> : <IconClockHour4 size={12} />}
      data-testid="entry-approval-chip"
      title="Open the item's approvals"
    >
      {approved ? 'Approved' : 'Awaiting approval'}
    </Badge>
  );
}

function EntryVersion({ entry, actions }: { entry: ReleaseEntry; actions: EntryActions }) {
  return (
    <Stack gap={4} align="flex-start">
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {entryVersionLabel(entry)}
      </Text>
      {entry.hasNewerVersion && entry.currentVersion !== null && (
        <Stack gap={4} align="flex-start">
          <Badge color="orange" variant="light" tt="none" data-testid="entry-newer">
            Newer version exists
          </Badge>
          {actions.isEditable && (
            <Button
              size="compact-xs"
              variant="light"
              leftSection={<IconPin size={12} />}
              loading={actions.busyItemId === entry.itemId}
              onClick={() => actions.onPin(entry, entry.currentVersion!)}
            >
              Pin version {entry.currentVersion}
            </Button>
          )}
        </Stack>
      )}
    </Stack>
  );
}

function EntryBlockers({ entry }: { entry: ReleaseEntry }) {
  if (entry.blockers.length === 0)
    return (
      <Text size="sm" c="teal.9">
        Ready
      </Text>
    );
  return (
    <List size="sm" c="red.8" spacing={2} data-testid="entry-blockers">
      {entry.blockers.map((blocker) => (
        <List.Item key={blocker}>{blocker}</List.Item>
      ))}
    </List>
  );
}

/** The cells of one entry, placed by the table (wide screens) or a card (phones). */
function entryParts(
  model: ContentModel,
  ws: string,
  release: Release,
  entry: ReleaseEntry,
  stageLabel: string,
  actions: EntryActions,
) {
  const title = entry.label || entry.itemId;
  const domain = model.domainOf(entry.schema)?.name ?? '_';
  const itemPath = itemPathOf(model, ws, entry.schema, entry.itemId);
  // The item's page on the website as the release will leave it, in the item screen's preview pane.
  const isPreviewable =
    release.state === 'draft' &&
    entry.action === 'publish' &&
    entry.currentVersion !== null &&
    (model.schema(entry.schema)?.previewUrls?.length ?? 0) > 0;
  return {
    item: (
      <>
        <Anchor component={Link} to={itemPath} fw={600} lineClamp={2}>
          {title}
        </Anchor>
        <Text size="xs" c="dimmed">
          {model.schema(entry.schema)?.title ?? entry.schema}
          {entry.addedByName && ` · added by ${entry.addedByName}`}
        </Text>
        {isPreviewable && (
          <Anchor
            component={Link}
            to={`${itemPath}?preview&release=${encodeURIComponent(release.id)}`}
            size="xs"
            aria-label={`Preview ${title} in this release`}
          >
            Preview in this release
          </Anchor>
        )}
      </>
    ),
    action: <Text size="sm">{entry.action === 'publish' ? 'Publish' : 'Unpublish'}</Text>,
    version: <EntryVersion entry={entry} actions={actions} />,
    status: (
      <Group gap={6}>
        <EntryPublishChip entry={entry} stageLabel={stageLabel} />
        <EntryApprovalChip ws={ws} domain={domain} entry={entry} />
      </Group>
    ),
    blockers: <EntryBlockers entry={entry} />,
    remove: actions.isEditable && (
      <Tooltip label="Remove from the release">
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={`Remove ${title} from the release`}
          loading={actions.busyItemId === entry.itemId}
          onClick={() => actions.onRemove(entry)}
        >
          <IconX size={16} />
        </ActionIcon>
      </Tooltip>
    ),
  };
}

interface ReleaseEntriesProps {
  ws: string;
  release: Release;
  stageLabel: string;
  actions: EntryActions;
}

/** The entries of a release: what each one does, at which version, its chips, and what blocks it. */
export function ReleaseEntries(props: ReleaseEntriesProps) {
  const isWide = useMediaQuery('(min-width: 62em)', true);
  const model = useContentModel();
  return isWide ? <EntriesTable {...props} model={model} /> : <EntryCards {...props} model={model} />;
}

type EntriesProps = ReleaseEntriesProps & { model: ContentModel };

function EntriesTable({ model, ws, release, stageLabel, actions }: EntriesProps) {
  return (
    <Table verticalSpacing="sm" horizontalSpacing="md" aria-label="Entries">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Item</Table.Th>
          <Table.Th>Action</Table.Th>
          <Table.Th>Version</Table.Th>
          <Table.Th>Status</Table.Th>
          <Table.Th>Blocked by</Table.Th>
          {actions.isEditable && (
            <Table.Th>
              <VisuallyHidden>Remove</VisuallyHidden>
            </Table.Th>
          )}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {release.entries.map((entry) => {
          const parts = entryParts(model, ws, release, entry, stageLabel, actions);
          return (
            <Table.Tr
              key={`${entry.schema}/${entry.itemId}`}
              data-testid="release-entry"
              data-item-id={entry.itemId}
            >
              <Table.Td maw={280}>{parts.item}</Table.Td>
              <Table.Td>{parts.action}</Table.Td>
              <Table.Td>{parts.version}</Table.Td>
              <Table.Td>{parts.status}</Table.Td>
              <Table.Td maw={300}>{parts.blockers}</Table.Td>
              {actions.isEditable && <Table.Td ta="right">{parts.remove}</Table.Td>}
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}

/** On phones each entry is a card: the item and its remove button, then the rest one under the other. */
function EntryCards({ model, ws, release, stageLabel, actions }: EntriesProps) {
  return (
    <Stack gap={0} component="ul" p={0} m={0} aria-label="Entries" style={{ listStyle: 'none' }}>
      {release.entries.map((entry) => {
        const parts = entryParts(model, ws, release, entry, stageLabel, actions);
        return (
          <Stack
            component="li"
            key={`${entry.schema}/${entry.itemId}`}
            gap={6}
            p="md"
            style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
            data-testid="release-entry"
            data-item-id={entry.itemId}
          >
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <div style={{ minWidth: 0 }}>{parts.item}</div>
              {parts.remove}
            </Group>
            <Group gap="xs">
              {parts.action}
              <Text size="sm" c="dimmed">
                ·
              </Text>
              {parts.version}
            </Group>
            {parts.status}
            {parts.blockers}
          </Stack>
        );
      })}
    </Stack>
  );
}

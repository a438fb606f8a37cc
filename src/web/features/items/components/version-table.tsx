import { Badge, Paper, Table } from '@mantine/core';
import type { Item } from '@shared/api/items';
import type { Member } from '@shared/api/workspaces';
import { LocaleChangeChips } from '@web/components/item-form/locale-change-chips';
import { formatDateTime } from '@web/lib/dates';
import { userLabel } from '../item-labels';
import type { HistoryEntry } from './history-locale-filter';
import { RestoreVersionButton } from './restore-version-button';

/**
 * Every version of an item, newest first, with the locales each changed (where the schema has localised
 * fields), the two being compared highlighted, each one restorable.
 */
export function VersionTable({
  workspaceId,
  item,
  versions,
  members,
  compared,
}: {
  workspaceId: string;
  item: Item;
  versions: readonly HistoryEntry[];
  members: readonly Member[] | undefined;
  compared: readonly number[];
}) {
  const withChanges = versions.some((v) => v.changes);
  return (
    <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
      <Table.ScrollContainer minWidth={withChanges ? 720 : 560} type="native">
        <Table highlightOnHover verticalSpacing="xs" data-testid="changelog-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Version</Table.Th>
              <Table.Th>Saved by</Table.Th>
              <Table.Th>When</Table.Th>
              {withChanges && <Table.Th>Changed</Table.Th>}
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {versions.map((v) => (
              <Table.Tr
                key={v.id}
                data-version={v.thisVersion}
                bg={compared.includes(v.thisVersion) ? 'var(--mantine-primary-color-light)' : undefined}
              >
                <Table.Td fw={600}>{v.thisVersion}</Table.Td>
                <Table.Td>{userLabel(v.by, v.byName, members)}</Table.Td>
                <Table.Td>{formatDateTime(v.at)}</Table.Td>
                {withChanges && (
                  <Table.Td>
                    {v.changes && (
                      <LocaleChangeChips changes={v.changes} label={`Version ${v.thisVersion} changed`} />
                    )}
                  </Table.Td>
                )}
                <Table.Td ta="right">
                  {v.thisVersion === item.version && (
                    <Badge size="xs" color="teal" variant="light">
                      Current
                    </Badge>
                  )}
                  <RestoreVersionButton ws={workspaceId} item={item} num={v.thisVersion} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

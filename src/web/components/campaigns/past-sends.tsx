import { Badge, Button, Table, Text, VisuallyHidden } from '@mantine/core';
import type { CampaignSend } from '@shared/api/campaigns';
import { formatDateTime } from '@web/lib/dates';
import { formatCount } from './format';
import { STATE_COLORS } from './send-progress';

const total = (sends: readonly CampaignSend[], count: 'sent' | 'recipients') =>
  sends.reduce((sum, send) => sum + send.counts[count], 0);

/** The campaign's sends, newest first, each with a button that shows its results; then their total. */
export function PastSends({
  sends,
  selectedId,
  onSelect,
}: {
  sends: readonly CampaignSend[];
  selectedId: string | null;
  onSelect: (sendId: string) => void;
}) {
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table verticalSpacing={6} fz="sm" aria-label="Sends">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Started</Table.Th>
            <Table.Th>By</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th>To</Table.Th>
            <Table.Th ta="right">Sent</Table.Th>
            <Table.Th>
              <VisuallyHidden>Results</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {sends.map((send) => {
            const isSelected = send.id === selectedId;
            const when = formatDateTime(send.startedAt ?? send.createdAt);
            return (
              <Table.Tr key={send.id} bg={isSelected ? 'var(--mantine-primary-color-light)' : undefined}>
                <Table.Td>{when}</Table.Td>
                <Table.Td>{send.createdByName}</Table.Td>
                <Table.Td>
                  <Badge
                    size="sm"
                    variant="light"
                    color={STATE_COLORS[send.state]}
                    styles={{ label: { overflow: 'visible' } }}
                  >
                    {send.state}
                  </Badge>
                  {send.error && (
                    <Text size="xs" c="red">
                      {send.error}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{send.everyone ? 'Everyone' : 'New members'}</Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {formatCount(send.counts.sent)} / {formatCount(send.counts.recipients)}
                </Table.Td>
                <Table.Td ta="right">
                  <Button
                    size="compact-xs"
                    variant={isSelected ? 'light' : 'subtle'}
                    aria-pressed={isSelected}
                    disabled={send.startedAt === null}
                    aria-label={`Results of the send of ${when}`}
                    onClick={() => onSelect(send.id)}
                  >
                    Results
                  </Button>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
        {sends.length > 1 && (
          <Table.Tfoot>
            <Table.Tr fw={600}>
              <Table.Td colSpan={4}>Total of {formatCount(sends.length)} sends</Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }} data-testid="sends-total">
                {formatCount(total(sends, 'sent'))} / {formatCount(total(sends, 'recipients'))}
              </Table.Td>
              <Table.Td />
            </Table.Tr>
          </Table.Tfoot>
        )}
      </Table>
    </Table.ScrollContainer>
  );
}

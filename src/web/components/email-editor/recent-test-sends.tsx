import { Badge, Table, Text } from '@mantine/core';
import type { TestSendRecord } from '@shared/api/email';
import { formatDateTime } from '@web/lib/dates';

const STATUS_COLORS: Record<string, string> = { sent: 'teal', failed: 'red', sending: 'gray' };

/** The email's recent test sends: when, by whom, to whom, through which provider, and how it went. */
export function RecentTestSends({ testSends }: { testSends: readonly TestSendRecord[] }) {
  return (
    <Table.ScrollContainer minWidth={520}>
      <Table verticalSpacing={6} fz="sm" aria-label="Recent test sends">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>When</Table.Th>
            <Table.Th>By</Table.Th>
            <Table.Th>To</Table.Th>
            <Table.Th>Provider</Table.Th>
            <Table.Th>Result</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {testSends.map((row) => (
            <Table.Tr key={row.id}>
              <Table.Td>{formatDateTime(row.at)}</Table.Td>
              <Table.Td>{row.byName}</Table.Td>
              <Table.Td>{row.recipients.join(', ')}</Table.Td>
              <Table.Td>{row.provider}</Table.Td>
              <Table.Td>
                <Badge size="sm" variant="light" color={STATUS_COLORS[row.status] ?? 'gray'}>
                  {row.status}
                </Badge>
                {row.error && (
                  <Text size="xs" c="red">
                    {row.error}
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

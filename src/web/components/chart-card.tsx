import { useState, type ReactNode } from 'react';
import { Card, Group, SegmentedControl, Table, Text } from '@mantine/core';

export interface TableView {
  columns: string[];
  rows: (string | number)[][];
}

/** A dashboard card: a chart, or the same numbers as a table (for reading exact values and for screen readers). */
export function ChartCard({
  title,
  chart,
  table,
  testId,
}: {
  title: string;
  chart: ReactNode;
  table: TableView;
  testId: string;
}) {
  const [mode, setMode] = useState('chart');
  return (
    <Card withBorder radius="md" padding="md" data-testid={testId}>
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Text fw={600}>{title}</Text>
        <SegmentedControl
          size="xs"
          value={mode}
          onChange={setMode}
          data={[
            { value: 'chart', label: 'Chart' },
            { value: 'table', label: 'Table' },
          ]}
          aria-label={`${title}: chart or table`}
        />
      </Group>
      {mode === 'chart' ? (
        chart
      ) : (
        <Table striped withTableBorder aria-label={title}>
          <Table.Thead>
            <Table.Tr>
              {table.columns.map((column) => (
                <Table.Th key={column}>{column}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {table.rows.map((row, i) => (
              <Table.Tr key={i}>
                {row.map((cell, j) => (
                  <Table.Td key={j}>{cell}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}

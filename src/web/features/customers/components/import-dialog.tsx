import { useState } from 'react';
import { Alert, Button, FileInput, Group, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { BatchErrors, BatchProgress } from '@web/components/batch-progress';
import { useImportCustomerData, useRunningBatch, type ImportKind } from '../api/import-customer-data';

const HINTS: Record<ImportKind, string> = {
  profiles: 'CSV with a header row: id, then attribute keys. Or NDJSON: {"id", "attributes": {…}} per line.',
  'customer-events':
    'CSV with a header row: profileId, event, at, then property keys. Or NDJSON: {"profileId", "event", "at", "properties": {…}}.',
};

/** Choose a CSV or NDJSON file, import it, and watch its batch: progress, counts and row errors. */
export function ImportDialog({ ws, opened, onClose }: { ws: string; opened: boolean; onClose: () => void }) {
  const [kind, setKind] = useState<ImportKind>('profiles');
  const [file, setFile] = useState<File | null>(null);
  const importing = useImportCustomerData(ws);
  const running = useRunningBatch(ws, importing.isPending);
  const batch = importing.data ?? running.data ?? null;
  const handleClose = () => {
    importing.reset();
    setFile(null);
    onClose();
  };
  return (
    <Modal opened={opened} onClose={handleClose} title="Import customer data" size="lg">
      <Stack>
        <SegmentedControl
          data={[
            { value: 'profiles', label: 'Profiles' },
            { value: 'customer-events', label: 'Events' },
          ]}
          value={kind}
          onChange={(value) => {
            setKind(value as ImportKind);
            importing.reset();
          }}
          aria-label="What to import"
        />
        <Text size="sm" c="dimmed">
          {HINTS[kind]}
        </Text>
        <FileInput
          label="File"
          placeholder="Choose a .csv or .ndjson file"
          accept=".csv,.ndjson,.jsonl,text/csv,application/x-ndjson"
          value={file}
          onChange={(next) => {
            setFile(next);
            importing.reset();
          }}
          clearable
        />
        {importing.error && <Alert color="red">{importing.error.message}</Alert>}
        {batch && (
          <Stack gap="xs" data-testid="import-batch">
            <BatchProgress batch={batch} />
            <BatchErrors batch={batch} />
          </Stack>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={handleClose}>
            {importing.isSuccess ? 'Done' : 'Cancel'}
          </Button>
          <Button
            leftSection={<IconUpload size={16} />}
            disabled={!file}
            loading={importing.isPending}
            onClick={() => file && importing.mutate({ kind, file })}
          >
            Import
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

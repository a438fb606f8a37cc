import type { Dispatch } from 'react';
import { Alert, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { RowsAction, UploadRow } from './upload-rows';
import { UploadTable } from './upload-table';
import type { UploadTotals } from './upload-totals';

export interface UploadDetailsStepProps {
  rows: UploadRow[];
  totals: UploadTotals;
  workspaceId: string;
  dispatch: Dispatch<RowsAction>;
  saving: boolean;
  /** What the last Save Images left unsaved, or null. */
  saveSummary: string | null;
  onBack: () => void;
  onSave: () => void;
}

/** The upload dialog's second step: edit each image's details, then Save Images. */
export function UploadDetailsStep({
  rows,
  totals,
  workspaceId,
  dispatch,
  saving,
  saveSummary,
  onBack,
  onSave,
}: UploadDetailsStepProps) {
  const { uploaded, failed, uploading, saveable, percent } = totals;
  return (
    <Stack gap="md">
      <UploadTable rows={rows} workspaceId={workspaceId} dispatch={dispatch} disabled={saving} />
      {saveSummary && (
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} p="xs" role="alert">
          {saveSummary}
        </Alert>
      )}
      <Group justify="space-between" gap="sm">
        <Stack gap={4} style={{ flex: '1 1 14rem', maxWidth: 420 }}>
          <Text size="sm" c="dimmed">
            {rows.length} image{rows.length === 1 ? '' : 's'} · {uploaded} uploaded
            {failed ? ` · ${failed} failed` : ''} · {saveable.length} ready to save
          </Text>
          {uploading && <Progress value={percent} size="sm" animated aria-label="Uploads" />}
        </Stack>
        <Group gap="sm">
          <Button variant="default" onClick={onBack} disabled={saving}>
            Back
          </Button>
          <Button onClick={onSave} loading={saving} disabled={uploading || saveable.length === 0}>
            Save Images
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}

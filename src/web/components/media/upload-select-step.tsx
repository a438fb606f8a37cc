import { Alert, Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import '@mantine/dropzone/styles.css';
import { IconAlertTriangle } from '@tabler/icons-react';
import { UPLOAD_TIMEZONE } from '@shared/time/zones';
import { DropzoneStateIcon } from './dropzone-state-icon';
import { PickedFiles } from './picked-files';
import { UploadDateInput } from './upload-date-input';
import { IMAGE_ACCEPT, notAnImageDetail } from './upload-messages';
import type { UploadDates, UploadRow } from './upload-rows';
import type { UploadTotals } from './upload-totals';

const ZONE_NOTE = `Los Angeles time (${UPLOAD_TIMEZONE})`;

function ImagesDropzone({
  onDrop,
  onReject,
}: {
  onDrop: (files: File[]) => void;
  onReject: (messages: string[]) => void;
}) {
  return (
    <Dropzone
      onDrop={onDrop}
      onReject={(rejections) => onReject(rejections.map((r) => notAnImageDetail(r.file.name)))}
      accept={IMAGE_ACCEPT}
      multiple
      radius="md"
      inputProps={{ 'aria-label': 'Choose images to upload' }}
    >
      <Stack align="center" gap={6} py="xl" style={{ pointerEvents: 'none' }}>
        <DropzoneStateIcon size={40} />
        <Text size="lg" fw={550}>
          Drag images here or click to choose
        </Text>
        <Text size="sm" c="dimmed">
          Each image becomes an image set. JPEG, PNG, GIF, WebP, AVIF or TIFF.
        </Text>
      </Stack>
    </Dropzone>
  );
}

function RejectedFilesAlert({ messages, onClose }: { messages: string[]; onClose: () => void }) {
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      p="xs"
      withCloseButton
      onClose={onClose}
    >
      {messages.map((message) => (
        <Text key={message} size="sm">
          {message}
        </Text>
      ))}
    </Alert>
  );
}

function UploadDatesInputs({
  dates,
  datesInvalid,
  onChange,
}: {
  dates: UploadDates;
  datesInvalid: boolean;
  onChange: (dates: UploadDates) => void;
}) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <UploadDateInput
        label="Start time"
        description={`Optional, in ${ZONE_NOTE}`}
        value={dates.startTime}
        onChange={(startTime) => onChange({ ...dates, startTime })}
      />
      <UploadDateInput
        label="End time"
        description={`Optional, in ${ZONE_NOTE}`}
        value={dates.endTime}
        error={datesInvalid ? 'End time must be after the start time' : undefined}
        onChange={(endTime) => onChange({ ...dates, endTime })}
      />
    </SimpleGrid>
  );
}

export interface UploadSelectStepProps {
  rows: readonly UploadRow[];
  totals: UploadTotals;
  dates: UploadDates;
  datesInvalid: boolean;
  /** Why the last dropped files were refused. */
  rejected: string[];
  onDrop: (files: File[]) => void;
  onRejectedChange: (messages: string[]) => void;
  onDatesChange: (dates: UploadDates) => void;
  onRemove: (key: string) => void;
  onCancel: () => void;
  onNext: () => void;
}

/** The upload dialog's first step: pick images, with optional dates, and watch them upload. */
export function UploadSelectStep({
  rows,
  totals,
  dates,
  datesInvalid,
  rejected,
  onDrop,
  onRejectedChange,
  onDatesChange,
  onRemove,
  onCancel,
  onNext,
}: UploadSelectStepProps) {
  return (
    <Stack gap="md">
      <ImagesDropzone onDrop={onDrop} onReject={onRejectedChange} />
      {rejected.length > 0 && <RejectedFilesAlert messages={rejected} onClose={() => onRejectedChange([])} />}
      <UploadDatesInputs dates={dates} datesInvalid={datesInvalid} onChange={onDatesChange} />
      {rows.length > 0 && <PickedFiles rows={rows} totals={totals} onRemove={onRemove} />}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button
          disabled={rows.length === 0 || rows.length === totals.failed || datesInvalid}
          onClick={onNext}
        >
          Next
        </Button>
      </Group>
    </Stack>
  );
}

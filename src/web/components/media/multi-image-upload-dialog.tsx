import { useState } from 'react';
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Modal,
  Progress,
  ScrollArea,
  SimpleGrid,
  Stack,
  Stepper,
  Text,
} from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import '@mantine/dropzone/styles.css';
import { modals } from '@mantine/modals';
import {
  IconAlertTriangle,
  IconCircleCheck,
  IconPhoto,
  IconTrash,
  IconUpload,
  IconX,
} from '@tabler/icons-react';
import { UPLOAD_TIMEZONE } from '@shared/time/zones';
import { SizeDisplay } from '../fields/size-display';
import { UploadDateInput } from './upload-date-input';
import { UploadTable } from './upload-table';
import { IMAGE_ACCEPT, notAnImageDetail } from './upload-messages';
import { overallPercent } from './upload-progress';
import { isUploading, rowsToSave, type UploadRow } from './upload-rows';
import { useBulkUpload } from './use-bulk-upload';
import { showToast } from '@web/lib/toast';

export interface MultiImageUploadDialogProps {
  opened: boolean;
  onClose: () => void;
  workspaceId: string;
  /** After Save Images saved every row: the new image sets' ids. */
  onSaved?: (itemIds: string[]) => void;
}

const ZONE_NOTE = `Los Angeles time (${UPLOAD_TIMEZONE})`;

function PickedRow({ row, onRemove }: { row: UploadRow; onRemove: () => void }) {
  const done = row.status === 'uploaded' || row.status === 'saved';
  return (
    <Group gap="sm" wrap="nowrap" data-testid="picked-file" data-status={row.status}>
      {row.status === 'failed' ? (
        <IconAlertTriangle size={18} color="var(--mantine-color-red-6)" style={{ flexShrink: 0 }} />
      ) : done ? (
        <IconCircleCheck size={18} color="var(--mantine-color-teal-6)" style={{ flexShrink: 0 }} />
      ) : (
        <IconPhoto size={18} color="var(--mantine-color-dimmed)" style={{ flexShrink: 0 }} />
      )}
      <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text size="sm" truncate>
            {row.file.name}
          </Text>
          <Text size="xs" c={row.status === 'failed' ? 'red' : 'dimmed'} style={{ flexShrink: 0 }}>
            {row.status === 'failed'
              ? 'Failed'
              : done
                ? 'Uploaded'
                : row.status === 'queued'
                  ? 'Waiting'
                  : `${row.percent}%`}
          </Text>
        </Group>
        {row.status === 'failed' ? (
          <Text size="xs" c="red" lineClamp={2}>
            {row.error}
          </Text>
        ) : (
          <Progress
            value={done ? 100 : row.percent}
            size="xs"
            color={done ? 'teal' : undefined}
            aria-label={`Upload of ${row.file.name}`}
          />
        )}
      </Stack>
      <SizeDisplay
        bytes={row.file.size}
        size="xs"
        c="dimmed"
        style={{ flexShrink: 0, width: 72, textAlign: 'right' }}
      />
      <ActionIcon
        variant="subtle"
        color="gray"
        size="sm"
        aria-label={`Remove ${row.file.name}`}
        onClick={onRemove}
      >
        <IconTrash size={14} />
      </ActionIcon>
    </Group>
  );
}

/**
 * Spec §2 Multi-image upload dialog, §4 Image upload wizard: step 1 picks images (drag and drop or
 * click) with optional start and end dates, and uploads them; step 2 edits each image's name, alt text,
 * issues, dates and tags in a table; Save Images creates one image set per image, then the dialog closes.
 */
export function MultiImageUploadDialog({
  opened,
  onClose,
  workspaceId,
  onSaved,
}: MultiImageUploadDialogProps) {
  const { rows, dispatch, addFiles, saveAll, reset } = useBulkUpload(workspaceId);
  const [step, setStep] = useState(0);
  const [dates, setDates] = useState<{ startTime: string | null; endTime: string | null }>({
    startTime: null,
    endTime: null,
  });
  const [rejected, setRejected] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const [saveSummary, setSaveSummary] = useState<string | null>(null);

  const uploading = isUploading(rows);
  const failed = rows.filter((row) => row.status === 'failed').length;
  const uploaded = rows.filter((row) => row.record).length;
  const saveable = rowsToSave(rows);
  const datesInvalid =
    !!dates.startTime && !!dates.endTime && Date.parse(dates.endTime) <= Date.parse(dates.startTime);
  const percent = overallPercent(
    rows
      .filter((row) => row.status !== 'failed')
      .map((row) => ({ size: row.file.size, percent: row.record ? 100 : row.percent })),
  );

  const finish = () => {
    reset();
    setStep(0);
    setDates({ startTime: null, endTime: null });
    setRejected([]);
    setSaveSummary(null);
    onClose();
  };

  const handleClose = () => {
    if (saving) return;
    const unsaved = rows.filter((row) => row.status !== 'saved' && row.status !== 'failed').length;
    if (unsaved === 0) return finish();
    modals.openConfirmModal({
      title: 'Discard these images?',
      children: (
        <Text size="sm">
          {unsaved} image{unsaved === 1 ? ' is' : 's are'} not saved as image sets yet. Closing stops the
          uploads and discards them.
        </Text>
      ),
      labels: { confirm: 'Discard', cancel: 'Keep editing' },
      confirmProps: { color: 'red' },
      centered: true,
      zIndex: 400,
      onConfirm: finish,
    });
  };

  const handleDates = (next: typeof dates) => {
    setDates(next);
    dispatch({ type: 'dates', ...next });
  };

  const handleSave = async () => {
    setSaving(true);
    setSaveSummary(null);
    const { saved, failed: notSaved } = await saveAll();
    setSaving(false);
    if (notSaved === 0 && rows.every((row) => row.status === 'failed' || row.record)) {
      const all = saved.length;
      showToast({ color: 'teal', message: `${all} image set${all === 1 ? '' : 's'} saved` });
      onSaved?.(saved);
      finish();
      return;
    }
    setSaveSummary(
      `${saved.length} saved, ${notSaved} not saved. The rows say why; fix them and choose Save Images again.`,
    );
  };

  return (
    <Modal
      opened={opened}
      onClose={handleClose}
      title={<Text fw={650}>Upload images</Text>}
      size={step === 0 ? 'xl' : 'min(1400px, 96vw)'}
      centered
      closeOnClickOutside={false}
      transitionProps={{ duration: 120 }}
    >
      <Stepper
        active={step}
        size="sm"
        mb="lg"
        allowNextStepsSelect={false}
        onStepClick={(next) => !saving && setStep(next)}
      >
        <Stepper.Step label="Select images" description="Upload, with optional dates" />
        <Stepper.Step label="Edit details" description="Name, alt text, issues, dates, tags" />
      </Stepper>

      {step === 0 && (
        <Stack gap="md">
          <Dropzone
            onDrop={(files) => {
              setRejected([]);
              addFiles(files, dates);
            }}
            onReject={(rejections) => setRejected(rejections.map((r) => notAnImageDetail(r.file.name)))}
            accept={IMAGE_ACCEPT}
            multiple
            radius="md"
            inputProps={{ 'aria-label': 'Choose images to upload' }}
          >
            <Stack align="center" gap={6} py="xl" style={{ pointerEvents: 'none' }}>
              <Dropzone.Accept>
                <IconUpload size={40} stroke={1.5} color="var(--mantine-primary-color-filled)" />
              </Dropzone.Accept>
              <Dropzone.Reject>
                <IconX size={40} stroke={1.5} color="var(--mantine-color-red-6)" />
              </Dropzone.Reject>
              <Dropzone.Idle>
                <IconPhoto size={40} stroke={1.5} color="var(--mantine-color-dimmed)" />
              </Dropzone.Idle>
              <Text size="lg" fw={550}>
                Drag images here or click to choose
              </Text>
              <Text size="sm" c="dimmed">
                Each image becomes an image set. JPEG, PNG, GIF, WebP, AVIF or TIFF.
              </Text>
            </Stack>
          </Dropzone>
          {rejected.length > 0 && (
            <Alert
              color="red"
              variant="light"
              icon={<IconAlertTriangle size={18} />}
              p="xs"
              withCloseButton
              onClose={() => setRejected([])}
            >
              {rejected.map((message) => (
                <Text key={message} size="sm">
                  {message}
                </Text>
              ))}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <UploadDateInput
              label="Start time"
              description={`Optional, in ${ZONE_NOTE}`}
              value={dates.startTime}
              onChange={(startTime) => handleDates({ ...dates, startTime })}
            />
            <UploadDateInput
              label="End time"
              description={`Optional, in ${ZONE_NOTE}`}
              value={dates.endTime}
              error={datesInvalid ? 'End time must be after the start time' : undefined}
              onChange={(endTime) => handleDates({ ...dates, endTime })}
            />
          </SimpleGrid>
          {rows.length > 0 && (
            <Stack gap={6}>
              <Group justify="space-between">
                <Text size="sm" fw={550}>
                  {rows.length} image{rows.length === 1 ? '' : 's'}
                </Text>
                <Text size="xs" c="dimmed">
                  {uploaded} uploaded{failed ? ` · ${failed} failed` : ''}
                  {uploading ? ` · ${percent}%` : ''}
                </Text>
              </Group>
              <ScrollArea.Autosize mah={260} type="auto" offsetScrollbars>
                <Stack gap={10} pr="xs">
                  {rows.map((row) => (
                    <PickedRow
                      key={row.key}
                      row={row}
                      onRemove={() => dispatch({ type: 'remove', key: row.key })}
                    />
                  ))}
                </Stack>
              </ScrollArea.Autosize>
            </Stack>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={handleClose}>
              Cancel
            </Button>
            <Button
              disabled={rows.length === 0 || rows.length === failed || datesInvalid}
              onClick={() => setStep(1)}
            >
              Next
            </Button>
          </Group>
        </Stack>
      )}

      {step === 1 && (
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
              <Button variant="default" onClick={() => setStep(0)} disabled={saving}>
                Back
              </Button>
              <Button
                onClick={() => void handleSave()}
                loading={saving}
                disabled={uploading || saveable.length === 0}
              >
                Save Images
              </Button>
            </Group>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

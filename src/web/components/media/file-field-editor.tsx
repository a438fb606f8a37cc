import { useEffect, useRef, useState } from 'react';
import { Alert, Badge, Button, FileButton, Group, Loader, Paper, Progress, Stack, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import '@mantine/dropzone/styles.css';
import {
  IconAlertTriangle,
  IconCircleCheck,
  IconInfoCircle,
  IconPhotoScan,
  IconReplace,
  IconTrash,
  IconX,
} from '@tabler/icons-react';
import type { FileRecord, SanityResult } from '@shared/media/contract';
import { imageResizeUrl, parseOwnImageUrl } from '@shared/media/urls';
import { SizeDisplay } from '../fields/size-display';
import { FILE_NOT_SELECTED } from '../fields/read-only-displays';
import type { FieldProps } from '../fields/types';
import { errorMessage } from '@web/lib/api-client';
import { getSanity } from './api/get-sanity';
import { setFocus } from './api/set-focus';
import { isAbortError, uploadFile } from './api/upload-file';
import { DropzoneStateIcon } from './dropzone-state-icon';
import { FocalPointImage } from './focal-point-image';
import { focusOf, type FocalPoint } from './focal-point';
import { ImageCheckDialog } from './image-check-dialog';
import { useMediaWorkspace } from './media-workspace';
import { sanityIssues } from './sanity-summary';
import { progressPercent } from './upload-progress';
import { IMAGE_ACCEPT, isImageFile, notAnImageDetail, UPLOAD_MESSAGES } from './upload-messages';
import { showToast } from '@web/lib/toast';

/** The editor shows thumbnails at w=600 (spec §7). */
const EDITOR_THUMB_WIDTH = 600;

const asFileValue = (value: unknown): FileRecord | null => {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const file = value as FileRecord;
  return typeof file.storageName === 'string' && file.storageName ? file : null;
};

const asSanity = (value: unknown): SanityResult | null =>
  value && typeof value === 'object' && 'safeSearchDetection' in value ? (value as SanityResult) : null;

/** The workspace a stored file belongs to: its publicUrl names it; else the editor's workspace. */
const workspaceOfFile = (file: FileRecord, fallback: string) =>
  parseOwnImageUrl(file.publicUrl)?.workspaceId ?? fallback;

interface Uploading {
  name: string;
  size: number;
  percent: number;
  controller: AbortController;
}

type AnalysisState = 'idle' | 'running' | 'done' | 'failed';

/**
 * Uploading one picked file, then its image analysis: the progress, the failure message and the
 * analysis state the editor shows. `latest` is the newest value, for answers that arrive after the
 * user changed something else.
 */
function useFileUpload(workspaceId: string, file: FileRecord | null, onChange: (value: unknown) => void) {
  const [uploading, setUploading] = useState<Uploading | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [analysis, setAnalysis] = useState<AnalysisState>('idle');

  const latest = useRef(file);
  useEffect(() => {
    latest.current = file;
  });
  const uploadController = useRef<AbortController | null>(null);
  useEffect(() => () => uploadController.current?.abort(), []);

  const analyse = async (record: FileRecord) => {
    setAnalysis('running');
    try {
      const sanity = await getSanity(workspaceOfFile(record, workspaceId), record.storageName);
      const current = latest.current;
      if (current?.storageName === record.storageName) onChange({ ...current, sanityResults: sanity });
      setAnalysis('done');
      showToast({
        color: 'teal',
        message: UPLOAD_MESSAGES.analysed,
        icon: <IconPhotoScan size={16} />,
      });
    } catch (e) {
      setAnalysis('failed');
      showToast({ color: 'orange', message: `Image analysis failed: ${errorMessage(e)}` });
    }
  };

  const fail = (message: string) => {
    const text = UPLOAD_MESSAGES.failed(message);
    setFailure(text);
    showToast({ color: 'red', message: text, icon: <IconX size={16} /> });
  };

  const handleFile = async (picked: File | null) => {
    if (!picked) return;
    if (!isImageFile(picked)) {
      fail(notAnImageDetail(picked.name));
      return;
    }
    uploadController.current?.abort();
    const controller = new AbortController();
    uploadController.current = controller;
    setFailure(null);
    setAnalysis('idle');
    setUploading({ name: picked.name, size: picked.size, percent: 0, controller });
    try {
      const record = await uploadFile(workspaceId, picked, {
        signal: controller.signal,
        onProgress: ({ loaded, total }) =>
          setUploading((current) =>
            current?.controller === controller
              ? { ...current, percent: progressPercent(loaded, total, picked.size) }
              : current,
          ),
      });
      if (controller.signal.aborted) return;
      setUploading(null);
      onChange(record);
      latest.current = record;
      showToast({
        color: 'teal',
        message: UPLOAD_MESSAGES.uploaded,
        icon: <IconCircleCheck size={16} />,
      });
      if (!asSanity(record.sanityResults)) void analyse(record);
    } catch (e) {
      if (uploadController.current === controller) setUploading(null);
      if (isAbortError(e)) return;
      fail(errorMessage(e));
    } finally {
      if (uploadController.current === controller) uploadController.current = null;
    }
  };

  const handleRemove = () => {
    setFailure(null);
    setAnalysis('idle');
    onChange(null);
  };

  return {
    uploading,
    failure,
    clearFailure: () => setFailure(null),
    analysis,
    latest,
    fail,
    handleFile,
    handleRemove,
  };
}

/**
 * Moving the focal point: the field value changes at once; the file record follows a moment later. A
 * failure there leaves the field value, which is what is saved.
 */
function useFocalPointSave(workspaceId: string, file: FileRecord | null, onChange: (value: unknown) => void) {
  const focusTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(focusTimer.current), []);
  return (focus: FocalPoint) => {
    if (!file) return;
    onChange({ ...file, ...focus });
    clearTimeout(focusTimer.current);
    const storageName = file.storageName;
    const owner = workspaceOfFile(file, workspaceId);
    focusTimer.current = setTimeout(
      () => void setFocus(owner, storageName, focus).catch(() => undefined),
      400,
    );
  };
}

function UploadFailureAlert({ failure, onClose }: { failure: string | null; onClose: () => void }) {
  if (!failure) return null;
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      p="xs"
      withCloseButton
      onClose={onClose}
      role="alert"
    >
      <Text size="sm">{failure}</Text>
    </Alert>
  );
}

function FieldError({ error }: { error?: string }) {
  if (!error) return null;
  return (
    <Text size="xs" c="red">
      {error}
    </Text>
  );
}

function UploadInProgress({ uploading }: { uploading: Uploading }) {
  return (
    <Paper p="sm" radius="md" maw={600} aria-busy="true">
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap">
          <Text size="sm" fw={500} truncate>
            Uploading {uploading.name}
          </Text>
          <Group gap="xs" wrap="nowrap">
            <Text size="xs" c="dimmed" data-testid="upload-percent">
              {uploading.percent}%
            </Text>
            <Button
              size="compact-xs"
              variant="subtle"
              color="gray"
              onClick={() => uploading.controller.abort()}
            >
              Cancel
            </Button>
          </Group>
        </Group>
        <Progress
          value={uploading.percent}
          animated={uploading.percent < 100}
          aria-label={`Upload of ${uploading.name}`}
        />
        <SizeDisplay bytes={uploading.size} size="xs" c="dimmed" />
      </Stack>
    </Paper>
  );
}

/** The empty field: 'File not selected' and a drop zone that also opens the file chooser. */
function FileDropzone({
  label,
  inputId,
  compact,
  error,
  onFile,
  onReject,
}: {
  label: string;
  inputId: string;
  compact?: boolean;
  error?: string;
  onFile: (picked: File | null) => void;
  onReject: (fileName: string | undefined) => void;
}) {
  return (
    <Dropzone
      onDrop={(files) => onFile(files[0] ?? null)}
      onReject={(rejections) => onReject(rejections[0]?.file.name)}
      accept={IMAGE_ACCEPT}
      multiple={false}
      maxFiles={1}
      inputProps={{ id: inputId, 'aria-label': label }}
      p={compact ? 'xs' : 'md'}
      radius="md"
      style={error ? { borderColor: 'var(--mantine-color-error)' } : undefined}
    >
      <Group justify="center" gap="sm" wrap="nowrap" style={{ pointerEvents: 'none' }}>
        <DropzoneStateIcon size={compact ? 20 : 28} />
        <div>
          <Text size="sm" fw={500}>
            {FILE_NOT_SELECTED}
          </Text>
          <Text size="xs" c="dimmed">
            Drop an image here or click to choose one
          </Text>
        </div>
      </Group>
    </Dropzone>
  );
}

/** The stored file's name, size and type, with Image check, Replace and Remove. */
function StoredFileSummary({
  file,
  isImage,
  readOnly,
  onCheck,
  onFile,
  onRemove,
}: {
  file: FileRecord;
  isImage: boolean;
  readOnly: boolean;
  onCheck: () => void;
  onFile: (picked: File | null) => void;
  onRemove: () => void;
}) {
  return (
    <Group gap="xs" wrap="wrap" justify="space-between" maw={EDITOR_THUMB_WIDTH}>
      <div style={{ minWidth: 0 }}>
        <Text size="sm" fw={500} truncate>
          {file.name}
        </Text>
        <Text size="xs" c="dimmed">
          <SizeDisplay bytes={file.size} size="xs" c="dimmed" /> · {file.contentType}
        </Text>
      </div>
      <Group gap={6}>
        {isImage && (
          <Button
            size="compact-sm"
            variant="light"
            leftSection={<IconPhotoScan size={14} />}
            onClick={onCheck}
          >
            Image check
          </Button>
        )}
        {!readOnly && (
          <>
            <FileButton onChange={onFile} accept="image/*">
              {(props) => (
                <Button
                  {...props}
                  size="compact-sm"
                  variant="default"
                  leftSection={<IconReplace size={14} />}
                >
                  Replace
                </Button>
              )}
            </FileButton>
            <Button
              size="compact-sm"
              variant="default"
              color="red"
              leftSection={<IconTrash size={14} />}
              onClick={onRemove}
              aria-label={`Remove ${file.name}`}
            >
              Remove
            </Button>
          </>
        )}
      </Group>
    </Group>
  );
}

function AnalysisStatus({ analysis }: { analysis: AnalysisState }) {
  if (analysis === 'running') {
    return (
      <Group gap={6}>
        <Loader size={14} />
        <Text size="xs" c="dimmed">
          Analysing the image…
        </Text>
      </Group>
    );
  }
  if (analysis === 'done') {
    return (
      <Text size="xs" c="teal" role="status">
        {UPLOAD_MESSAGES.uploaded} · {UPLOAD_MESSAGES.analysed}
      </Text>
    );
  }
  return null;
}

/** What the image analysis found: warnings open the image check, notes are shown as text. */
function SanityIssueList({
  issues,
  onCheck,
}: {
  issues: ReturnType<typeof sanityIssues>;
  onCheck: () => void;
}) {
  if (issues.length === 0) return null;
  return (
    <Group gap={8}>
      {issues.map((issue) =>
        issue.level === 'warning' ? (
          <Badge
            key={issue.text}
            size="sm"
            variant="light"
            color="orange"
            tt="none"
            leftSection={<IconAlertTriangle size={12} />}
            style={{ cursor: 'pointer' }}
            onClick={onCheck}
          >
            {issue.text}
          </Badge>
        ) : (
          <Group key={issue.text} gap={4} wrap="nowrap">
            <IconInfoCircle size={14} color="var(--mantine-color-dimmed)" />
            <Text size="xs" c="dimmed">
              {issue.text}
            </Text>
          </Group>
        ),
      )}
    </Group>
  );
}

/**
 * The file field (spec §4 File field): no file ('File not selected'), uploading with a progress bar,
 * uploaded (image analysis follows), removable. Images only; the focal point is set by clicking the
 * image. The value is the upload answer (spec §3 File field value) with the analysis in sanityResults.
 */
export function FileFieldEditor({ field, value, onChange, readOnly, error, inputId, compact }: FieldProps) {
  const { workspaceId } = useMediaWorkspace();
  const file = asFileValue(value);
  const [checkOpen, setCheckOpen] = useState(false);
  const upload = useFileUpload(workspaceId, file, onChange);
  const handleFocus = useFocalPointSave(workspaceId, file, onChange);
  const handleFile = (picked: File | null) => void upload.handleFile(picked);
  const failureAlert = <UploadFailureAlert failure={upload.failure} onClose={upload.clearFailure} />;

  if (upload.uploading) return <UploadInProgress uploading={upload.uploading} />;

  if (!file) {
    if (readOnly) {
      return (
        <Text size="sm" c="dimmed">
          {FILE_NOT_SELECTED}
        </Text>
      );
    }
    return (
      <Stack gap={6} maw={600}>
        <FileDropzone
          label={field.label}
          inputId={inputId}
          compact={compact}
          error={error}
          onFile={handleFile}
          onReject={(fileName) => upload.fail(notAnImageDetail(fileName))}
        />
        <FieldError error={error} />
        {failureAlert}
      </Stack>
    );
  }

  const owner = workspaceOfFile(file, workspaceId);
  const sanity = asSanity(file.sanityResults);
  const isImage = file.contentType.startsWith('image/');
  const thumb = isImage ? imageResizeUrl(owner, file.storageName, { w: EDITOR_THUMB_WIDTH }) : null;
  const handleAnalysed = (fresh: SanityResult) => {
    const current = upload.latest.current;
    if (current?.storageName === file.storageName) onChange({ ...current, sanityResults: fresh });
  };

  return (
    <Stack gap="xs" maw={compact ? 320 : 780}>
      {thumb && (
        <FocalPointImage
          src={thumb}
          alt={file.name}
          focus={focusOf(file)}
          onFocusChange={readOnly ? undefined : handleFocus}
          maxWidth={compact ? 300 : EDITOR_THUMB_WIDTH}
          maxHeight={compact ? 160 : 400}
        />
      )}
      <StoredFileSummary
        file={file}
        isImage={isImage}
        readOnly={readOnly}
        onCheck={() => setCheckOpen(true)}
        onFile={handleFile}
        onRemove={upload.handleRemove}
      />
      <AnalysisStatus analysis={upload.analysis} />
      <SanityIssueList issues={sanityIssues(sanity)} onCheck={() => setCheckOpen(true)} />
      <FieldError error={error} />
      {failureAlert}
      {isImage && (
        <ImageCheckDialog
          opened={checkOpen}
          onClose={() => setCheckOpen(false)}
          workspaceId={owner}
          storageName={file.storageName}
          fileName={file.name}
          sanity={sanity}
          onAnalysed={readOnly ? undefined : handleAnalysed}
        />
      )}
    </Stack>
  );
}

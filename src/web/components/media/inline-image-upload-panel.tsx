import { Alert, Progress, Stack, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import '@mantine/dropzone/styles.css';
import { IconAlertTriangle } from '@tabler/icons-react';
import { DropzoneStateIcon } from './dropzone-state-icon';
import { IMAGE_ACCEPT } from './upload-messages';
import type { InlineUploadProgress } from './use-inline-image-upload';

/** The image picker's "Upload new" tab: a dropzone, then the upload's progress; a failure below. */
export function InlineImageUploadPanel({
  upload,
  uploadError,
  canEditImageSets,
  onFile,
  onReject,
}: {
  upload: InlineUploadProgress | null;
  uploadError: string | null;
  canEditImageSets: boolean;
  onFile: (file: File | undefined) => void;
  onReject: (fileName: string | undefined) => void;
}) {
  return (
    <Stack gap="sm">
      {upload ? (
        <Stack gap={6} py="lg">
          <Text size="sm" fw={500}>
            Uploading {upload.name}
          </Text>
          <Progress value={upload.percent} animated aria-label={`Upload of ${upload.name}`} />
        </Stack>
      ) : (
        <Dropzone
          onDrop={(files) => onFile(files[0])}
          onReject={(rejections) => onReject(rejections[0]?.file.name)}
          accept={IMAGE_ACCEPT}
          multiple={false}
          maxFiles={1}
          inputProps={{ 'aria-label': 'Upload an image' }}
          radius="md"
        >
          <Stack align="center" gap={6} py="xl" style={{ pointerEvents: 'none' }}>
            <DropzoneStateIcon size={36} />
            <Text fw={500}>Drop an image here or click to choose one</Text>
            <Text size="sm" c="dimmed">
              {canEditImageSets
                ? 'It is saved as a new image set named after the file, then inserted.'
                : 'It is inserted as an image of this workspace.'}
            </Text>
          </Stack>
        </Dropzone>
      )}
      {uploadError && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
          {uploadError}
        </Alert>
      )}
    </Stack>
  );
}

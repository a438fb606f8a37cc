import { Dropzone } from '@mantine/dropzone';
import { IconPhoto, IconUpload, IconX } from '@tabler/icons-react';

/** A dropzone's icon: upload while an image is dragged over it, a cross for a refused file, else a photo. */
export function DropzoneStateIcon({ size }: { size: number }) {
  return (
    <>
      <Dropzone.Accept>
        <IconUpload size={size} stroke={1.5} color="var(--mantine-primary-color-filled)" />
      </Dropzone.Accept>
      <Dropzone.Reject>
        <IconX size={size} stroke={1.5} color="var(--mantine-color-red-6)" />
      </Dropzone.Reject>
      <Dropzone.Idle>
        <IconPhoto size={size} stroke={1.5} color="var(--mantine-color-dimmed)" />
      </Dropzone.Idle>
    </>
  );
}

import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '@web/lib/api-client';
import type { InlineImage } from './inline-image';
import type { MediaWorkspace } from './media-workspace';
import { uploadInlineImage } from './upload-inline-image';
import { notAnImageDetail, UPLOAD_MESSAGES } from './upload-messages';
import { progressPercent } from './upload-progress';

export interface InlineUploadProgress {
  name: string;
  /** 0 to 100. */
  percent: number;
}

/** The image picker's "Upload new": one image at a time, with its progress or why it failed. */
export function useInlineImageUpload(workspace: MediaWorkspace, onUploaded: (image: InlineImage) => void) {
  const client = useQueryClient();
  const [upload, setUpload] = useState<InlineUploadProgress | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);

  const start = async (file: File | undefined) => {
    if (!file) return;
    setUploadError(null);
    setUpload({ name: file.name, percent: 0 });
    try {
      const image = await uploadInlineImage(client, workspace, file, {
        onProgress: ({ loaded, total }) =>
          setUpload({ name: file.name, percent: progressPercent(loaded, total, file.size) }),
      });
      onUploaded(image);
    } catch (e) {
      setUpload(null);
      setUploadError(UPLOAD_MESSAGES.failed(errorMessage(e)));
    }
  };

  const reject = (fileName: string | undefined) =>
    setUploadError(UPLOAD_MESSAGES.failed(notAnImageDetail(fileName)));

  const reset = () => {
    setUpload(null);
    setUploadError(null);
  };

  return { upload, uploadError, start, reject, reset };
}

/** Spec §8 upload messages, word for word. */
export const UPLOAD_MESSAGES = {
  uploaded: 'Uploaded successfully',
  analysed: 'Image analysis done',
  failed: (message: string) => `File upload failed. Error: ${message}`,
  notAnImage: 'Only images can be uploaded',
} as const;

/** Spec §5: uploads accept image/* files only. */
export const IMAGE_ACCEPT = ['image/*'];
export const isImageFile = (file: Pick<File, 'type'>) => file.type.startsWith('image/');

/** A picked file that is not an image, as the upload failure's detail. */
export const notAnImageDetail = (fileName: string | undefined) =>
  `${UPLOAD_MESSAGES.notAnImage}; "${fileName ?? 'the file'}" is not an image.`;

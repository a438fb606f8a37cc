import { lazy, Suspense } from 'react';
import type { MultiImageUploadDialogProps } from './multi-image-upload-dialog';

const MultiImageUploadDialog = lazy(() =>
  import('./multi-image-upload-dialog').then((m) => ({ default: m.MultiImageUploadDialog })),
);

/**
 * The multi-image upload dialog, loaded when first opened so the Add dialog's screen does not carry
 * the dropzone, stepper and upload table. Offer it only to users who may edit image sets (spec §6).
 */
export function LazyMultiImageUploadDialog(props: MultiImageUploadDialogProps) {
  if (!props.opened) return null;
  return (
    <Suspense fallback={null}>
      <MultiImageUploadDialog {...props} />
    </Suspense>
  );
}

import { lazy, Suspense } from 'react';
import { FileDisplay } from '../fields/read-only-displays';
import type { FieldProps } from '../fields/types';

/** The upload editor (dropzone, analysis, image check) loads with the first file field on screen, not with a list. */
const FileFieldEditor = lazy(() =>
  import('./file-field-editor').then((m) => ({ default: m.FileFieldEditor })),
);

/** Spec §4 File field: the uploading editor, with the plain file display while its code loads. */
export function FileField(props: FieldProps) {
  return (
    <Suspense fallback={<FileDisplay {...props} />}>
      <FileFieldEditor {...props} />
    </Suspense>
  );
}

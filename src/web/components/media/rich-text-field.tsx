import { lazy, Suspense } from 'react';
import { Skeleton, Stack } from '@mantine/core';
import { RichTextDisplay } from '../fields/read-only-displays';
import type { FieldProps } from '../fields/types';

/** TipTap loads only when a rich-text field is edited: never in the list screen's bundle. */
const RichTextFieldEditor = lazy(() => import('./rich-text-editor'));

function EditorSkeleton() {
  return (
    <Stack gap={6} role="status" aria-busy="true" aria-label="Loading the editor">
      <Skeleton height={38} radius="sm" />
      <Skeleton height={220} radius="sm" />
    </Stack>
  );
}

/**
 * Spec §1 rich-text editor with inline images: the stored HTML in view mode, the TipTap editor
 * (headings, lists, links, quotes, code, tables, inline images from image sets or uploads) in edit mode.
 */
export function RichTextField(props: FieldProps) {
  if (props.readOnly) return <RichTextDisplay {...props} />;
  return (
    <Suspense fallback={<EditorSkeleton />}>
      <RichTextFieldEditor {...props} />
    </Suspense>
  );
}

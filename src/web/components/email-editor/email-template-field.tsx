import { lazy, Suspense, useEffect, useRef } from 'react';
import { Skeleton, Stack } from '@mantine/core';
import { useLocation, useParams } from 'react-router';
import type { FieldProps } from '../fields/types';
import { clearDraft, draftKey } from './email-draft';
import { EmailPreview } from './email-preview';

/** GrapesJS and its newsletter preset load only when an email is edited: never in a list screen's bundle. */
const EmailEditor = lazy(() => import('./email-editor'));

function EditorSkeleton() {
  return (
    <Stack gap={6} role="status" aria-busy="true" aria-label="Loading the email editor">
      <Skeleton height={38} radius="sm" />
      <Skeleton height={560} radius="sm" />
    </Stack>
  );
}

/**
 * The email template field (spec §3, §4): the rendered email in view and compare modes, the GrapesJS
 * newsletter editor in edit mode. Leaving edit mode (the form's Save or Cancel) is the editor's exit
 * flag: the editor closes and its draft in browser storage is dropped.
 */
export function EmailTemplateField(props: FieldProps) {
  const { pathname } = useLocation();
  // Drafts belong to an item screen (its path names the item, or 'new'); a quick view over a list
  // cannot tell its items apart by path, so it keeps no draft.
  const { id } = useParams();
  const key = id ? draftKey(pathname) : null;
  const wasEditing = useRef(!props.readOnly);
  useEffect(() => {
    if (props.readOnly && wasEditing.current && key) clearDraft(key);
    wasEditing.current = !props.readOnly;
  }, [props.readOnly, key]);

  if (props.readOnly) return <EmailPreview template={props.value} label={props.field.label} />;
  return (
    <Suspense fallback={<EditorSkeleton />}>
      <EmailEditor {...props} draftKey={key} />
    </Suspense>
  );
}

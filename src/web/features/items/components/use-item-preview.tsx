import { lazy, Suspense, useCallback, useRef, useState } from 'react';
import { Button, Skeleton } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import type { Item } from '@shared/api/items';
import type { Workspace } from '@shared/api/workspaces';
import type { SchemaType } from '@shared/schemas/types';
import { focusFormPath } from '@web/components/preview/focus-form-path';
import { useFormFeed } from '@web/components/preview/form-feed';

/** The preview pane loads when it is first opened. */
const PreviewPane = lazy(() =>
  import('@web/components/preview/preview-pane').then((module) => ({ default: module.PreviewPane })),
);

/**
 * Whether the preview pane is open (`?preview` in the screen's URL, so a release's entry can link to it)
 * and the release it shows (`&release=`); offered for schemas with preview URLs.
 */
function usePreviewState(schema: SchemaType) {
  const [params, setParams] = useSearchParams();
  const isOffered = (schema.previewUrls?.length ?? 0) > 0;
  const update = (change: (next: URLSearchParams) => void) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        change(next);
        return next;
      },
      { replace: true },
    );
  return {
    isOffered,
    isOpen: isOffered && params.has('preview'),
    releaseId: params.get('release') ?? undefined,
    toggle: () =>
      update((next) => {
        if (next.has('preview')) {
          next.delete('preview');
          next.delete('release');
        } else next.set('preview', '');
      }),
    showRelease: (releaseId: string | undefined) =>
      update((next) => (releaseId ? next.set('release', releaseId) : next.delete('release'))),
  };
}

/**
 * The item screen's preview: its toggle, the pane, and what the form gives it (its values as typed,
 * its saves, the element a page's click focuses, under `formRef`).
 */
export function useItemPreview(workspace: Workspace, schema: SchemaType, isDeleted: boolean) {
  const state = usePreviewState(schema);
  const feed = useFormFeed();
  const formRef = useRef<HTMLDivElement>(null);
  const [locale, setLocale] = useState<string>();
  const handleEdit = useCallback((path: string) => {
    if (formRef.current) focusFormPath(formRef.current, path);
  }, []);
  const isOpen = state.isOpen && !isDeleted;
  return {
    isOpen,
    feed,
    formRef,
    toggle: state.isOffered && !isDeleted && (
      <Button
        variant={isOpen ? 'filled' : 'default'}
        leftSection={<IconEye size={16} />}
        aria-pressed={isOpen}
        onClick={state.toggle}
      >
        Preview
      </Button>
    ),
    /** The pane for the stored item, in the form's locale until another is picked. */
    pane: (item: Item, formLocale: string | undefined) =>
      isOpen ? (
        <Suspense fallback={<Skeleton h={480} radius="md" />}>
          <PreviewPane
            workspace={workspace}
            schema={schema}
            item={item}
            feed={feed}
            locale={locale ?? formLocale ?? workspace.basics.locales?.default}
            onLocaleChange={setLocale}
            releaseId={state.releaseId}
            onReleaseChange={state.showRelease}
            onEdit={handleEdit}
          />
        </Suspense>
      ) : undefined,
  };
}

import { useEffect, useMemo, useState } from 'react';
import { Alert, Card, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { localeSettingsError, type LocaleSettings } from '@shared/locales/locales';
import { useContentModel } from '@web/lib/content-model';
import { useCurrentWorkspace, useUpdateWorkspace } from '@web/lib/workspace';
import { showToast } from '@web/lib/toast';
import { SaveErrorAlert } from './components/conflict-alert';
import { SaveBar } from './components/save-bar';
import { AddLocale, LocalesTable } from './components/locales-table';

const NONE: LocaleSettings = { tags: [], default: '', fallback: {} };

/** /{workspace}/_settings/locales: the workspace's locales, its default and each locale's fallback. */
export default function LocalesRoute() {
  const workspace = useCurrentWorkspace();
  const update = useUpdateWorkspace(workspace.id);
  const model = useContentModel();
  const saved = useMemo(() => workspace.basics.locales ?? NONE, [workspace.basics.locales]);
  const [draft, setDraft] = useState<LocaleSettings>(saved);
  useEffect(() => setDraft(saved), [saved]);

  const isDirty = JSON.stringify(draft) !== JSON.stringify(saved);
  const problem =
    draft.tags.length > 0 ? localeSettingsError(draft, (name) => model.schema(name)) : undefined;

  const handleAdd = (tag: string) =>
    setDraft((current) =>
      current.tags.length === 0
        ? { ...current, tags: [tag], default: tag }
        : {
            ...current,
            tags: [...current.tags, tag],
            fallback: { ...current.fallback, [tag]: current.default },
          },
    );

  const handleRemove = (tag: string) =>
    setDraft((current) => ({
      ...current,
      tags: current.tags.filter((other) => other !== tag),
      fallback: Object.fromEntries(
        Object.entries(current.fallback).filter(([from, to]) => from !== tag && to !== tag),
      ),
    }));

  const setFallback = (tag: string, to: string | null) =>
    setDraft((current) => {
      const fallback = { ...current.fallback };
      if (to) fallback[tag] = to;
      else delete fallback[tag];
      return { ...current, fallback };
    });

  const save = (confirmRemoveLocales: string[]) =>
    update.mutate(
      { basics: { locales: draft }, confirmRemoveLocales, baseVersion: workspace.version },
      { onSuccess: () => showToast({ color: 'teal', message: 'Locales saved' }) },
    );

  const handleSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    if (problem || draft.tags.length === 0) return;
    const removed = saved.tags.filter((tag) => !draft.tags.includes(tag));
    if (removed.length === 0) return save([]);
    modals.openConfirmModal({
      title: `Remove ${removed.join(', ')}?`,
      children: (
        <Text size="sm">
          Items keep these values in their history; the next save of an item leaves them out. Content stops
          being delivered in {removed.length > 1 ? 'these locales' : 'this locale'}.
        </Text>
      ),
      labels: { confirm: 'Remove', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => save(removed),
    });
  };

  return (
    <form onSubmit={handleSubmit} noValidate>
      <SaveErrorAlert error={update.error} workspaceId={workspace.id} onReload={() => setDraft(saved)} />
      <Stack gap="lg">
        <Card p="lg">
          <Stack gap="md">
            <Text size="sm" c="dimmed">
              Localised fields (titles, slugs, bodies and images of blog posts) hold one value per locale. A
              locale without a value reads its fallback’s.
            </Text>
            {draft.tags.length === 0 ? (
              <Text size="sm">
                This workspace has one language. Add its first locale to start translating.
              </Text>
            ) : (
              <LocalesTable
                settings={draft}
                onDefault={(tag) => setDraft((current) => ({ ...current, default: tag }))}
                onFallback={setFallback}
                onRemove={handleRemove}
              />
            )}
            {problem && (
              <Alert color="red" role="alert">
                {problem}
              </Alert>
            )}
            <AddLocale tags={draft.tags} onAdd={handleAdd} />
          </Stack>
        </Card>
      </Stack>
      <SaveBar
        isDirty={isDirty}
        isSaving={update.isPending}
        onReset={() => setDraft(saved)}
        saveLabel="Save locales"
      />
    </form>
  );
}

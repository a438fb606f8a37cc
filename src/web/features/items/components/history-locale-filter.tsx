import { useState } from 'react';
import { NativeSelect, Stack, Text } from '@mantine/core';
import type { HistoryList } from '@shared/api/items';
import type { LocaleSettings } from '@shared/locales/locales';
import type { z } from 'zod';

export type HistoryEntry = z.infer<typeof HistoryList>['versions'][number];

/**
 * The change log narrowed to one locale's changes ('' for every change): the workspace's locales, then
 * any locale only older versions changed (removed from the workspace since).
 */
export function useHistoryLocaleFilter(
  settings: Pick<LocaleSettings, 'tags' | 'default'> | undefined,
  versions: readonly HistoryEntry[],
) {
  const [locale, setLocale] = useState('');
  const hasChanges = versions.some((version) => version.changes);
  if (!settings || !hasChanges) return { shown: versions, filter: undefined };
  const known = [settings.default, ...settings.tags.filter((tag) => tag !== settings.default)];
  const removed = [...new Set(versions.flatMap((version) => version.changes?.locales ?? []))]
    .filter((tag) => !known.includes(tag))
    .sort();
  const tags = [...known, ...removed];
  const chosen = tags.includes(locale) ? locale : '';
  const shown = chosen ? versions.filter((version) => version.changes?.locales.includes(chosen)) : versions;
  return { shown, filter: { tags, locale: chosen, onChange: setLocale, empty: shown.length === 0 } };
}

/** "All changes" or "Changes in fr-FR", and a word when no version changed that locale. */
export function HistoryLocaleFilter({
  tags,
  locale,
  onChange,
  empty,
}: {
  tags: readonly string[];
  locale: string;
  onChange: (tag: string) => void;
  empty: boolean;
}) {
  return (
    <Stack gap="xs">
      <NativeSelect
        label="Show"
        size="xs"
        value={locale}
        onChange={(event) => onChange(event.currentTarget.value)}
        data={[
          { value: '', label: 'All changes' },
          ...tags.map((tag) => ({ value: tag, label: `Changes in ${tag}` })),
        ]}
        data-testid="history-locale-filter"
        w={200}
      />
      {empty && (
        <Text size="sm" c="dimmed">
          No version changed {locale} values.
        </Text>
      )}
    </Stack>
  );
}

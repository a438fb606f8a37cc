import { Alert, Anchor, Button, Loader, Stack, Text, Timeline } from '@mantine/core';
import { IconGitCompare } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Item } from '@shared/api/items';
import type { Workspace } from '@shared/api/workspaces';
import { errorMessage } from '@web/lib/api-client';
import { formatDateTime } from '@web/lib/dates';
import { useHistory } from '../api/get-history';
import { useMembers } from '@web/lib/members';
import { userLabel } from '../item-labels';
import { changelogPath } from '@web/lib/item-paths';
import { RestoreVersionButton } from './restore-version-button';
import { LocaleChangeChips } from '@web/components/item-form/locale-change-chips';
import { HistoryLocaleFilter, useHistoryLocaleFilter } from './history-locale-filter';

export interface HistoryPanelProps {
  workspace: Workspace;
  domain: string;
  item: Item;
  /** The locale the item form shows. */
  locale?: string;
}

/**
 * The newest versions of the change log, each with the locales it changed and linking to a comparison
 * with the one before (in the locale filtered on, else the one the editor shows).
 */
export function HistoryPanel({ workspace, domain, item, locale }: HistoryPanelProps) {
  const history = useHistory(workspace.id, item.schema, item.id);
  const members = useMembers(workspace.id);
  const { shown, filter } = useHistoryLocaleFilter(workspace.basics.locales, history.data?.versions ?? []);
  const base = changelogPath(workspace.id, domain, item.schema, item.id);
  const compareLocale = filter?.locale || locale;
  const inLocale = compareLocale ? `&locale=${encodeURIComponent(compareLocale)}` : '';
  if (history.isPending) return <Loader size="sm" />;
  if (history.isError) {
    return (
      <Alert color="red" variant="light" role="alert">
        {errorMessage(history.error)}
      </Alert>
    );
  }
  const versions = shown.slice(0, 8);
  return (
    <Stack gap="md" data-testid="history-panel">
      {filter && <HistoryLocaleFilter {...filter} />}
      <Timeline bulletSize={14} lineWidth={2} active={versions[0]?.thisVersion === item.version ? 0 : -1}>
        {versions.map((version) => (
          <Timeline.Item
            key={version.id}
            data-version={version.thisVersion}
            title={
              <Text size="sm" fw={600}>
                Version {version.thisVersion}
              </Text>
            }
          >
            <Text size="xs" c="dimmed">
              {userLabel(version.by, version.byName, members.data?.members)} · {formatDateTime(version.at)}
            </Text>
            {version.changes && (
              <LocaleChangeChips changes={version.changes} label={`Version ${version.thisVersion} changed`} />
            )}
            {version.previousVersion !== null && (
              <Anchor
                component={Link}
                to={`${base}?from=${version.previousVersion}&to=${version.thisVersion}${inLocale}`}
                size="xs"
              >
                Compare with version {version.previousVersion}
              </Anchor>
            )}
            <RestoreVersionButton ws={workspace.id} item={item} num={version.thisVersion} />
          </Timeline.Item>
        ))}
      </Timeline>
      <Button component={Link} to={base} variant="light" size="xs" leftSection={<IconGitCompare size={14} />}>
        Open change log
      </Button>
    </Stack>
  );
}

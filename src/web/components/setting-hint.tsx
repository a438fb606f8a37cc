import { Code, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { MESSAGES, NotConfiguredDetails } from '@shared/api/errors';
import { isApiError } from '@web/lib/api-client';
import { workspaceQueryOptions } from '@web/lib/workspace';

/** The setting an error answer names in its details (a `not_configured` answer, a private webhook address). */
export function settingOf(error: unknown): NotConfiguredDetails | null {
  if (!isApiError(error)) return null;
  const parsed = NotConfiguredDetails.safeParse(error.details);
  return parsed.success ? parsed.data : null;
}

/** Whether the caller manages the workspace of the current URL; false while unknown or outside one. */
export function useIsWorkspaceManager(): boolean {
  const { workspace = '' } = useParams();
  const { data } = useQuery({ ...workspaceQueryOptions(workspace), enabled: !!workspace });
  return data?.__permissions.canManageWorkspace ?? false;
}

/**
 * Who can switch an integration on, and how: a workspace manager sees the server setting's name (and
 * any that can stand in for it); anyone else is told to ask a workspace manager.
 */
export function SettingHint({ setting, isManager }: { setting: NotConfiguredDetails; isManager: boolean }) {
  if (!isManager) {
    return (
      <Text size="xs" c="dimmed" data-testid="setting-hint">
        {MESSAGES.askManager}
      </Text>
    );
  }
  const names = [setting.setting, ...(setting.alternatives ?? [])];
  return (
    <Text size="xs" c="dimmed" data-testid="setting-hint">
      Server setting:{' '}
      {names.map((name, i) => (
        <span key={name}>
          {i > 0 && ' or '}
          <Code>{name}</Code>
        </span>
      ))}
    </Text>
  );
}

/** The hint for the caller of the current workspace. */
export function SettingHintForCaller({ setting }: { setting: NotConfiguredDetails }) {
  return <SettingHint setting={setting} isManager={useIsWorkspaceManager()} />;
}

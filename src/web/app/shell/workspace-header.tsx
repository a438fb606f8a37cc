import { ActionIcon, Burger, Divider, Group, Tooltip } from '@mantine/core';
import { IconLayoutSidebarRight, IconSettings } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Workspace } from '@shared/api/workspaces';
import { BrandMark } from '@web/components/brand';
import { UserMenu } from '@web/components/user-menu';
import { settingsPath } from '../guards';
import { WorkspaceSwitcher } from './workspace-switcher';

/** The header bar of a workspace: navigation toggle, brand, workspace switcher, then Settings, details and the user menu. */
export function WorkspaceHeader({
  workspace,
  isNavOpen,
  onToggleNav,
  showSettings,
  hasAside,
  onToggleAside,
}: {
  workspace: Workspace;
  isNavOpen: boolean;
  onToggleNav: () => void;
  showSettings: boolean;
  hasAside: boolean;
  onToggleAside: () => void;
}) {
  return (
    <Group h="100%" justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap" style={{ flex: 1, minWidth: 0 }}>
        <Burger
          opened={isNavOpen}
          onClick={onToggleNav}
          hiddenFrom="md"
          size="sm"
          aria-label="Toggle navigation"
        />
        <Link to="/workspaces" aria-label="All workspaces" style={{ display: 'flex' }}>
          <BrandMark />
        </Link>
        <Divider orientation="vertical" my={16} visibleFrom="xs" />
        <WorkspaceSwitcher workspace={workspace} />
      </Group>
      <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
        {showSettings && (
          <Tooltip label="Settings">
            <ActionIcon
              component={Link}
              to={settingsPath(workspace.id)}
              variant="subtle"
              color="gray"
              size="lg"
              aria-label="Settings"
            >
              <IconSettings size={20} stroke={1.6} />
            </ActionIcon>
          </Tooltip>
        )}
        {hasAside && (
          <Tooltip label="Toggle details">
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              onClick={onToggleAside}
              aria-label="Toggle details"
            >
              <IconLayoutSidebarRight size={20} stroke={1.6} />
            </ActionIcon>
          </Tooltip>
        )}
        <UserMenu />
      </Group>
    </Group>
  );
}

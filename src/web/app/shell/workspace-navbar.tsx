import { lazy, Suspense } from 'react';
import { Divider, NavLink } from '@mantine/core';
import { IconSettings, IconUsers } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Workspace } from '@shared/api/workspaces';
import { can } from '@shared/permissions/permissions';
import { ExploreNav } from '@web/features/explore/components/explore-nav';
import { settingsPath } from '../guards';

// Loaded with the settings screens, which import it too: the item screens do without it.
const SettingsNav = lazy(() =>
  import('@web/features/settings/components/settings-nav').then((m) => ({ default: m.SettingsNav })),
);

/** Members who may read customer data, and those who may import it (on the same screen). */
const mayOpenCustomers = ({ __permissions: rights }: Workspace) =>
  can(rights, 'customerData', 'read') || can(rights, 'edit', 'customer-profile-attribute');

/**
 * The left navigation: the settings pages while in settings, else the explore navigation, Customers
 * (for members who may read or import customer data) and Settings.
 */
export function WorkspaceNavbar({ workspace, isSettings }: { workspace: Workspace; isSettings: boolean }) {
  if (isSettings)
    return (
      <Suspense>
        <SettingsNav workspaceId={workspace.id} />
      </Suspense>
    );
  return (
    <>
      <ExploreNav workspace={workspace} />
      {workspace.basics.domains.includes('marketing') && mayOpenCustomers(workspace) && (
        <NavLink
          component={Link}
          to={`/${workspace.id}/marketing/_customers`}
          label="Customers"
          leftSection={<IconUsers size={17} stroke={1.6} />}
        />
      )}
      {workspace.__permissions.canManageWorkspace && (
        <>
          <Divider my="xs" />
          <NavLink
            component={Link}
            to={settingsPath(workspace.id)}
            label="Settings"
            leftSection={<IconSettings size={17} stroke={1.6} />}
          />
        </>
      )}
    </>
  );
}

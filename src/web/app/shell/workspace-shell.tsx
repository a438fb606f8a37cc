import { useEffect } from 'react';
import { ActionIcon, AppShell, Burger, Divider, Group, NavLink, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconLayoutSidebarRight, IconSettings, IconUsers } from '@tabler/icons-react';
import { Link, Outlet, useLocation, useMatches } from 'react-router';
import { BrandMark } from '@web/components/brand';
import { InsideMainLandmark } from '@web/components/main-landmark';
import { UserMenu } from '@web/components/user-menu';
import { ExploreAside } from '@web/features/explore/components/explore-aside';
import { ExploreNav } from '@web/features/explore/components/explore-nav';
import { SettingsNav } from '@web/features/settings/components/settings-nav';
import { useCurrentWorkspace } from '@web/lib/workspace';
import { settingsPath, workspaceSection } from '../guards';
import { WorkspaceSwitcher } from './workspace-switcher';

/**
 * The app shell of a workspace (spec §2): header with workspace switcher and user menu, the left
 * navigation drawer and the right drawer; both are open above the md breakpoint and toggle below it.
 */
export default function WorkspaceShell() {
  const workspace = useCurrentWorkspace();
  const { pathname } = useLocation();
  const matches = useMatches();
  const hasAside = matches.some((m) => (m.handle as { withAside?: boolean } | undefined)?.withAside);
  const isSettings = workspaceSection(pathname) === '_settings';
  const [isNavOpen, nav] = useDisclosure(false);
  const [isAsideOpenMobile, asideMobile] = useDisclosure(false);
  const [isAsideOpenDesktop, asideDesktop] = useDisclosure(true);

  // On small screens the drawers close once the user has picked where to go.
  useEffect(() => {
    nav.close();
    asideMobile.close();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pathname]);

  const handleToggleAside = () => {
    if (window.matchMedia('(min-width: 62em)').matches) asideDesktop.toggle();
    else asideMobile.toggle();
  };

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 264, breakpoint: 'md', collapsed: { mobile: !isNavOpen } }}
      aside={{
        width: 300,
        breakpoint: 'md',
        collapsed: { mobile: !hasAside || !isAsideOpenMobile, desktop: !hasAside || !isAsideOpenDesktop },
      }}
      padding={{ base: 'md', md: 'xl' }}
    >
      <AppShell.Header px="md">
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap" style={{ flex: 1, minWidth: 0 }}>
            <Burger
              opened={isNavOpen}
              onClick={nav.toggle}
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
            {workspace.__permissions.canManageWorkspace && !isSettings && (
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
                  onClick={handleToggleAside}
                  aria-label="Toggle details"
                >
                  <IconLayoutSidebarRight size={20} stroke={1.6} />
                </ActionIcon>
              </Tooltip>
            )}
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="sm">
        {isSettings ? (
          <SettingsNav workspaceId={workspace.id} />
        ) : (
          <>
            <ExploreNav workspace={workspace} />
            {workspace.basics.domains.includes('marketing') && (
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
        )}
      </AppShell.Navbar>

      {hasAside && (
        <AppShell.Aside>
          <ExploreAside workspace={workspace} />
        </AppShell.Aside>
      )}

      <AppShell.Main>
        <InsideMainLandmark>
          <Outlet />
        </InsideMainLandmark>
      </AppShell.Main>
    </AppShell>
  );
}

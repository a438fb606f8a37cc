import { useEffect } from 'react';
import { AppShell } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { Outlet, useLocation, useMatches } from 'react-router';
import { InsideMainLandmark } from '@web/components/main-landmark';
import { ExploreAside } from '@web/features/explore/components/explore-aside';
import { useCurrentWorkspace } from '@web/lib/workspace';
import { workspaceSection } from '../guards';
import { WorkspaceHeader } from './workspace-header';
import { WorkspaceNavbar } from './workspace-navbar';

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
  const client = useQueryClient();

  // One event stream per tab and workspace: other members' writes refresh what is shown.
  // Loaded after the screen: it keeps the first load small.
  useEffect(() => {
    let close: (() => void) | undefined;
    let left = false;
    void import('@web/lib/live').then(({ openLiveStream }) => {
      if (left) return;
      close = openLiveStream({
        ws: workspace.id,
        client,
        // Access is gone: a full load lets the guards decide (sign-in, or another workspace).
        onRevoked: () => window.location.assign('/'),
      });
    });
    return () => {
      left = true;
      close?.();
    };
  }, [workspace.id, client]);

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
        <WorkspaceHeader
          workspace={workspace}
          isNavOpen={isNavOpen}
          onToggleNav={nav.toggle}
          showSettings={workspace.__permissions.canManageWorkspace && !isSettings}
          hasAside={hasAside}
          onToggleAside={handleToggleAside}
        />
      </AppShell.Header>

      <AppShell.Navbar p="sm">
        <WorkspaceNavbar workspace={workspace} isSettings={isSettings} />
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

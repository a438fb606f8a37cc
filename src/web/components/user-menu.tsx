import { Avatar, Group, Menu, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import {
  IconChevronDown,
  IconDevices,
  IconFingerprint,
  IconLayoutGrid,
  IconLink,
  IconLogout,
  IconShieldLock,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { initials, useMe } from '@web/lib/auth';
import { usePublicConfig } from '@web/lib/public-config';
import { startSsoSignIn, useOwnSsoDiscovery } from '@web/lib/sso';
import { PasskeysModal } from './passkeys-modal';
import { SessionsModal } from './sessions-modal';
import { TwoFactorModal } from './two-factor-modal';

/** Header menu of the signed-in user: who they are, their workspaces, sign out (via /auth/bye). */
export function UserMenu() {
  const { data: user } = useMe();
  const { data: config } = usePublicConfig();
  const { data: sso } = useOwnSsoDiscovery(user?.email);
  const [isSessionsOpen, setSessionsOpen] = useState(false);
  const [isTwoFactorOpen, setTwoFactorOpen] = useState(false);
  const [isPasskeysOpen, setPasskeysOpen] = useState(false);
  if (!user) return null;
  const ssoWorkspace = sso?.workspaceId;
  return (
    <>
      <SessionsModal opened={isSessionsOpen} onClose={() => setSessionsOpen(false)} />
      <TwoFactorModal opened={isTwoFactorOpen} onClose={() => setTwoFactorOpen(false)} />
      <PasskeysModal opened={isPasskeysOpen} onClose={() => setPasskeysOpen(false)} />
      <Menu position="bottom-end" width={240} shadow="md" withinPortal>
        <Menu.Target>
          {/* Named by the visible name, then what it opens (WCAG 2.5.3); the initials only repeat the name. */}
          <UnstyledButton data-testid="user-menu">
            <Group gap={8} wrap="nowrap">
              <Avatar color="marquee" radius="xl" size={32} aria-hidden>
                {initials(user.name, user.email)}
              </Avatar>
              <Text size="sm" fw={550} visibleFrom="sm" maw={160} truncate>
                {user.name}
              </Text>
              <VisuallyHidden>Account menu</VisuallyHidden>
              <IconChevronDown size={14} stroke={1.6} aria-hidden />
            </Group>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>
            <Text size="sm" fw={600} c="var(--mantine-color-text)" truncate>
              {user.name}
            </Text>
            <Text size="xs" c="dimmed" truncate>
              {user.email}
            </Text>
          </Menu.Label>
          <Menu.Divider />
          <Menu.Item component={Link} to="/workspaces" leftSection={<IconLayoutGrid size={16} />}>
            All workspaces
          </Menu.Item>
          <Menu.Item leftSection={<IconDevices size={16} />} onClick={() => setSessionsOpen(true)}>
            Sessions
          </Menu.Item>
          <Menu.Item leftSection={<IconShieldLock size={16} />} onClick={() => setTwoFactorOpen(true)}>
            Two-factor sign-in
          </Menu.Item>
          <Menu.Item leftSection={<IconFingerprint size={16} />} onClick={() => setPasskeysOpen(true)}>
            Passkeys
          </Menu.Item>
          {ssoWorkspace && (
            <Menu.Item
              leftSection={<IconLink size={16} />}
              onClick={() => startSsoSignIn(ssoWorkspace, { returnTo: '/workspaces', isLink: true })}
            >
              Link single sign-on
            </Menu.Item>
          )}
          <Menu.Item component={Link} to="/auth/bye" color="red.9" leftSection={<IconLogout size={16} />}>
            Sign out
          </Menu.Item>
          <Menu.Divider />
          {config && <Menu.Label data-testid="app-version">Marquee {config.version}</Menu.Label>}
          <Menu.Label data-testid="app-build">Build {__MARQUEE_BUILD__}</Menu.Label>
        </Menu.Dropdown>
      </Menu>
    </>
  );
}

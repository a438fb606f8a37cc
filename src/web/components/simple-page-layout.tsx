import type { ReactNode } from 'react';
import { Box, Container, Group } from '@mantine/core';
import { Brand } from './brand';
import { UserMenu } from './user-menu';

/** Layout of the screens outside a workspace (/workspaces, /workspaces/create): a slim header and a centred column. */
export function SimplePageLayout({ children, size = 'md' }: { children: ReactNode; size?: string | number }) {
  return (
    <Box mih="100vh">
      <Box
        component="header"
        px="lg"
        h={60}
        style={{
          display: 'flex',
          alignItems: 'center',
          borderBottom: '1px solid var(--mantine-color-gray-3)',
          background: 'var(--mantine-color-white)',
        }}
      >
        <Group justify="space-between" w="100%">
          <Brand to="/workspaces" />
          <UserMenu />
        </Group>
      </Box>
      <Container component="main" size={size} py={40}>
        {children}
      </Container>
    </Box>
  );
}

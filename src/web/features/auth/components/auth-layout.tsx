import type { ReactNode } from 'react';
import { Box, Group, List, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { Brand } from '@web/components/brand';
import classes from './auth-layout.module.css';

interface AuthLayoutProps {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}

/** Two-pane layout of the sign-in family of screens: product pitch on the left, the form on the right. */
export function AuthLayout({ title, subtitle, children, footer }: AuthLayoutProps) {
  return (
    <Box className={classes.root}>
      <Box className={classes.pitch} visibleFrom="md">
        <Stack gap="xl" maw={420}>
          <Group gap={10}>
            <Text fw={800} size="xl" c="white" style={{ letterSpacing: '-0.02em' }}>
              Marquee
            </Text>
          </Group>
          <Text c="white" fz={36} fw={650} lh={1.15}>
            Plan, write, approve and publish — together.
          </Text>
          <List
            spacing="sm"
            c="marquee.0"
            icon={
              <ThemeIcon size={22} radius="xl" color="white" c="marquee.6">
                <IconCheck size={14} stroke={3} />
              </ThemeIcon>
            }
          >
            <List.Item>Typed content for blogs, campaigns, events and assets</List.Item>
            <List.Item>Roles with edit, publish and approval rights per schema</List.Item>
            <List.Item>Stages from draft to Live, with a full change log</List.Item>
          </List>
        </Stack>
      </Box>
      <Box component="main" className={classes.formPane}>
        <Stack w="100%" maw={400} gap="lg">
          <Box hiddenFrom="md">
            <Brand />
          </Box>
          <Stack gap={4}>
            <Title order={1} fz="h2">
              {title}
            </Title>
            {subtitle && (
              <Text c="dimmed" size="sm">
                {subtitle}
              </Text>
            )}
          </Stack>
          <Paper p="xl" radius="lg" shadow="sm">
            {children}
          </Paper>
          {footer && (
            <Text size="sm" c="dimmed" ta="center">
              {footer}
            </Text>
          )}
        </Stack>
      </Box>
    </Box>
  );
}

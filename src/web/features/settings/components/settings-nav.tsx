import { NavLink, Stack, Text } from '@mantine/core';
import {
  IconAdjustments,
  IconArrowLeft,
  IconCreditCard,
  IconEye,
  IconHistory,
  IconKey,
  IconLanguage,
  IconListSearch,
  IconLogin2,
  IconBroadcast,
  IconMailOff,
  IconMailForward,
  IconWebhook,
  IconSchema,
  IconShieldLock,
  IconStack2,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { explorePath, settingsPath } from '@web/app/guards';

export const SETTINGS_SECTIONS: { id: string; label: string; icon: Icon; description: string }[] = [
  {
    id: 'basics',
    label: 'Basics',
    icon: IconAdjustments,
    description: 'Name, domains, stages and time zones',
  },
  {
    id: 'locales',
    label: 'Locales',
    icon: IconLanguage,
    description: 'Languages of content and their fallbacks',
  },
  {
    id: 'content-model',
    label: 'Content model',
    icon: IconSchema,
    description: 'Domains, schemas, fields and block types, and the history of their changes',
  },
  {
    id: 'preview',
    label: 'Preview',
    icon: IconEye,
    description: 'Origins of the websites editors see beside the form as they write',
  },
  { id: 'users', label: 'Users', icon: IconUsers, description: 'Members and invitations' },
  { id: 'roles', label: 'Roles', icon: IconShieldLock, description: 'Who may edit, publish and approve' },
  {
    id: 'sso',
    label: 'Single sign-on',
    icon: IconLogin2,
    description: 'Sign in with your identity provider, and roles from its groups',
  },
  { id: 'subscription', label: 'Subscription', icon: IconCreditCard, description: 'Plan and usage' },
  { id: 'batches', label: 'Batches', icon: IconStack2, description: 'Bulk jobs and their state' },
  {
    id: 'sending',
    label: 'Sending',
    icon: IconMailForward,
    description: 'Senders, their domains’ DNS records and the postal address for the footer',
  },
  {
    id: 'suppressions',
    label: 'Suppression list',
    icon: IconMailOff,
    description: 'Customers and addresses that are kept out of imports, tracking and sends',
  },
  {
    id: 'api-keys',
    label: 'API keys',
    icon: IconKey,
    description: 'Keys for websites and apps that read published content',
  },
  {
    id: 'write-keys',
    label: 'Write keys',
    icon: IconBroadcast,
    description: 'Keys for websites and apps that send customer events',
  },
  {
    id: 'undeclared',
    label: 'Undeclared data',
    icon: IconListSearch,
    description: 'Events, properties and attributes websites sent that the workspace has not declared',
  },
  {
    id: 'webhooks',
    label: 'Webhooks',
    icon: IconWebhook,
    description: 'Tell other systems when items are published, saved or approved',
  },
  { id: 'audit', label: 'Audit log', icon: IconHistory, description: 'Who did what, when and from where' },
];

/** The settings sidebar (spec §2: basics is the default child). */
export function SettingsNav({ workspaceId }: { workspaceId: string }) {
  const { pathname } = useLocation();
  const current = pathname.split('/')[3] || 'basics';
  return (
    <Stack gap={2} component="nav" aria-label="Settings">
      <NavLink
        component={Link}
        to={explorePath(workspaceId)}
        label="Back to content"
        leftSection={<IconArrowLeft size={17} stroke={1.6} />}
        c="dimmed"
      />
      <Text
        size="xs"
        fw={600}
        c="dimmed"
        tt="uppercase"
        px="sm"
        mt="md"
        mb={4}
        style={{ letterSpacing: '0.04em' }}
      >
        Settings
      </Text>
      {SETTINGS_SECTIONS.map(({ id, label, icon: SectionIcon }) => (
        <NavLink
          key={id}
          component={Link}
          to={settingsPath(workspaceId, id)}
          label={label}
          active={current === id}
          leftSection={<SectionIcon size={17} stroke={1.6} />}
        />
      ))}
    </Stack>
  );
}

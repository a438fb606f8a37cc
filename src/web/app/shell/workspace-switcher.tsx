import { Badge, Group, Menu, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconLayoutGrid, IconPlus, IconSelector } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Workspace } from '@shared/api/workspaces';
import { useWorkspaces } from '@web/lib/workspace';
import { explorePath } from '../guards';

/** Header menu to move between the user's workspaces. */
export function WorkspaceSwitcher({ workspace }: { workspace: Workspace }) {
  const { data: workspaces = [] } = useWorkspaces();
  return (
    <Menu position="bottom-start" width={260} shadow="md">
      <Menu.Target>
        {/* Named by its visible text (WCAG 2.5.3 label in name), then what it does. */}
        <UnstyledButton data-testid="workspace-switcher" maw={300} style={{ minWidth: 0 }}>
          <Group gap={6} wrap="nowrap">
            <Text fw={600} truncate style={{ minWidth: 0 }}>
              {workspace.basics.name || workspace.name}
            </Text>
            <VisuallyHidden>Switch workspace</VisuallyHidden>
            <IconSelector
              size={15}
              color="var(--mantine-color-gray-6)"
              style={{ flexShrink: 0 }}
              aria-hidden
            />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Workspaces</Menu.Label>
        {workspaces.map((w) => (
          <Menu.Item
            key={w.id}
            component={Link}
            to={explorePath(w.id)}
            rightSection={
              w.id === workspace.id ? (
                <IconCheck size={15} />
              ) : !w.oobeDone ? (
                <Badge size="xs">Setup</Badge>
              ) : null
            }
          >
            <Text size="sm" truncate>
              {w.name}
            </Text>
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item component={Link} to="/workspaces" leftSection={<IconLayoutGrid size={15} />}>
          All workspaces
        </Menu.Item>
        <Menu.Item component={Link} to="/workspaces/create" leftSection={<IconPlus size={15} />}>
          New workspace
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

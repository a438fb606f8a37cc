import {
  Badge,
  Button,
  Card,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
  EmptyState,
} from '@mantine/core';
import { IconArrowRight, IconBuildingStore, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { explorePath, oobePath } from '@web/app/guards';
import { SimplePageLayout } from '@web/components/simple-page-layout';
import { FormError } from '@web/components/form-error';
import { useWorkspaces } from '@web/lib/workspace';
import classes from './components/workspace-card.module.css';

/** /workspaces: the workspaces where the user is an active member. */
export default function WorkspacesRoute() {
  const { data: workspaces, isPending, error } = useWorkspaces();

  return (
    <SimplePageLayout>
      <Group justify="space-between" mb="xl" align="flex-end">
        <Stack gap={4}>
          <Title order={1} fz="h2">
            Workspaces
          </Title>
          <Text c="dimmed">Pick a workspace to work in, or start a new one.</Text>
        </Stack>
        {!!workspaces?.length && (
          <Button component={Link} to="/workspaces/create" leftSection={<IconPlus size={16} />}>
            New workspace
          </Button>
        )}
      </Group>

      <FormError error={error} />
      {isPending ? (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Skeleton h={96} radius="md" />
          <Skeleton h={96} radius="md" />
        </SimpleGrid>
      ) : !workspaces?.length ? (
        <Card p={48} radius="lg">
          <EmptyState
            icon={<IconBuildingStore size={28} />}
            variant="light"
            title="No workspaces yet"
            description="A workspace holds your team's content, roles and publishing stages. Create one to get started, or ask a workspace manager to invite you."
          >
            <EmptyState.Actions>
              <Button component={Link} to="/workspaces/create" leftSection={<IconPlus size={16} />}>
                Create a workspace
              </Button>
            </EmptyState.Actions>
          </EmptyState>
        </Card>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" data-testid="workspace-list">
          {workspaces.map((workspace) => (
            <Card
              key={workspace.id}
              component={Link}
              to={workspace.oobeDone ? explorePath(workspace.id) : oobePath(workspace.id)}
              className={classes.card}
              p="lg"
              radius="lg"
            >
              <Group wrap="nowrap" gap="md">
                <ThemeIcon size={44} radius="md" variant="light">
                  <Text fw={700}>{workspace.name.slice(0, 1).toUpperCase()}</Text>
                </ThemeIcon>
                <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                  <Text fw={600} truncate>
                    {workspace.name}
                  </Text>
                  <Text size="xs" c="dimmed" ff="monospace" truncate>
                    /{workspace.id}
                  </Text>
                </Stack>
                <Group gap={6} wrap="nowrap">
                  {!workspace.oobeDone && (
                    <Badge color="orange" variant="light">
                      Setup
                    </Badge>
                  )}
                  {workspace.isWorkspaceManager && (
                    <Badge variant="light" color="gray">
                      Manager
                    </Badge>
                  )}
                  <IconArrowRight size={18} color="var(--mantine-color-gray-5)" />
                </Group>
              </Group>
            </Card>
          ))}
        </SimpleGrid>
      )}
    </SimplePageLayout>
  );
}

import { Badge, Button, Divider, Group, Stack, Text, Title } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Workspace } from '@shared/api/workspaces';
import type { ContentModel } from '@shared/model/registry';
import { settingsPath } from '@web/app/guards';
import { useWorkspaceModel } from '@web/lib/content-model';
import { visibleDomains } from '@web/lib/workspace-content';

/** Titles of the schemas in `names` that belong to a domain this member sees. */
const schemaTitles = (names: string[], visible: Set<string>, model: ContentModel) =>
  names.filter((name) => visible.has(name)).map((name) => model.schema(name)?.pluralTitle ?? name);

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={4}>
      <Text size="xs" fw={600} c="dimmed" tt="uppercase" style={{ letterSpacing: '0.04em' }}>
        {label}
      </Text>
      {children}
    </Stack>
  );
}

function Chips({ values, empty }: { values: string[]; empty: string }) {
  if (!values.length)
    return (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    );
  return (
    <Group gap={6}>
      {values.map((value) => (
        <Badge key={value} variant="light" color="gray" tt="none" fw={500}>
          {value}
        </Badge>
      ))}
    </Group>
  );
}

/** Right drawer of the explore screens: the workspace and what the user may do in it. */
export function ExploreAside({ workspace }: { workspace: Workspace }) {
  const permissions = workspace.__permissions;
  const roleNames = permissions.roles.map((id) => workspace.roles[id]?.name ?? id);
  const model = useWorkspaceModel(workspace);
  const visible = new Set(visibleDomains(workspace, model).flatMap((d) => d.schemas.map((s) => s.name)));
  return (
    <Stack gap="lg" p="md" data-testid="explore-aside">
      <Stack gap={2}>
        <Title order={5}>{workspace.basics.name}</Title>
        <Text size="xs" c="dimmed" ff="monospace">
          /{workspace.id}
        </Text>
      </Stack>
      <Field label="Your access">
        <Group gap={6}>
          {permissions.canManageWorkspace && <Badge variant="filled">Workspace manager</Badge>}
          {roleNames.map((name) => (
            <Badge key={name} variant="light">
              {name}
            </Badge>
          ))}
          {!permissions.canManageWorkspace && !roleNames.length && (
            <Text size="sm" c="dimmed">
              Read only
            </Text>
          )}
        </Group>
      </Field>
      <Field label="You can edit">
        <Chips values={schemaTitles(permissions.canEdit, visible, model)} empty="Nothing yet" />
      </Field>
      <Field label="You can publish">
        <Chips values={schemaTitles(permissions.canPublish, visible, model)} empty="Nothing yet" />
      </Field>
      {permissions.canApprove.length > 0 && (
        <Field label="You approve">
          <Chips values={schemaTitles(permissions.canApprove, visible, model)} empty="Nothing" />
        </Field>
      )}
      <Divider />
      <Field label="Stages">
        <Chips values={workspace.basics.stages} empty="Live" />
      </Field>
      {permissions.canManageWorkspace && (
        <Button
          component={Link}
          to={settingsPath(workspace.id, 'users')}
          variant="light"
          leftSection={<IconUserPlus size={16} />}
        >
          Invite people
        </Button>
      )}
    </Stack>
  );
}

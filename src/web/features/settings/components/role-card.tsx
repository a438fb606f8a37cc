import {
  ActionIcon,
  Card,
  Group,
  MultiSelect,
  Stack,
  Text,
  TextInput,
  Tooltip,
  type ComboboxData,
} from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { Role } from '@shared/permissions/permissions';

const LISTS = [
  { key: 'canEdit', label: 'Can edit', description: 'Create and change items of these types' },
  { key: 'canPublish', label: 'Can publish', description: 'Publish and unpublish items of these types' },
  {
    key: 'mustApprove',
    label: 'Must approve',
    description: 'Items of these types need this role’s approval',
  },
] as const;

/** One role being edited: its name, its id, Delete, and the schemas it can edit, publish and must approve. */
export function RoleCard({
  id,
  role,
  schemaOptions,
  onChange,
  onDelete,
}: {
  id: string;
  role: Role;
  schemaOptions: ComboboxData;
  onChange: (patch: Partial<Role>) => void;
  onDelete: () => void;
}) {
  return (
    <Card p="lg" data-testid={`role-${id}`}>
      <Stack gap="md">
        <Group align="flex-end" wrap="nowrap">
          <TextInput
            label="Role name"
            value={role.name}
            onChange={(e) => onChange({ name: e.currentTarget.value })}
            error={role.name.trim() ? undefined : 'Role name is required'}
            style={{ flex: 1 }}
          />
          <Text size="xs" c="dimmed" ff="monospace" pb={10} visibleFrom="sm">
            {id}
          </Text>
          <Tooltip label="Delete role">
            <ActionIcon
              variant="subtle"
              color="red"
              size="lg"
              mb={2}
              onClick={onDelete}
              aria-label={`Delete role ${role.name}`}
            >
              <IconTrash size={18} />
            </ActionIcon>
          </Tooltip>
        </Group>
        {LISTS.map(({ key, label, description }) => (
          <MultiSelect
            key={key}
            label={label}
            description={description}
            data={schemaOptions}
            value={role[key]}
            onChange={(value) => onChange({ [key]: value })}
            placeholder={role[key].length ? undefined : 'None'}
            searchable
            clearable
            hidePickedOptions
          />
        ))}
      </Stack>
    </Card>
  );
}

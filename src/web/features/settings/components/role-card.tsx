import {
  ActionIcon,
  Badge,
  Card,
  Checkbox,
  Group,
  MultiSelect,
  Stack,
  Text,
  TextInput,
  Tooltip,
  type ComboboxData,
} from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { localeName } from '@shared/locales/locales';
import { normaliseCustomerData, type Role } from '@shared/permissions/permissions';
import { type CustomerDataRight } from '@shared/permissions/customer-data-rights';
import { localeLimitLabel } from '../role-label';

const LISTS = [
  { key: 'canEdit', label: 'Can edit', description: 'Create and change items of these types' },
  { key: 'canPublish', label: 'Can publish', description: 'Publish and unpublish items of these types' },
  {
    key: 'mustApprove',
    label: 'Must approve',
    description: 'Items of these types need this role’s approval',
  },
] as const;

const CUSTOMER_DATA: { right: CustomerDataRight; label: string }[] = [
  { right: 'read', label: 'Read profiles, their events and the suppression list' },
  { right: 'export', label: 'Export audience members as CSV' },
  { right: 'erase', label: 'Erase profiles' },
];

/** The role's rights over customer data; reading is implied by, and held with, exporting and erasing. */
function CustomerDataRights({
  rights,
  onChange,
}: {
  rights: CustomerDataRight[];
  onChange: (rights: CustomerDataRight[]) => void;
}) {
  const implied = rights.includes('export') || rights.includes('erase');
  return (
    <Checkbox.Group
      label="Customer data"
      description="What members holding this role may do with customers’ personal data"
      value={rights}
      onChange={(value) => onChange(normaliseCustomerData(value))}
    >
      <Stack gap="xs" mt="xs">
        {CUSTOMER_DATA.map(({ right, label }) => (
          <Checkbox key={right} value={right} label={label} disabled={right === 'read' && implied} />
        ))}
      </Stack>
    </Checkbox.Group>
  );
}

/**
 * The locales a role may be limited to: the workspace's, and any it still holds of a locale since
 * removed (kept, so that it can be taken off).
 */
function localeOptions(workspaceLocales: readonly string[], held: readonly string[]) {
  const removed = held.filter((tag) => !workspaceLocales.includes(tag));
  return [
    ...workspaceLocales.map((tag) => ({ value: tag, label: `${tag} · ${localeName(tag)}` })),
    ...removed.map((tag) => ({ value: tag, label: `${tag} · removed from the workspace` })),
  ];
}

/**
 * One role being edited: its name, its id, Delete, the schemas it can edit, publish and must approve,
 * its rights over customer data and, in a workspace with locales, the locales it is limited to.
 */
export function RoleCard({
  id,
  role,
  schemaOptions,
  workspaceLocales,
  onChange,
  onDelete,
}: {
  id: string;
  role: Role;
  schemaOptions: ComboboxData;
  /** The workspace's locales; undefined when it has none. */
  workspaceLocales?: readonly string[];
  onChange: (patch: Partial<Role>) => void;
  onDelete: () => void;
}) {
  const limitedTo = role.locales ?? [];
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
          {limitedTo.length > 0 && (
            <Badge variant="light" tt="none" mb={8} style={{ flexShrink: 0 }}>
              {localeLimitLabel(limitedTo)}
            </Badge>
          )}
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
        <CustomerDataRights
          rights={role.customerData ?? []}
          onChange={(customerData) => onChange({ customerData })}
        />
        {workspaceLocales && (
          <MultiSelect
            label="Locales"
            description="Members holding only this role edit only these locales’ values; none chosen: all locales"
            data={localeOptions(workspaceLocales, limitedTo)}
            value={limitedTo}
            onChange={(value) => onChange({ locales: value.length ? value : undefined })}
            placeholder={limitedTo.length ? undefined : 'All locales'}
            clearable
            clearButtonProps={{ 'aria-label': 'All locales: clear the limit' }}
            hidePickedOptions
          />
        )}
      </Stack>
    </Card>
  );
}

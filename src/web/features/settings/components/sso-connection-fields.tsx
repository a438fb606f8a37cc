import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  MultiSelect,
  Stack,
  Switch,
  Table,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { modals } from '@mantine/modals';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { RoleRule } from '@shared/api/sso';
import type { Workspace } from '@shared/api/workspaces';
import { roleLabel } from '../role-label';
import { useDeleteSso } from '../api/change-sso';

/** The values of both connection forms (OpenID Connect and SAML): each validates its own with its schema. */
export interface SsoFormValues {
  issuer: string;
  clientId: string;
  clientSecret: string;
  entryPoint: string;
  idpIssuer: string;
  idpCert: string;
  audience: string;
  domains: string[];
  allowPassword: boolean;
  roleRules: RoleRule[];
}

const emptyRule = (): RoleRule => ({ claim: 'groups', value: '', roles: [], isWorkspaceManager: false });

/** The email domains and whether a password stays allowed for them: the same for either kind of provider. */
export function DomainFields({ form }: { form: UseFormReturnType<SsoFormValues> }) {
  return (
    <>
      <TagsInput
        label="Email domains"
        description="People with an address at these domains are sent to this provider from the sign-in page"
        placeholder="example.com"
        {...form.getInputProps('domains')}
      />
      <Switch
        label="Password sign-in stays allowed for these domains"
        description="Turn off to enforce single sign-on: a password is then refused for these addresses"
        {...form.getInputProps('allowPassword', { type: 'checkbox' })}
      />
    </>
  );
}

export function RoleRulesEditor({
  workspace,
  form,
  claimLabel = 'Claim',
}: {
  workspace: Workspace;
  form: UseFormReturnType<SsoFormValues>;
  claimLabel?: string;
}) {
  const roleOptions = Object.entries(workspace.roles).map(([id, role]) => ({
    value: id,
    label: roleLabel(role),
  }));
  const rules = form.values.roleRules;
  return (
    <Stack gap="xs">
      <Stack gap={2}>
        <Text size="sm" fw={500}>
          Roles from the provider
        </Text>
        <Text size="xs" c="dimmed">
          Every matching rule counts, at every sign-in: someone removed from a group loses its role the next
          time they sign in.
        </Text>
      </Stack>
      {rules.length > 0 && (
        <Table aria-label="Role rules" verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={140}>{claimLabel}</Table.Th>
              <Table.Th>Holds</Table.Th>
              <Table.Th>Roles</Table.Th>
              <Table.Th w={90}>Manager</Table.Th>
              <Table.Th w={40} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rules.map((_, index) => (
              <Table.Tr key={index}>
                <Table.Td>
                  <TextInput aria-label={claimLabel} {...form.getInputProps(`roleRules.${index}.claim`)} />
                </Table.Td>
                <Table.Td>
                  <TextInput
                    aria-label="Value"
                    placeholder="marketing"
                    {...form.getInputProps(`roleRules.${index}.value`)}
                  />
                </Table.Td>
                <Table.Td>
                  <MultiSelect
                    aria-label="Roles"
                    placeholder={form.values.roleRules[index].roles.length ? undefined : 'Choose roles'}
                    searchable
                    miw={200}
                    data={roleOptions}
                    {...form.getInputProps(`roleRules.${index}.roles`)}
                  />
                </Table.Td>
                <Table.Td>
                  <Checkbox
                    aria-label="Manager"
                    {...form.getInputProps(`roleRules.${index}.isWorkspaceManager`, { type: 'checkbox' })}
                  />
                </Table.Td>
                <Table.Td>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label="Remove rule"
                    onClick={() => form.removeListItem('roleRules', index)}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Group>
        <Button
          variant="light"
          size="xs"
          leftSection={<IconPlus size={14} />}
          onClick={() => form.insertListItem('roleRules', emptyRule())}
        >
          Add rule
        </Button>
      </Group>
    </Stack>
  );
}

export function RemoveButton({ workspaceId }: { workspaceId: string }) {
  const remove = useDeleteSso(workspaceId);
  const handleRemove = () =>
    modals.openConfirmModal({
      title: 'Remove single sign-on?',
      children: (
        <Text size="sm">
          People of these domains sign in with a password again. Accounts made by single sign-on keep their
          memberships.
        </Text>
      ),
      labels: { confirm: 'Remove', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(),
    });
  return (
    <Button variant="subtle" color="red" onClick={handleRemove} loading={remove.isPending}>
      Remove
    </Button>
  );
}

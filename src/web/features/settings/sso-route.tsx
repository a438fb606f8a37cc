import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Checkbox,
  Code,
  CopyButton,
  Group,
  MultiSelect,
  PasswordInput,
  Skeleton,
  Stack,
  Switch,
  Table,
  TagsInput,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { schemaResolver, useForm, type UseFormReturnType } from '@mantine/form';
import { modals } from '@mantine/modals';
import { IconCheck, IconCopy, IconPlugConnected, IconPlus, IconTrash } from '@tabler/icons-react';
import { SsoConnectionBody, type RoleRule, type SsoSettings } from '@shared/api/sso';
import type { Workspace } from '@shared/api/workspaces';
import { FormError } from '@web/components/form-error';
import { formatDateTime } from '@web/lib/dates';
import { showToast } from '@web/lib/toast';
import { useCurrentWorkspace } from '@web/lib/workspace';
import { roleLabel } from './role-label';
import { useDeleteSso, useSaveSso, useTestSso } from './api/change-sso';
import { useSsoSettings } from './api/get-sso';
import { ScimProvisioningCard } from './components/scim-provisioning-card';
import { TwoFactorRequirementCard } from './components/two-factor-requirement-card';

interface FormValues {
  issuer: string;
  clientId: string;
  clientSecret: string;
  domains: string[];
  allowPassword: boolean;
  roleRules: RoleRule[];
}

const emptyRule = (): RoleRule => ({ claim: 'groups', value: '', roles: [], isWorkspaceManager: false });

/** /{workspace}/_settings/sso: the workspace's OpenID Connect provider, its domains and its role rules. */
export default function SsoRoute() {
  const workspace = useCurrentWorkspace();
  const { data, isPending, error } = useSsoSettings(workspace.id);
  return (
    <Stack gap="lg">
      <TwoFactorRequirementCard workspaceId={workspace.id} />
      <FormError error={error} />
      {isPending ? (
        <Skeleton h={320} radius="md" />
      ) : data ? (
        <>
          <RedirectCard settings={data} />
          <ConnectionForm key={data.connection?.updatedAt ?? 'new'} workspace={workspace} settings={data} />
          <ScimProvisioningCard workspaceId={workspace.id} />
        </>
      ) : null}
    </Stack>
  );
}

function RedirectCard({ settings }: { settings: SsoSettings }) {
  return (
    <Card p="lg">
      <Stack gap="xs">
        <Title order={5}>Register Marquee at your identity provider</Title>
        <Text size="sm" c="dimmed">
          Create an OpenID Connect web application (authorization code flow) with this redirect URI, and have
          it send a <Code>groups</Code> claim if roles should follow your groups.
        </Text>
        <Group gap="xs" wrap="nowrap">
          <Code block style={{ flex: 1 }} data-testid="sso-redirect-uri">
            {settings.redirectUri}
          </Code>
          <CopyButton value={settings.redirectUri}>
            {({ copied, copy }) => (
              <Tooltip label={copied ? 'Copied' : 'Copy'}>
                <ActionIcon variant="subtle" onClick={copy} aria-label="Copy the redirect URI">
                  {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
        </Group>
      </Stack>
    </Card>
  );
}

function ConnectionForm({ workspace, settings }: { workspace: Workspace; settings: SsoSettings }) {
  const saved = settings.connection;
  const save = useSaveSso(workspace.id);
  const test = useTestSso(workspace.id);
  const form = useForm<FormValues>({
    mode: 'controlled',
    initialValues: {
      issuer: saved?.issuer ?? '',
      clientId: saved?.clientId ?? '',
      clientSecret: '',
      domains: saved?.domains ?? [],
      allowPassword: saved?.allowPassword ?? true,
      roleRules: saved?.roleRules ?? [],
    },
    validate: schemaResolver(SsoConnectionBody, { sync: true }),
  });
  const handleSubmit = form.onSubmit((values) =>
    save.mutate(
      { ...values, clientSecret: values.clientSecret || undefined },
      {
        onSuccess: () => showToast({ color: 'teal', title: 'Single sign-on saved', message: values.issuer }),
      },
    ),
  );
  const handleTest = () => {
    if (form.validateField('issuer').hasError) return;
    test.mutate(form.values.issuer);
  };
  return (
    <Card p="lg">
      <form onSubmit={handleSubmit} noValidate aria-label="OpenID Connect">
        <Stack gap="md">
          <Stack gap={2}>
            <Title order={5}>OpenID Connect</Title>
            <Text size="sm" c="dimmed">
              Entra ID, Okta, Google Workspace, Keycloak, Authentik or any OpenID provider. People sign in
              there and land here with the roles your rules give them.
            </Text>
          </Stack>
          <FormError error={save.error ?? test.error} />
          {test.data && (
            <Alert color="teal" variant="light" title="Connection works" data-testid="sso-test-result">
              {test.data.issuer} answered its discovery document.
            </Alert>
          )}
          <Group align="flex-end" wrap="nowrap">
            <TextInput
              label="Issuer URL"
              placeholder="https://login.example.com/realms/marketing"
              style={{ flex: 1 }}
              {...form.getInputProps('issuer')}
            />
            <Button
              variant="default"
              leftSection={<IconPlugConnected size={16} />}
              onClick={handleTest}
              loading={test.isPending}
            >
              Test connection
            </Button>
          </Group>
          <Group grow align="flex-start">
            <TextInput label="Client ID" {...form.getInputProps('clientId')} />
            <PasswordInput
              label="Client secret"
              placeholder={saved?.hasClientSecret ? 'Saved — leave empty to keep it' : undefined}
              {...form.getInputProps('clientSecret')}
            />
          </Group>
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
          <RoleRulesEditor workspace={workspace} form={form} />
          <Group justify="space-between">
            <Text size="xs" c="dimmed">
              {saved ? `Saved by ${saved.updatedBy}, ${formatDateTime(saved.updatedAt)}` : 'Not set up yet'}
            </Text>
            <Group gap="sm">
              {saved && <RemoveButton workspaceId={workspace.id} />}
              <Button type="submit" loading={save.isPending}>
                Save
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

function RoleRulesEditor({ workspace, form }: { workspace: Workspace; form: UseFormReturnType<FormValues> }) {
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
              <Table.Th w={140}>Claim</Table.Th>
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
                  <TextInput aria-label="Claim" {...form.getInputProps(`roleRules.${index}.claim`)} />
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

function RemoveButton({ workspaceId }: { workspaceId: string }) {
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

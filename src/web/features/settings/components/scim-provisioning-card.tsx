import { useState } from 'react';
import { Button, Card, Code, Group, Skeleton, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { IconKey } from '@tabler/icons-react';
import { CreateScimTokenBody, type ScimTokenSummary } from '@shared/api/scim';
import { CopyTextButton } from '@web/components/copy-text-button';
import { FormError } from '@web/components/form-error';
import { KeyUsageCells } from '@web/components/key-usage-cells';
import { SecretShownOnce } from '@web/components/secret-shown-once';
import { useCreateScimToken } from '../api/create-scim-token';
import { useScimTokens } from '../api/get-scim-tokens';
import { useRevokeScimToken } from '../api/revoke-scim-token';

/**
 * Settings › Single sign-on › Provisioning (SCIM): the base URL to register at the identity provider
 * and the workspace's SCIM tokens, each shown once when made.
 */
export function ScimProvisioningCard({ workspaceId }: { workspaceId: string }) {
  const { data, isPending, error } = useScimTokens(workspaceId);
  return (
    <Card p="lg" component="section" aria-labelledby="scim-title">
      <Stack gap="md">
        <div>
          <Title order={3} size="h5" id="scim-title">
            Provisioning (SCIM)
          </Title>
          <Text size="sm" c="dimmed" mt={4}>
            Your identity provider creates, updates and deactivates members through SCIM 2.0. People it
            provisions are invited with the roles the rules above give their groups; deactivating them ends
            their sessions at once.
          </Text>
        </div>
        <FormError error={error} />
        {isPending ? (
          <Skeleton h={120} radius="md" />
        ) : data ? (
          <>
            <Stack gap={4}>
              <Text size="sm" fw={550}>
                SCIM base URL
              </Text>
              <Group gap="xs" wrap="nowrap">
                <Code block style={{ flex: 1 }} data-testid="scim-base-url">
                  {data.baseUrl}
                </Code>
                <CopyTextButton value={data.baseUrl} label="Copy the SCIM base URL" />
              </Group>
            </Stack>
            <CreateTokenForm workspaceId={workspaceId} />
            <TokensTable workspaceId={workspaceId} tokens={data.tokens} />
          </>
        ) : null}
      </Stack>
    </Card>
  );
}

function CreateTokenForm({ workspaceId }: { workspaceId: string }) {
  const create = useCreateScimToken(workspaceId);
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { name: '' },
    validate: schemaResolver(CreateScimTokenBody, { sync: true }),
  });
  const handleSubmit = form.onSubmit((values) =>
    create.mutate(values, {
      onSuccess: ({ token }) => {
        setCreated({ name: values.name, token });
        form.reset();
      },
    }),
  );
  return (
    <div>
      <form onSubmit={handleSubmit} noValidate aria-label="Make a SCIM token">
        <Group align="flex-end">
          <TextInput
            style={{ flex: 1 }}
            label="Identity provider"
            description="Names the token; the audit log shows its changes under this name"
            placeholder="Entra ID"
            {...form.getInputProps('name')}
          />
          <Button type="submit" leftSection={<IconKey size={16} />} loading={create.isPending}>
            Make token
          </Button>
        </Group>
        <FormError error={create.error} />
      </form>
      {created && <SecretShownOnce name={created.name} secret={created.token} testId="scim-token" />}
    </div>
  );
}

function TokensTable({ workspaceId, tokens }: { workspaceId: string; tokens: ScimTokenSummary[] }) {
  const revoke = useRevokeScimToken(workspaceId);
  if (tokens.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No SCIM tokens yet.
      </Text>
    );
  }
  const handleRevoke = (token: ScimTokenSummary) =>
    modals.openConfirmModal({
      title: `Revoke "${token.name}"?`,
      children: (
        <Text size="sm">
          The identity provider can no longer provision members with this token. This cannot be undone.
        </Text>
      ),
      labels: { confirm: 'Revoke', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => revoke.mutate(token.id),
    });
  return (
    <>
      <FormError error={revoke.error} />
      <Table verticalSpacing="sm" aria-label="SCIM tokens">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Identity provider</Table.Th>
            <Table.Th>Made by</Table.Th>
            <Table.Th>Last used</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tokens.map((token) => (
            <Table.Tr key={token.id}>
              <Table.Td>
                <Text size="sm" fw={550}>
                  {token.name}
                </Text>
              </Table.Td>
              <KeyUsageCells
                usage={token}
                onRevoke={() => handleRevoke(token)}
                revokeLabel={`Revoke ${token.name}`}
              />
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </>
  );
}

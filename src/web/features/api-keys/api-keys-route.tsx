import { useState } from 'react';
import {
  Badge,
  Button,
  Card,
  Checkbox,
  Code,
  EmptyState,
  Group,
  MultiSelect,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { IconKey } from '@tabler/icons-react';
import { CreateApiKeyBody, type ApiKeySummary } from '@shared/api/delivery';
import { stageValue } from '@shared/publishing/stages';
import type { Workspace } from '@shared/api/workspaces';
import { FormError } from '@web/components/form-error';
import { KeyUsageCells } from '@web/components/key-usage-cells';
import { SecretShownOnce } from '@web/components/secret-shown-once';
import { useCurrentWorkspace } from '@web/lib/workspace';
import { useCreateApiKey } from './api/create-api-key';
import { useApiKeys } from './api/list-api-keys';
import { useRevokeApiKey } from './api/revoke-api-key';

/** /{workspace}/_settings/api-keys: keys for the delivery API, created and revoked by managers. */
export default function ApiKeysRoute() {
  const workspace = useCurrentWorkspace();
  const { data, isPending, error } = useApiKeys(workspace.id);
  return (
    <Stack gap="lg">
      <CreateKeyCard workspace={workspace} />
      <FormError error={error} />
      {isPending ? (
        <Skeleton h={140} radius="md" />
      ) : data ? (
        <KeysTable workspace={workspace} keys={data.keys} />
      ) : null}
    </Stack>
  );
}

function CreateKeyCard({ workspace }: { workspace: Workspace }) {
  const create = useCreateApiKey(workspace.id);
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const stageOptions = workspace.basics.stages.map((label) => ({ value: stageValue(label), label }));
  const form = useForm({
    mode: 'controlled',
    initialValues: { name: '', stages: stageOptions.slice(0, 1).map((o) => o.value), preview: false },
    validate: schemaResolver(CreateApiKeyBody, { sync: true }),
  });
  const handleSubmit = form.onSubmit((values) =>
    create.mutate(values, {
      onSuccess: ({ key }) => {
        setCreated({ name: values.name, key });
        form.reset();
      },
    }),
  );
  return (
    <Card p="lg">
      <form onSubmit={handleSubmit} noValidate aria-label="Create an API key">
        <Title order={3} size="h5" mb="xs">
          Create an API key
        </Title>
        <Text size="sm" c="dimmed" mb="md">
          Websites and apps read published items at{' '}
          <Code>/delivery/v1/{workspace.id}/&#123;stage&#125;/items/&#123;schema&#125;</Code> with{' '}
          <Code>Authorization: Bearer mq_…</Code>.
        </Text>
        <Group align="flex-start" grow>
          <TextInput label="Name" placeholder="Website" {...form.getInputProps('name')} />
          <MultiSelect label="Stages it may read" data={stageOptions} {...form.getInputProps('stages')} />
        </Group>
        <Checkbox
          mt="md"
          label="May preview releases"
          description="Reads a release's content before it is published, with ?release={id}"
          {...form.getInputProps('preview', { type: 'checkbox' })}
        />
        <FormError error={create.error} />
        <Group justify="flex-end" mt="md">
          <Button type="submit" leftSection={<IconKey size={16} />} loading={create.isPending}>
            Create key
          </Button>
        </Group>
      </form>
      {created && <SecretShownOnce name={created.name} secret={created.key} testId="api-key" />}
    </Card>
  );
}

function KeysTable({ workspace, keys }: { workspace: Workspace; keys: ApiKeySummary[] }) {
  const revoke = useRevokeApiKey(workspace.id);
  const stageLabel = (value: string) =>
    workspace.basics.stages.find((label) => stageValue(label) === value) ?? value;
  if (keys.length === 0) {
    return (
      <Card p={48}>
        <EmptyState
          icon={<IconKey size={28} />}
          variant="light"
          title="No API keys yet"
          description="Create a key for each website or app that reads your published content."
        />
      </Card>
    );
  }
  const handleRevoke = (key: ApiKeySummary) =>
    modals.openConfirmModal({
      title: `Revoke "${key.name}"?`,
      children: (
        <Text size="sm">Sites using this key can no longer read content. This cannot be undone.</Text>
      ),
      labels: { confirm: 'Revoke', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => revoke.mutate(key.id),
    });
  return (
    <Card p={0}>
      <FormError error={revoke.error} />
      <Table verticalSpacing="sm" horizontalSpacing="md" aria-label="API keys">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Stages</Table.Th>
            <Table.Th>Created by</Table.Th>
            <Table.Th>Last used</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {keys.map((key) => (
            <Table.Tr key={key.id}>
              <Table.Td>
                <Text size="sm" fw={550}>
                  {key.name}
                </Text>
              </Table.Td>
              <Table.Td>
                <Group gap={4}>
                  {key.stages.map((stage) => (
                    <Badge key={stage} variant="light" tt="none">
                      {stageLabel(stage)}
                    </Badge>
                  ))}
                  {key.preview && (
                    <Badge variant="outline" color="grape" tt="none">
                      Previews releases
                    </Badge>
                  )}
                </Group>
              </Table.Td>
              <KeyUsageCells usage={key} onRevoke={() => handleRevoke(key)} />
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}

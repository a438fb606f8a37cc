import { useState } from 'react';
import {
  Badge,
  Button,
  Card,
  Code,
  EmptyState,
  Group,
  SegmentedControl,
  Skeleton,
  Stack,
  Table,
  TagsInput,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { IconKey, IconTrash } from '@tabler/icons-react';
import { CreateWriteKeyBody, type IngestKeyKind, type WriteKeySummary } from '@shared/api/ingest';
import type { Workspace } from '@shared/api/workspaces';
import { FormError } from '@web/components/form-error';
import { SecretShownOnce } from '@web/components/secret-shown-once';
import { formatDateTime, fromNow } from '@web/lib/dates';
import { useCurrentWorkspace } from '@web/lib/workspace';
import { useCreateWriteKey } from './api/create-write-key';
import { useWriteKeys } from './api/list-write-keys';
import { useRevokeWriteKey } from './api/revoke-write-key';

/**
 * /{workspace}/_settings/write-keys: keys websites and apps send customer events with (write keys) and
 * the workspace's own servers do (server keys), created and revoked by managers.
 */
export default function WriteKeysRoute() {
  const workspace = useCurrentWorkspace();
  const { data, isPending, error } = useWriteKeys(workspace.id);
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
  const create = useCreateWriteKey(workspace.id);
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { name: '', kind: 'write' as IngestKeyKind, origins: [] as string[] },
    validate: schemaResolver(CreateWriteKeyBody, { sync: true }),
  });
  const handleSubmit = form.onSubmit((values) =>
    create.mutate(values.kind === 'server' ? { ...values, origins: [] } : values, {
      onSuccess: ({ key }) => {
        setCreated({ name: values.name, key });
        form.reset();
      },
    }),
  );
  return (
    <Card p="lg">
      <form onSubmit={handleSubmit} noValidate aria-label="Create a write key">
        <Title order={3} size="h5" mb="xs">
          Create a write key
        </Title>
        <Text size="sm" c="dimmed" mb="md">
          Websites and apps send customer events to <Code>/ingest/v1/track</Code>,{' '}
          <Code>/ingest/v1/identify</Code> and <Code>/ingest/v1/batch</Code> with{' '}
          <Code>Authorization: Bearer mqw_…</Code>. A page loads <Code>/sdk/marquee.js</Code> and calls{' '}
          <Code>marquee.init(key)</Code>. A write key is public: it may set a protected attribute (email
          unless switched off, and those an attribute marks) on a profile without one, never change it. A
          server key (<Code>mqs_…</Code>) may: keep it on your servers, never in a page or an app.
        </Text>
        <SegmentedControl
          aria-label="Kind of key"
          mb="md"
          data={[
            { value: 'write', label: 'Write key (websites and apps)' },
            { value: 'server', label: 'Server key (secret)' },
          ]}
          {...form.getInputProps('kind')}
        />
        <Group align="flex-start" grow>
          <TextInput label="Name" placeholder="Website" {...form.getInputProps('name')} />
          {form.values.kind === 'write' && (
            <TagsInput
              label="Allowed origins"
              description="Pages of these origins may send; none: any origin"
              placeholder="https://www.example.com"
              {...form.getInputProps('origins')}
            />
          )}
        </Group>
        <FormError error={create.error} />
        <Group justify="flex-end" mt="md">
          <Button type="submit" leftSection={<IconKey size={16} />} loading={create.isPending}>
            Create key
          </Button>
        </Group>
      </form>
      {created && <SecretShownOnce name={created.name} secret={created.key} testId="write-key" />}
    </Card>
  );
}

function KeysTable({ workspace, keys }: { workspace: Workspace; keys: WriteKeySummary[] }) {
  const revoke = useRevokeWriteKey(workspace.id);
  if (keys.length === 0) {
    return (
      <Card p={48}>
        <EmptyState
          icon={<IconKey size={28} />}
          variant="light"
          title="No write keys yet"
          description="Create a key for each website or app that sends customer events."
        />
      </Card>
    );
  }
  const handleRevoke = (key: WriteKeySummary) =>
    modals.openConfirmModal({
      title: `Revoke "${key.name}"?`,
      children: (
        <Text size="sm">Sites and apps using this key can no longer send events. This cannot be undone.</Text>
      ),
      labels: { confirm: 'Revoke', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => revoke.mutate(key.id),
    });
  return (
    <Card p={0}>
      <FormError error={revoke.error} />
      <Table verticalSpacing="sm" horizontalSpacing="md" aria-label="Write keys">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Allowed origins</Table.Th>
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
                {key.kind === 'server' && (
                  <Badge size="xs" variant="light" color="grape">
                    Server key
                  </Badge>
                )}
              </Table.Td>
              <Table.Td>
                {key.kind === 'server' ? (
                  <Text size="sm" c="dimmed">
                    No browser
                  </Text>
                ) : key.origins.length ? (
                  <Group gap={4}>
                    {key.origins.map((origin) => (
                      <Badge key={origin} variant="light" tt="none">
                        {origin}
                      </Badge>
                    ))}
                  </Group>
                ) : (
                  <Text size="sm" c="dimmed">
                    Any origin
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Text size="sm">{key.createdBy}</Text>
                <Text size="xs" c="dimmed" title={formatDateTime(key.createdAt)}>
                  {fromNow(key.createdAt)}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" c={key.lastUsedAt ? undefined : 'dimmed'}>
                  {key.lastUsedAt ? fromNow(key.lastUsedAt) : 'Never'}
                </Text>
              </Table.Td>
              <Table.Td ta="right">
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  leftSection={<IconTrash size={14} />}
                  onClick={() => handleRevoke(key)}
                >
                  Revoke
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}

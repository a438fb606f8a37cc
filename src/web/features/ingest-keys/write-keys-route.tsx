import { useState } from 'react';
import {
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  Code,
  EmptyState,
  Group,
  SegmentedControl,
  Skeleton,
  Stack,
  Switch,
  Table,
  TagsInput,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { IconKey } from '@tabler/icons-react';
import { Link } from 'react-router';
import { CreateWriteKeyBody, type IngestKeyKind, type WriteKeySummary } from '@shared/api/ingest';
import type { Workspace } from '@shared/api/workspaces';
import { FormError } from '@web/components/form-error';
import { KeyUsageCells } from '@web/components/key-usage-cells';
import { SecretShownOnce } from '@web/components/secret-shown-once';
import { settingsPath } from '@web/app/guards';
import { useCurrentWorkspace } from '@web/lib/workspace';
import { useCreateWriteKey } from './api/create-write-key';
import { useWriteKeys } from './api/list-write-keys';
import { useRevokeWriteKey } from './api/revoke-write-key';
import { useUpdateWriteKey } from './api/update-write-key';

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
    initialValues: { name: '', kind: 'write' as IngestKeyKind, origins: [] as string[], strict: false },
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
          server key (<Code>mqs_…</Code>) may: keep it on your servers, never in a page or an app. Events,
          properties and attributes the workspace has not declared are kept and listed under{' '}
          <Anchor component={Link} to={settingsPath(workspace.id, 'undeclared')} inherit underline="always">
            Undeclared data
          </Anchor>
          , unless the key is strict.
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
        <Checkbox
          mt="md"
          label="Strict: refuse events, properties and attributes the workspace has not declared"
          {...form.getInputProps('strict', { type: 'checkbox' })}
        />
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
  const update = useUpdateWriteKey(workspace.id);
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
      <FormError error={revoke.error ?? update.error} />
      <Table verticalSpacing="sm" horizontalSpacing="md" aria-label="Write keys">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Allowed origins</Table.Th>
            <Table.Th>Strict</Table.Th>
            <Table.Th>Created by</Table.Th>
            <Table.Th>Last used</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {keys.map((key) => (
            <KeyRow
              key={key.id}
              writeKey={key}
              onStrict={(strict) => update.mutate({ id: key.id, strict })}
              isSaving={update.isPending}
              onRevoke={() => handleRevoke(key)}
            />
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}

function KeyRow({
  writeKey,
  onStrict,
  isSaving,
  onRevoke,
}: {
  writeKey: WriteKeySummary;
  onStrict: (strict: boolean) => void;
  isSaving: boolean;
  onRevoke: () => void;
}) {
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={550}>
          {writeKey.name}
        </Text>
        {writeKey.kind === 'server' && (
          <Badge size="xs" variant="light" color="grape">
            Server key
          </Badge>
        )}
      </Table.Td>
      <Table.Td>
        {writeKey.kind === 'server' ? (
          <Text size="sm" c="dimmed">
            No browser
          </Text>
        ) : writeKey.origins.length ? (
          <Group gap={4}>
            {writeKey.origins.map((origin) => (
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
        <Switch
          aria-label={`Strict: ${writeKey.name}`}
          title="Refuse undeclared events, properties and attributes"
          checked={writeKey.strict}
          disabled={isSaving}
          onChange={(event) => onStrict(event.currentTarget.checked)}
        />
      </Table.Td>
      <KeyUsageCells usage={writeKey} onRevoke={onRevoke} />
    </Table.Tr>
  );
}

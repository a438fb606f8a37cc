import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Code,
  Drawer,
  EmptyState,
  Group,
  MultiSelect,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { IconRefresh, IconTrash, IconWebhook } from '@tabler/icons-react';
import {
  CreateWebhookBody,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  type WebhookDelivery,
  type WebhookEvent,
  type WebhookSummary,
} from '@shared/api/webhooks';
import type { Workspace } from '@shared/api/workspaces';
import { FormError } from '@web/components/form-error';
import { useWorkspaceModel } from '@web/lib/content-model';
import { formatDateTime, fromNow } from '@web/lib/dates';
import { useCurrentWorkspace } from '@web/lib/workspace';
import { useCreateWebhook, useDeleteWebhook, useRedeliver, useUpdateWebhook } from './api/change-webhooks';
import { useDeliveries, useWebhooks } from './api/list-webhooks';

const STATUS_COLORS = { pending: 'yellow', delivered: 'teal', failed: 'red' } as const;

/** /{workspace}/_settings/webhooks: register webhooks and read each one's delivery log. */
export default function WebhooksRoute() {
  const workspace = useCurrentWorkspace();
  const { data, isPending, error } = useWebhooks(workspace.id);
  const [logOf, setLogOf] = useState<WebhookSummary | null>(null);
  return (
    <Stack gap="lg">
      <RegisterCard workspace={workspace} />
      <FormError error={error} />
      {isPending ? (
        <Skeleton h={140} radius="md" />
      ) : data ? (
        <WebhooksTable workspace={workspace} webhooks={data.webhooks} onShowLog={setLogOf} />
      ) : null}
      <Drawer
        opened={logOf !== null}
        onClose={() => setLogOf(null)}
        position="right"
        size="xl"
        title={logOf ? `Deliveries to ${logOf.url}` : ''}
      >
        {logOf && <DeliveryLog workspace={workspace} webhook={logOf} />}
      </Drawer>
    </Stack>
  );
}

function RegisterCard({ workspace }: { workspace: Workspace }) {
  const create = useCreateWebhook(workspace.id);
  const [secret, setSecret] = useState<string | null>(null);
  const schemaOptions = useWorkspaceModel(workspace)
    .schemasOfDomains(workspace.basics.domains)
    .map((s) => ({
      value: s.name,
      label: s.title,
    }));
  const form = useForm({
    mode: 'controlled',
    initialValues: { url: '', events: ['item.published'] as WebhookEvent[], schemas: [] as string[] },
    validate: schemaResolver(CreateWebhookBody, { sync: true }),
  });
  const handleSubmit = form.onSubmit((values) =>
    create.mutate(values, {
      onSuccess: (created) => {
        setSecret(created.secret);
        form.reset();
      },
    }),
  );
  return (
    <Card p="lg">
      <form onSubmit={handleSubmit} noValidate aria-label="Add a webhook">
        <Title order={3} size="h5" mb="md">
          Add a webhook
        </Title>
        <Stack gap="sm">
          <TextInput
            label="URL"
            placeholder="https://example.com/hooks/marquee"
            {...form.getInputProps('url')}
          />
          <Checkbox.Group label="Events" {...form.getInputProps('events')}>
            <Group mt={6} gap="md">
              {WEBHOOK_EVENTS.map((event) => (
                <Checkbox key={event} value={event} label={WEBHOOK_EVENT_LABELS[event]} />
              ))}
            </Group>
          </Checkbox.Group>
          <MultiSelect
            label="Only these schemas"
            placeholder="Every schema"
            data={schemaOptions}
            clearable
            {...form.getInputProps('schemas')}
          />
        </Stack>
        <FormError error={create.error} />
        <Group justify="flex-end" mt="md">
          <Button type="submit" leftSection={<IconWebhook size={16} />} loading={create.isPending}>
            Add webhook
          </Button>
        </Group>
      </form>
      {secret && (
        <Alert mt="md" color="teal" variant="light" title="Webhook added">
          <Text size="sm" mb="xs">
            Its signing secret, shown only this once. Each delivery carries{' '}
            <Code>X-Marquee-Signature: t=…,v1=…</Code>, the hex HMAC-SHA256 of <Code>{'{t}.{body}'}</Code>.
          </Text>
          <Code block data-testid="webhook-secret">
            {secret}
          </Code>
        </Alert>
      )}
    </Card>
  );
}

function WebhooksTable({
  workspace,
  webhooks,
  onShowLog,
}: {
  workspace: Workspace;
  webhooks: WebhookSummary[];
  onShowLog: (webhook: WebhookSummary) => void;
}) {
  const update = useUpdateWebhook(workspace.id);
  const remove = useDeleteWebhook(workspace.id);
  if (webhooks.length === 0) {
    return (
      <Card p={48}>
        <EmptyState
          icon={<IconWebhook size={28} />}
          variant="light"
          title="No webhooks yet"
          description="Add one to tell a website, build or chat tool when content changes."
        />
      </Card>
    );
  }
  const handleDelete = (webhook: WebhookSummary) =>
    modals.openConfirmModal({
      title: 'Delete this webhook?',
      children: <Text size="sm">{webhook.url} stops receiving deliveries, and its log is deleted.</Text>,
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(webhook.id),
    });
  return (
    <Card p={0}>
      <FormError error={update.error ?? remove.error} />
      <Table verticalSpacing="sm" horizontalSpacing="md" aria-label="Webhooks">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>URL</Table.Th>
            <Table.Th>Events</Table.Th>
            <Table.Th>Active</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {webhooks.map((webhook) => (
            <Table.Tr key={webhook.id}>
              <Table.Td maw={320}>
                <Text size="sm" fw={550} truncate="end" title={webhook.url}>
                  {webhook.url}
                </Text>
                <Text size="xs" c="dimmed">
                  {webhook.schemas ? webhook.schemas.join(', ') : 'Every schema'}
                </Text>
              </Table.Td>
              <Table.Td>
                <Group gap={4}>
                  {webhook.events.map((event) => (
                    <Badge key={event} variant="light" tt="none">
                      {WEBHOOK_EVENT_LABELS[event as WebhookEvent] ?? event}
                    </Badge>
                  ))}
                </Group>
              </Table.Td>
              <Table.Td>
                <Switch
                  aria-label={`Active: ${webhook.url}`}
                  checked={webhook.active}
                  onChange={(e) =>
                    update.mutate({ id: webhook.id, patch: { active: e.currentTarget.checked } })
                  }
                />
              </Table.Td>
              <Table.Td ta="right">
                <Group gap="xs" justify="flex-end" wrap="nowrap">
                  <Button size="xs" variant="light" onClick={() => onShowLog(webhook)}>
                    Deliveries
                  </Button>
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    leftSection={<IconTrash size={14} />}
                    onClick={() => handleDelete(webhook)}
                  >
                    Delete
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}

function DeliveryLog({ workspace, webhook }: { workspace: Workspace; webhook: WebhookSummary }) {
  const { data, isPending, error } = useDeliveries(workspace.id, webhook.id);
  const redeliver = useRedeliver(workspace.id, webhook.id);
  if (error) return <FormError error={error} />;
  if (isPending) return <Skeleton h={120} />;
  if (data.deliveries.length === 0) {
    return (
      <Text c="dimmed" size="sm">
        No deliveries yet. They appear here when a chosen event happens.
      </Text>
    );
  }
  return (
    <Stack gap="sm" aria-label="Delivery log">
      <FormError error={redeliver.error} />
      {data.deliveries.map((delivery) => (
        <DeliveryCard
          key={delivery.id}
          delivery={delivery}
          onRedeliver={() => redeliver.mutate(delivery.id)}
          isRedelivering={redeliver.isPending && redeliver.variables === delivery.id}
        />
      ))}
    </Stack>
  );
}

function DeliveryCard({
  delivery,
  onRedeliver,
  isRedelivering,
}: {
  delivery: WebhookDelivery;
  onRedeliver: () => void;
  isRedelivering: boolean;
}) {
  return (
    <Card withBorder p="sm" data-testid="webhook-delivery">
      <Group justify="space-between" mb={6}>
        <Group gap="xs">
          <Badge color={STATUS_COLORS[delivery.status]} variant="light">
            {delivery.status}
          </Badge>
          <Text size="sm" fw={550}>
            {WEBHOOK_EVENT_LABELS[delivery.event as WebhookEvent] ?? delivery.event}
          </Text>
          <Text size="xs" c="dimmed" title={formatDateTime(delivery.createdAt)}>
            {fromNow(delivery.createdAt)}
          </Text>
        </Group>
        <Button
          size="xs"
          variant="subtle"
          leftSection={<IconRefresh size={14} />}
          onClick={onRedeliver}
          loading={isRedelivering}
        >
          Redeliver
        </Button>
      </Group>
      <Text size="xs" c="dimmed" mb={6}>
        {delivery.tries} {delivery.tries === 1 ? 'try' : 'tries'}
        {delivery.lastStatusCode !== null ? ` · response ${delivery.lastStatusCode}` : ''}
        {delivery.lastError ? ` · ${delivery.lastError}` : ''}
        {delivery.nextAt && delivery.tries > 0 ? ` · next try ${fromNow(delivery.nextAt)}` : ''}
      </Text>
      <Code block fz="xs">
        {JSON.stringify(JSON.parse(delivery.body), null, 2)}
      </Code>
    </Card>
  );
}

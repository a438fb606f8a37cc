import { useEffect, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Code,
  EmptyState,
  Group,
  List,
  Modal,
  Skeleton,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { IconAlertTriangle, IconMailPlus, IconPencil, IconTrash } from '@tabler/icons-react';
import {
  SENDER_MESSAGES,
  SenderBody,
  type Sender,
  type SendingDomain,
  type SendingSettings,
} from '@shared/api/senders';
import { CopyTextButton } from '@web/components/copy-text-button';
import { FormError } from '@web/components/form-error';
import { formatDateTime } from '@web/lib/dates';
import { showToast } from '@web/lib/toast';
import { useCurrentWorkspace } from '@web/lib/workspace';
import {
  useCreateSender,
  useDeleteSender,
  useSavePostalAddress,
  useUpdateSender,
  useVerifySender,
} from './api/change-senders';
import { useSending } from '@web/lib/senders';

/** /{workspace}/_settings/sending: senders, their domains' DNS records and the postal address. */
export default function SendingRoute() {
  const workspace = useCurrentWorkspace();
  const { data, isPending, error } = useSending(workspace.id);
  if (error) return <FormError error={error} />;
  if (isPending) return <Skeleton h={200} radius="md" />;
  return (
    <Stack gap="lg">
      <SendersCard ws={workspace.id} settings={data} />
      {data.domains.map((domain) => (
        <DomainCard
          key={domain.domain}
          ws={workspace.id}
          domain={domain}
          senderId={data.senders.find((s) => s.domain === domain.domain)?.id}
          canManage={data.canManage}
        />
      ))}
      <PostalAddressCard ws={workspace.id} settings={data} />
    </Stack>
  );
}

function SendersCard({ ws, settings }: { ws: string; settings: SendingSettings }) {
  const remove = useDeleteSender(ws);
  // null: closed; 'new': adding; a sender: editing it.
  const [editing, setEditing] = useState<Sender | 'new' | null>(null);
  const verifiedDomains = new Set(settings.domains.filter((d) => d.verified).map((d) => d.domain));
  const handleDelete = (sender: Sender) =>
    modals.openConfirmModal({
      title: 'Delete this sender?',
      children: (
        <Text size="sm">
          {sender.fromName} &lt;{sender.fromAddress}&gt; can no longer be chosen for campaigns.
        </Text>
      ),
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(sender.id),
    });
  return (
    <Card p={0}>
      <Group justify="space-between" p="md">
        <Title order={2} fz="h4">
          Senders
        </Title>
        {settings.canManage && (
          <Button leftSection={<IconMailPlus size={16} />} onClick={() => setEditing('new')}>
            Add sender
          </Button>
        )}
      </Group>
      <FormError error={remove.error} />
      {settings.senders.length === 0 ? (
        <EmptyState
          p="xl"
          icon={<IconMailPlus size={28} />}
          variant="light"
          title="No senders yet"
          description="Add the name and address your campaigns are sent from."
        />
      ) : (
        <SendersTable
          senders={settings.senders}
          verifiedDomains={verifiedDomains}
          canManage={settings.canManage}
          onEdit={setEditing}
          onDelete={handleDelete}
        />
      )}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'Add a sender' : 'Edit sender'}
      >
        {editing !== null && (
          <SenderForm ws={ws} sender={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
        )}
      </Modal>
    </Card>
  );
}

function SendersTable({
  senders,
  verifiedDomains,
  canManage,
  onEdit,
  onDelete,
}: {
  senders: Sender[];
  verifiedDomains: Set<string>;
  canManage: boolean;
  onEdit: (sender: Sender) => void;
  onDelete: (sender: Sender) => void;
}) {
  return (
    <Table verticalSpacing="sm" horizontalSpacing="md" aria-label="Senders">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>From</Table.Th>
          <Table.Th>Reply-to</Table.Th>
          <Table.Th>Domain</Table.Th>
          {canManage && <Table.Th />}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {senders.map((sender) => (
          <Table.Tr key={sender.id}>
            <Table.Td>
              <Text size="sm" fw={550}>
                {sender.fromName}
              </Text>
              <Text size="xs" c="dimmed">
                {sender.fromAddress}
              </Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm">{sender.replyTo ?? '—'}</Text>
            </Table.Td>
            <Table.Td>
              <Group gap={6} wrap="nowrap">
                <Text size="sm">{sender.domain}</Text>
                <DomainBadge verified={verifiedDomains.has(sender.domain)} />
              </Group>
            </Table.Td>
            {canManage && (
              <Table.Td ta="right">
                <Group gap="xs" justify="flex-end" wrap="nowrap">
                  <Button
                    size="xs"
                    variant="subtle"
                    leftSection={<IconPencil size={14} />}
                    onClick={() => onEdit(sender)}
                    aria-label={`Edit ${sender.fromAddress}`}
                  >
                    Edit
                  </Button>
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    leftSection={<IconTrash size={14} />}
                    onClick={() => onDelete(sender)}
                    aria-label={`Delete ${sender.fromAddress}`}
                  >
                    Delete
                  </Button>
                </Group>
              </Table.Td>
            )}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function DomainBadge({ verified }: { verified: boolean }) {
  return verified ? (
    <Badge color="teal" variant="light">
      Verified
    </Badge>
  ) : (
    <Badge color="yellow" variant="light">
      Not verified
    </Badge>
  );
}

function SenderForm({ ws, sender, onDone }: { ws: string; sender: Sender | null; onDone: () => void }) {
  const create = useCreateSender(ws);
  const update = useUpdateSender(ws);
  const form = useForm({
    mode: 'controlled',
    initialValues: {
      fromName: sender?.fromName ?? '',
      fromAddress: sender?.fromAddress ?? '',
      replyTo: sender?.replyTo ?? '',
    },
    validate: schemaResolver(SenderBody, { sync: true }),
  });
  const handleSubmit = form.onSubmit((values) => {
    const done = {
      onSuccess: () => {
        showToast({ color: 'teal', message: sender ? 'Sender saved' : 'Sender added' });
        onDone();
      },
    };
    if (sender) update.mutate({ id: sender.id, patch: values }, done);
    else create.mutate(values, done);
  });
  return (
    <form onSubmit={handleSubmit} noValidate aria-label={sender ? 'Edit sender' : 'Add a sender'}>
      <Stack gap="sm">
        <TextInput
          label="From name"
          placeholder="Acme News"
          data-autofocus
          {...form.getInputProps('fromName')}
        />
        <TextInput
          label="From address"
          placeholder="news@acme.com"
          type="email"
          {...form.getInputProps('fromAddress')}
        />
        <TextInput
          label="Reply-to"
          description="Optional: where replies go instead of the From address"
          type="email"
          {...form.getInputProps('replyTo')}
        />
      </Stack>
      <FormError error={create.error ?? update.error} />
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" loading={create.isPending || update.isPending}>
          {sender ? 'Save' : 'Add sender'}
        </Button>
      </Group>
    </form>
  );
}

function DomainCard({
  ws,
  domain,
  senderId,
  canManage,
}: {
  ws: string;
  domain: SendingDomain;
  senderId: string | undefined;
  canManage: boolean;
}) {
  const verify = useVerifySender(ws);
  return (
    <Card p="lg" aria-label={`Domain ${domain.domain}`} component="section">
      <Group justify="space-between" mb="sm">
        <Group gap="xs">
          <Title order={2} fz="h4">
            {domain.domain}
          </Title>
          <DomainBadge verified={domain.verified} />
        </Group>
        {canManage && senderId && (
          <Button variant="light" loading={verify.isPending} onClick={() => verify.mutate(senderId)}>
            Check DNS records
          </Button>
        )}
      </Group>
      {!domain.verified && (
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} mb="sm">
          {SENDER_MESSAGES.likelySpam}
        </Alert>
      )}
      <FormError error={verify.error} />
      {domain.problems.length > 0 && (
        <List size="sm" c="red.8" mb="sm" aria-label="Problems found">
          {domain.problems.map((problem) => (
            <List.Item key={problem}>{problem}</List.Item>
          ))}
        </List>
      )}
      <Text size="sm" mb="sm">
        {domain.verified
          ? `Keep these TXT records in the DNS of ${domain.domain}: mail from it is signed with DKIM.`
          : `Publish these TXT records in the DNS of ${domain.domain}, then check them. Mail from it is signed with DKIM once they are found.`}
      </Text>
      <Table verticalSpacing="xs" aria-label={`DNS records of ${domain.domain}`} layout="fixed">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={70}>Record</Table.Th>
            <Table.Th w={60}>Type</Table.Th>
            <Table.Th w="32%">Host</Table.Th>
            <Table.Th>Value</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {domain.records.map((record) => (
            <Table.Tr key={record.kind}>
              <Table.Td>{record.kind.toUpperCase()}</Table.Td>
              <Table.Td>{record.type}</Table.Td>
              <Table.Td>
                <Stack gap={4} align="flex-start">
                  <Code style={{ wordBreak: 'break-all' }}>{record.name}</Code>
                  <CopyTextButton
                    value={record.name}
                    label={`Copy ${record.kind.toUpperCase()} host`}
                    compact
                  />
                </Stack>
              </Table.Td>
              <Table.Td>
                <Stack gap={4} align="flex-start">
                  <Code style={{ wordBreak: 'break-all' }} data-testid={`${record.kind}-value`}>
                    {record.value}
                  </Code>
                  <CopyTextButton
                    value={record.value}
                    label={`Copy ${record.kind.toUpperCase()} value`}
                    compact
                  />
                </Stack>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed" mt="sm">
        {domain.checkedAt ? `Last checked ${formatDateTime(domain.checkedAt)}` : 'Not checked yet'}
        {domain.verifiedAt ? ` · verified ${formatDateTime(domain.verifiedAt)}` : ''}
      </Text>
    </Card>
  );
}

function PostalAddressCard({ ws, settings }: { ws: string; settings: SendingSettings }) {
  const save = useSavePostalAddress(ws);
  const [value, setValue] = useState(settings.postalAddress);
  useEffect(() => setValue(settings.postalAddress), [settings.postalAddress]);
  const handleSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    save.mutate(
      { postalAddress: value },
      { onSuccess: () => showToast({ color: 'teal', message: 'Postal address saved' }) },
    );
  };
  return (
    <Card p="lg" component="form" onSubmit={handleSubmit} aria-label="Postal address">
      <Title order={2} fz="h4" mb={4}>
        Postal address
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        The law in many countries asks for it in the footer of every marketing email.
      </Text>
      <Textarea
        label="Postal address"
        autosize
        minRows={3}
        maxLength={500}
        value={value}
        readOnly={!settings.canManage}
        onChange={(e) => setValue(e.currentTarget.value)}
      />
      <FormError error={save.error} />
      {settings.canManage && (
        <Group justify="flex-end" mt="md">
          <Button type="submit" loading={save.isPending} disabled={value === settings.postalAddress}>
            Save address
          </Button>
        </Group>
      )}
    </Card>
  );
}

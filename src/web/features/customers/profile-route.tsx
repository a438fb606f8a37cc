import { useState } from 'react';
import {
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconPencil, IconTrash } from '@tabler/icons-react';
import { Link, useNavigate, useParams } from 'react-router';
import { CUSTOMER_DATA_MESSAGES, type EmailConsentState, type ProfileDetail } from '@shared/api/customers';
import { can } from '@shared/permissions/permissions';
import { FormError } from '@web/components/form-error';
import { PageHeader } from '@web/components/page-header';
import { formatDateTime, fromNow } from '@web/lib/dates';
import { showToast } from '@web/lib/toast';
import { useCurrentWorkspace } from '@web/lib/workspace';
import { useEditProfile } from './api/edit-profile';
import { useEraseProfile } from './api/erase-profile';
import { editedValue, showValue } from './attribute-value';
import { useProfile, useProfileAudiences, useProfileEvents } from './api/get-profiles';
import { JourneysCard } from './components/journeys-card';

const CONSENT_COLOR: Record<EmailConsentState, string> = {
  subscribed: 'teal',
  unsubscribed: 'red',
  unknown: 'gray',
};
const CONSENT_OPTIONS = [
  { value: 'subscribed', label: 'Subscribed' },
  { value: 'unsubscribed', label: 'Unsubscribed' },
  { value: 'unknown', label: 'Unknown' },
];

/** The attribute rows: every declared attribute by label, then keys the profile has without one (no type). */
function attributeRows(detail: ProfileDetail) {
  const declared = detail.labels.map(({ key, label, type }) => ({
    key,
    label,
    type: type as string | undefined,
  }));
  const known = new Set(declared.map((row) => row.key));
  const extra = Object.keys(detail.profile.attributes)
    .filter((key) => !known.has(key))
    .map((key) => ({ key, label: key, type: undefined }));
  return [...declared, ...extra];
}

function AttributesCard({ ws, detail }: { ws: string; detail: ProfileDetail }) {
  const [draft, setDraft] = useState<Record<string, string> | null>(null);
  const edit = useEditProfile(ws, detail.profile.id);
  const rows = attributeRows(detail);
  const { attributes } = detail.profile;

  const typeOf = new Map(rows.map(({ key, type }) => [key, type]));
  const asInput = (key: string) => editedValue(attributes[key], typeOf.get(key));
  const handleEdit = () => setDraft(Object.fromEntries(rows.map(({ key }) => [key, asInput(key)])));
  const handleSave = () => {
    if (!draft) return;
    const changed = Object.fromEntries(
      Object.entries(draft)
        .filter(([key, value]) => value !== asInput(key))
        .map(([key, value]) => [key, value.trim() === '' ? null : value]),
    );
    edit.mutate(
      { updatedAt: detail.profile.updatedAt, attributes: changed },
      {
        onSuccess: () => {
          setDraft(null);
          showToast({ color: 'teal', message: 'Profile saved' });
        },
      },
    );
  };

  return (
    <Card withBorder>
      <Group justify="space-between" mb="sm">
        <Title order={2} fz="h4">
          Attributes
        </Title>
        {detail.abilities.canEdit && !draft && (
          <Button variant="default" size="xs" leftSection={<IconPencil size={14} />} onClick={handleEdit}>
            Edit
          </Button>
        )}
      </Group>
      <FormError error={edit.error} />
      <Table data-testid="profile-attributes" fz="sm">
        <Table.Tbody>
          {rows.map(({ key, label, type }) => (
            <Table.Tr key={key}>
              <Table.Th w="40%">
                <Text size="sm" fw={550}>
                  {label}
                </Text>
                {label !== key && (
                  <Text size="xs" c="dimmed">
                    {key}
                  </Text>
                )}
              </Table.Th>
              <Table.Td>
                {draft ? (
                  type === 'boolean' ? (
                    <Select
                      aria-label={label}
                      data={[
                        { value: 'yes', label: 'yes' },
                        { value: 'no', label: 'no' },
                      ]}
                      clearable
                      value={draft[key] || null}
                      onChange={(value) => setDraft({ ...draft, [key]: value ?? '' })}
                    />
                  ) : (
                    <TextInput
                      aria-label={label}
                      value={draft[key] ?? ''}
                      description={type === 'array' ? 'Values separated by |' : undefined}
                      onChange={(event) => setDraft({ ...draft, [key]: event.currentTarget.value })}
                    />
                  )
                ) : (
                  showValue(attributes[key], type) || (
                    <Text span c="dimmed" size="sm">
                      —
                    </Text>
                  )
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {draft && (
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={() => setDraft(null)}>
            Cancel
          </Button>
          <Button onClick={handleSave} loading={edit.isPending}>
            Save
          </Button>
        </Group>
      )}
    </Card>
  );
}

function ConsentCard({ ws, detail }: { ws: string; detail: ProfileDetail }) {
  const edit = useEditProfile(ws, detail.profile.id);
  const { email } = detail.consent;
  const handleChange = (value: string | null) => {
    if (!value || value === email.state) return;
    edit.mutate({ updatedAt: detail.profile.updatedAt, emailConsent: value as EmailConsentState });
  };
  return (
    <Card withBorder>
      <Title order={2} fz="h4" mb="sm">
        Consent
      </Title>
      <FormError error={edit.error} />
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Group gap="xs">
            <Text size="sm" fw={550}>
              Email
            </Text>
            <Badge color={CONSENT_COLOR[email.state]} variant="light" data-testid="email-consent">
              {email.state}
            </Badge>
          </Group>
          <Text size="xs" c="dimmed">
            {email.changedAt
              ? `Changed ${fromNow(email.changedAt)}${email.source ? ` by ${email.source}` : ''}`
              : 'Never set'}
          </Text>
        </Stack>
        {detail.abilities.canEdit && (
          <Select
            aria-label="Email consent"
            size="xs"
            w={150}
            data={CONSENT_OPTIONS}
            value={email.state}
            allowDeselect={false}
            onChange={handleChange}
            disabled={edit.isPending}
          />
        )}
      </Group>
    </Card>
  );
}

function AudiencesCard({ ws, id }: { ws: string; id: string }) {
  const { data, error } = useProfileAudiences(ws, id);
  return (
    <Card withBorder>
      <Title order={2} fz="h4" mb="sm">
        Audiences now
      </Title>
      <FormError error={error} />
      {!data ? (
        <Skeleton h={24} />
      ) : data.audiences.length === 0 ? (
        <Text size="sm" c="dimmed">
          In no audience.
        </Text>
      ) : (
        <Group gap="xs" data-testid="profile-audiences">
          {data.audiences.map((audience) => (
            <Badge key={audience.id} variant="outline">
              {audience.label}
            </Badge>
          ))}
        </Group>
      )}
    </Card>
  );
}

function TimelineCard({ ws, detail }: { ws: string; detail: ProfileDetail }) {
  const [event, setEvent] = useState('');
  const timeline = useProfileEvents(ws, detail.profile.id, event);
  const events = timeline.data?.pages.flatMap((page) => page.events) ?? [];
  const labelOf = new Map(detail.eventTypes.map((type) => [type.key, type.label]));
  return (
    <Card withBorder>
      <Group justify="space-between" mb="sm">
        <Title order={2} fz="h4">
          Timeline
        </Title>
        <Select
          aria-label="Filter by event"
          placeholder="All events"
          size="xs"
          w={200}
          clearable
          data={detail.eventTypes.map((type) => ({ value: type.key, label: type.label }))}
          value={event || null}
          onChange={(value) => setEvent(value ?? '')}
        />
      </Group>
      <FormError error={timeline.error} />
      {timeline.isPending ? (
        <Skeleton h={120} />
      ) : events.length === 0 ? (
        <Text size="sm" c="dimmed">
          No events yet.
        </Text>
      ) : (
        <Table fz="sm" data-testid="profile-timeline">
          <Table.Tbody>
            {events.map((e, index) => (
              <Table.Tr key={`${e.at}-${index}`}>
                <Table.Td w={240}>
                  <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                    {formatDateTime(e.at)}
                  </Text>
                </Table.Td>
                <Table.Td w={160}>
                  <Badge variant="light">{labelOf.get(e.event) ?? e.event}</Badge>
                </Table.Td>
                <Table.Td c="dimmed">
                  <Text size="xs" c="dimmed">
                    {Object.entries(e.properties)
                      .map(([key, value]) => `${key}: ${showValue(value)}`)
                      .join(' · ')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {timeline.hasNextPage && (
        <Button
          mt="sm"
          variant="default"
          onClick={() => timeline.fetchNextPage()}
          loading={timeline.isFetchingNextPage}
        >
          Load More
        </Button>
      )}
    </Card>
  );
}

function EraseDialog({
  ws,
  id,
  opened,
  onClose,
}: {
  ws: string;
  id: string;
  opened: boolean;
  onClose: () => void;
}) {
  const [suppress, setSuppress] = useState(true);
  const erase = useEraseProfile(ws, id);
  const navigate = useNavigate();
  const handleErase = () =>
    erase.mutate(
      { suppress },
      {
        onSuccess: (answer) => {
          showToast({
            color: 'teal',
            message: `Customer erased with ${answer.events.toLocaleString('en-US')} events`,
          });
          void navigate(`/${ws}/marketing/_customers`);
        },
      },
    );
  return (
    <Modal opened={opened} onClose={onClose} title="Erase customer" centered>
      <Stack>
        <Text size="sm">
          This deletes the profile <b>{id}</b>, all its events and its counts for good. The audit log keeps
          that a profile was erased, not its data.
        </Text>
        <Checkbox
          checked={suppress}
          onChange={(event) => setSuppress(event.currentTarget.checked)}
          label="Keep the id on the suppression list, so a later import or tracking cannot bring it back"
        />
        <FormError error={erase.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" onClick={handleErase} loading={erase.isPending}>
            Erase customer
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** /{workspace}/marketing/_customers/{profileId}: one customer's attributes, consent, audiences, journeys and timeline. */
export default function ProfileRoute() {
  const workspace = useCurrentWorkspace();
  const { profileId = '' } = useParams();
  const rights = workspace.__permissions;
  const canRead = can(rights, 'customerData', 'read');
  const { data, error } = useProfile(workspace.id, canRead ? profileId : null);
  const [eraseOpen, setEraseOpen] = useState(false);
  const back = (
    <Anchor component={Link} to={`/${workspace.id}/marketing/_customers`} size="sm">
      <Group gap={4}>
        <IconArrowLeft size={14} /> Customers
      </Group>
    </Anchor>
  );
  if (error || !canRead) {
    return (
      <Stack>
        {back}
        {canRead ? <FormError error={error} /> : <Text c="dimmed">{CUSTOMER_DATA_MESSAGES.read}.</Text>}
      </Stack>
    );
  }
  return (
    <Stack>
      {back}
      <PageHeader
        eyebrow="Customer"
        title={profileId}
        description={data ? `Updated ${formatDateTime(data.profile.updatedAt)}` : undefined}
        actions={
          data &&
          can(rights, 'customerData', 'erase') && (
            <Button
              color="red"
              variant="light"
              leftSection={<IconTrash size={16} />}
              onClick={() => setEraseOpen(true)}
            >
              Erase customer
            </Button>
          )
        }
      />
      {!data ? (
        <Skeleton h={300} />
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            <AttributesCard key={data.profile.updatedAt} ws={workspace.id} detail={data} />
            <Stack gap="md">
              <ConsentCard ws={workspace.id} detail={data} />
              <AudiencesCard ws={workspace.id} id={profileId} />
            </Stack>
          </SimpleGrid>
          <JourneysCard ws={workspace.id} id={profileId} />
          <TimelineCard ws={workspace.id} detail={data} />
          <EraseDialog
            ws={workspace.id}
            id={profileId}
            opened={eraseOpen}
            onClose={() => setEraseOpen(false)}
          />
        </>
      )}
    </Stack>
  );
}

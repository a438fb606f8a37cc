import { useState } from 'react';
import {
  Badge,
  Button,
  Card,
  Drawer,
  EmptyState,
  Group,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch, IconUpload, IconUsers } from '@tabler/icons-react';
import { FormError } from '@web/components/form-error';
import { formatDateTime } from '@web/lib/dates';
import { useCurrentWorkspace } from '@web/lib/workspace';
import { useProfile, useProfiles } from './api/get-profiles';
import { ImportDialog } from './components/import-dialog';

const show = (value: unknown) => (Array.isArray(value) ? value.join(', ') : String(value));

function ProfileDrawer({ ws, id, onClose }: { ws: string; id: string | null; onClose: () => void }) {
  const { data, error } = useProfile(ws, id);
  return (
    <Drawer opened={id !== null} onClose={onClose} position="right" size="md" title={`Profile ${id ?? ''}`}>
      {error ? (
        <FormError error={error} />
      ) : !data ? (
        <Skeleton h={200} />
      ) : (
        <Stack>
          <Table data-testid="profile-attributes" fz="sm">
            <Table.Tbody>
              {Object.entries(data.profile.attributes).map(([key, value]) => (
                <Table.Tr key={key}>
                  <Table.Th w={140}>{key}</Table.Th>
                  <Table.Td>{show(value)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Title order={5}>Latest events</Title>
          {data.events.length === 0 ? (
            <Text c="dimmed" size="sm">
              No events yet.
            </Text>
          ) : (
            <Table fz="xs" data-testid="profile-events">
              <Table.Tbody>
                {data.events.map((event, index) => (
                  <Table.Tr key={index}>
                    <Table.Td>
                      <Badge variant="light">{event.event}</Badge>
                    </Table.Td>
                    <Table.Td>{formatDateTime(event.at)}</Table.Td>
                    <Table.Td c="dimmed">
                      {Object.entries(event.properties)
                        .map(([key, value]) => `${key}: ${show(value)}`)
                        .join(' · ')}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Stack>
      )}
    </Drawer>
  );
}

/** /{workspace}/marketing/_customers: imported customer profiles, paged by id, with the import dialog. */
export default function CustomersRoute() {
  const workspace = useCurrentWorkspace();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const [openId, setOpenId] = useState<string | null>(null);
  const [importOpen, setImportOpen] = useState(false);
  const profiles = useProfiles(workspace.id, debounced);
  const rows = profiles.data?.pages.flatMap((page) => page.profiles) ?? [];

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} fz="h2">
          Customers
        </Title>
        <Button leftSection={<IconUpload size={16} />} onClick={() => setImportOpen(true)}>
          Import
        </Button>
      </Group>
      <TextInput
        leftSection={<IconSearch size={16} />}
        placeholder="Search by profile id"
        aria-label="Search by profile id"
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        maw={360}
      />
      {profiles.error ? (
        <FormError error={profiles.error} />
      ) : profiles.isPending ? (
        <Skeleton h={200} />
      ) : rows.length === 0 ? (
        <Card p={48}>
          <EmptyState
            icon={<IconUsers size={28} />}
            variant="light"
            title={debounced ? 'No profile matches' : 'No customer profiles yet'}
            description="Import a CSV or NDJSON file of profiles and their events."
          />
        </Card>
      ) : (
        <Card p={0}>
          <Table highlightOnHover verticalSpacing="xs" data-testid="profiles-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Profile</Table.Th>
                <Table.Th>Attributes</Table.Th>
                <Table.Th>Updated</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((profile) => (
                <Table.Tr
                  key={profile.id}
                  onClick={() => setOpenId(profile.id)}
                  style={{ cursor: 'pointer' }}
                >
                  <Table.Td fw={550}>{profile.id}</Table.Td>
                  <Table.Td>
                    <Text size="xs" c="dimmed" lineClamp={1}>
                      {Object.entries(profile.attributes)
                        .map(([key, value]) => `${key}: ${show(value)}`)
                        .join(' · ')}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs">{formatDateTime(profile.updatedAt)}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
      )}
      {profiles.hasNextPage && (
        <Button
          variant="default"
          onClick={() => profiles.fetchNextPage()}
          loading={profiles.isFetchingNextPage}
        >
          Load More
        </Button>
      )}
      <ProfileDrawer ws={workspace.id} id={openId} onClose={() => setOpenId(null)} />
      <ImportDialog ws={workspace.id} opened={importOpen} onClose={() => setImportOpen(false)} />
    </Stack>
  );
}

import { useState } from 'react';
import {
  Anchor,
  Button,
  Card,
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
import { Link, useNavigate } from 'react-router';
import { CUSTOMER_DATA_MESSAGES, PROFILE_SEARCH_MIN } from '@shared/api/customers';
import { can } from '@shared/permissions/permissions';
import { useProfiles } from './api/get-profiles';
import { showValue } from './attribute-value';
import { ImportDialog } from './components/import-dialog';

/**
 * /{workspace}/marketing/_customers: customer profiles (for members who may read customer data), paged
 * by id or found by id, email or any string attribute; a row opens the profile. With the import dialog.
 */
export default function CustomersRoute() {
  const workspace = useCurrentWorkspace();
  const [importOpen, setImportOpen] = useState(false);
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
      {can(workspace.__permissions, 'customerData', 'read') ? (
        <ProfileSearch ws={workspace.id} />
      ) : (
        <Text c="dimmed">{CUSTOMER_DATA_MESSAGES.read}.</Text>
      )}
      <ImportDialog ws={workspace.id} opened={importOpen} onClose={() => setImportOpen(false)} />
    </Stack>
  );
}

/** The search box, the profiles it finds (or the first ones by id) and Load More. */
function ProfileSearch({ ws }: { ws: string }) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const navigate = useNavigate();
  const profilePath = (id: string) => `/${ws}/marketing/_customers/${encodeURIComponent(id)}`;
  const profiles = useProfiles(ws, debounced);
  const rows = profiles.data?.pages.flatMap((page) => page.profiles) ?? [];

  return (
    <>
      <TextInput
        leftSection={<IconSearch size={16} />}
        placeholder="Search by id, email or any attribute"
        aria-label="Search customers"
        description={
          search.trim() && search.trim().length < PROFILE_SEARCH_MIN
            ? `Ids starting with this; from ${PROFILE_SEARCH_MIN} characters, emails and attributes too`
            : undefined
        }
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        maw={420}
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
                  onClick={() => void navigate(profilePath(profile.id))}
                  style={{ cursor: 'pointer' }}
                >
                  <Table.Td fw={550}>
                    <Anchor
                      component={Link}
                      to={profilePath(profile.id)}
                      onClick={(e) => e.stopPropagation()}
                    >
                      {profile.id}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs" c="dimmed" lineClamp={1}>
                      {Object.entries(profile.attributes)
                        .map(([key, value]) => `${key}: ${showValue(value)}`)
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
    </>
  );
}

import { useState } from 'react';
import { Alert, Button, Group, Loader, Modal, Paper, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconUsers } from '@tabler/icons-react';
import { checkCriteria } from '@shared/criteria/check';
import { newRootGroup } from '@shared/criteria/defaults';
import type { CriteriaCatalog } from '@shared/criteria/catalog';
import type { CriteriaDefinitions } from '@shared/api/customers';
import type { CriteriaGroup } from '@shared/criteria/tree';
import type { FieldProps } from '@web/components/fields/types';
import { useCanCustomerData, useCurrentWorkspace } from '@web/lib/workspace';
import { useAudienceSample, useAudienceSize, useCriteriaDefinitions } from './api';
import { GroupNode } from './group-node';

const SIZE_DEBOUNCE_MS = 400;

const asRoot = (value: unknown): CriteriaGroup =>
  value && typeof value === 'object' && 'children' in value ? (value as CriteriaGroup) : newRootGroup();

/** The builder's catalogue for the same check the server runs: only complete trees are sized. */
function catalogOf(defs: CriteriaDefinitions): CriteriaCatalog {
  return {
    attributes: new Map(defs.attributes.map((a) => [a.id, a])),
    events: new Map(
      defs.events.map((e) => [
        e.id,
        { ...e, properties: new Map(e.properties.map((p) => [p.name, p.type])) },
      ]),
    ),
    // Included audiences are checked by the server; here they only need to exist.
    audiences: new Map(defs.audiences.map((a) => [a.id, { label: a.label, criteria: undefined }])),
  };
}

function SampleModal({ ws, criteria, onClose }: { ws: string; criteria: string; onClose: () => void }) {
  const { data, isPending, error } = useAudienceSample(ws, criteria, true);
  return (
    <Modal opened onClose={onClose} title="Sample of matching profiles" size="lg">
      {error ? (
        <Alert color="red">{error.message}</Alert>
      ) : isPending ? (
        <Skeleton h={120} />
      ) : data.profiles.length === 0 ? (
        <Text c="dimmed">No profile matches these rules.</Text>
      ) : (
        <Table data-testid="audience-sample" fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Profile</Table.Th>
              <Table.Th>Attributes</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.profiles.map((profile) => (
              <Table.Tr key={profile.id}>
                <Table.Td fw={550}>{profile.id}</Table.Td>
                <Table.Td>
                  <Text size="xs" c="dimmed">
                    {Object.entries(profile.attributes)
                      .map(
                        ([key, value]) =>
                          `${key}: ${Array.isArray(value) ? value.join(', ') : String(value)}`,
                      )
                      .join(' · ')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Modal>
  );
}

/**
 * The live size of a complete tree (debounced; a newer tree cancels the older request) and, for members
 * who may read customer data, its sample.
 */
function AudienceSize({ ws, tree, defs }: { ws: string; tree: CriteriaGroup; defs: CriteriaDefinitions }) {
  const problem = checkCriteria(tree, catalogOf(defs));
  const [debounced] = useDebouncedValue(problem ? null : JSON.stringify(tree), SIZE_DEBOUNCE_MS);
  const size = useAudienceSize(ws, problem ? null : debounced);
  const [sampleOpen, setSampleOpen] = useState(false);
  const canSample = useCanCustomerData(ws, 'read');
  return (
    <Group gap="sm" data-testid="audience-size">
      <IconUsers size={16} />
      {problem ? (
        <Text size="sm" c="dimmed">
          Complete rule {problem.node} to see the size ({problem.message})
        </Text>
      ) : size.error ? (
        <Text size="sm" c="red">
          {size.error.message}
        </Text>
      ) : size.data ? (
        <Text size="sm" data-size={size.data.size}>
          <b>{size.data.size.toLocaleString()}</b> of {size.data.profiles.toLocaleString()} profiles match
        </Text>
      ) : (
        <Loader size="xs" />
      )}
      {(size.isFetching || debounced !== (problem ? null : JSON.stringify(tree))) && !problem && (
        <Loader size={12} />
      )}
      {!problem && debounced && canSample && (
        <Button size="compact-xs" variant="light" onClick={() => setSampleOpen(true)}>
          Sample
        </Button>
      )}
      {sampleOpen && debounced && (
        <SampleModal ws={ws} criteria={debounced} onClose={() => setSampleOpen(false)} />
      )}
    </Group>
  );
}

/** The criteria field editor: the spec's rule builder with the audience's live size. */
export function CriteriaField({ value, onChange, readOnly }: FieldProps) {
  const workspace = useCurrentWorkspace();
  const definitions = useCriteriaDefinitions(workspace.id);
  const root = asRoot(value);
  if (definitions.error) return <Alert color="red">{definitions.error.message}</Alert>;
  if (!definitions.data) return <Skeleton h={80} />;
  return (
    <Paper withBorder p="sm" radius="md" data-testid="criteria-builder">
      <Stack gap="sm">
        <GroupNode
          root={root}
          group={root}
          path={[]}
          defs={definitions.data}
          onChange={onChange}
          readOnly={readOnly}
        />
        <AudienceSize ws={workspace.id} tree={root} defs={definitions.data} />
      </Stack>
    </Paper>
  );
}

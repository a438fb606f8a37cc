import {
  Anchor,
  Badge,
  Button,
  Card,
  EmptyState,
  Group,
  List,
  Modal,
  Progress,
  Skeleton,
  Stack,
  Table,
  Text,
  Tooltip,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconArrowBackUp, IconHistory } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { ModelChange, ModelHistory } from '@shared/api/content-model';
import { describeOp } from '@shared/model/describe';
import type { ContentModelDoc } from '@shared/model/types';
import { FormError } from '@web/components/form-error';
import { formatDateTime, fromNow } from '@web/lib/dates';
import { itemScreenPath } from '@web/lib/item-paths';
import { showToast } from '@web/lib/toast';
import { useModelChange, useModelChanges } from '../api/list-model-changes';
import { useRevertModelChange } from '../api/revert-model-change';
import { SaveErrorAlert } from '../../components/conflict-alert';
import { useDialog } from './use-dialog';

type ChangeSummary = ModelHistory['changes'][number];

/** Operations listed in a row before "and N more". */
const SHOWN_OPS = 3;

interface Props {
  ws: string;
  /** The model's current version: a revert is made against it. */
  version: number;
  model: ContentModelDoc;
  onReload: () => void;
}

const confirmRevert = (change: ChangeSummary, onConfirm: () => void) =>
  modals.openConfirmModal({
    title: `Revert version ${change.version}?`,
    children: (
      <Stack gap="xs">
        <Text size="sm">A new version of the model undoes these changes:</Text>
        <List size="sm">
          {change.ops.map((op, index) => (
            <List.Item key={index}>{describeOp(op)}</List.Item>
          ))}
        </List>
        <Text size="sm">Existing items are converted back; no item data is deleted.</Text>
      </Stack>
    ),
    labels: { confirm: 'Revert', cancel: 'Cancel' },
    confirmProps: { color: 'red' },
    onConfirm,
  });

/** Every applied change of the model, newest first, with its details and a revert. */
export function HistoryView({ ws, version, model, onReload }: Props) {
  const { data, isPending, error } = useModelChanges(ws);
  const revert = useRevertModelChange(ws);
  const [openId, setOpenId, closeDetails] = useDialog<string>();
  if (isPending) return <Skeleton h={180} radius="md" />;
  if (!data) return <FormError error={error} />;
  const { changes } = data;

  const handleRevert = (change: ChangeSummary) =>
    confirmRevert(change, () =>
      revert.mutate(
        { id: change.id, baseVersion: version },
        {
          onSuccess: (applied) =>
            showToast({
              color: 'teal',
              title: `Version ${change.version} reverted`,
              message: `The content model is at version ${applied.version}.`,
            }),
        },
      ),
    );

  if (changes.length === 0) {
    return (
      <Card p={48}>
        <EmptyState
          icon={<IconHistory size={28} />}
          variant="light"
          title="No changes yet"
          description="Every change applied to the content model shows here, with a way to revert it."
        />
      </Card>
    );
  }
  return (
    <Stack gap="md">
      <SaveErrorAlert error={revert.error} workspaceId={ws} onReload={onReload} />
      <Card p={0}>
        <Table.ScrollContainer minWidth={720}>
          <Table verticalSpacing="sm" horizontalSpacing="md" aria-label="Changes to the content model">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Version</Table.Th>
                <Table.Th>Changes</Table.Th>
                <Table.Th>By</Table.Th>
                <Table.Th>When</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {changes.map((change) => (
                <ChangeRow
                  key={change.id}
                  change={change}
                  changes={changes}
                  isReverting={revert.isPending && revert.variables?.id === change.id}
                  onOpen={() => setOpenId(change.id)}
                  onRevert={() => handleRevert(change)}
                />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>
      {openId && <ChangeDetails ws={ws} id={openId} model={model} onClose={closeDetails} />}
    </Stack>
  );
}

function ChangeRow({
  change,
  changes,
  isReverting,
  onOpen,
  onRevert,
}: {
  change: ChangeSummary;
  changes: readonly ChangeSummary[];
  isReverting: boolean;
  onOpen: () => void;
  onRevert: () => void;
}) {
  const revertedBy = changes.find((other) => other.reverts === change.id);
  const reverted = change.reverts ? changes.find((other) => other.id === change.reverts) : undefined;
  return (
    <Table.Tr data-testid={`change-v${change.version}`}>
      <Table.Td>
        <Text size="sm" fw={600}>
          v{change.version}
        </Text>
      </Table.Td>
      <Table.Td>
        <Stack gap={4}>
          {change.ops.slice(0, SHOWN_OPS).map((op, index) => (
            <Text key={index} size="sm">
              {describeOp(op)}
            </Text>
          ))}
          {change.ops.length > SHOWN_OPS && (
            <Text size="sm" c="dimmed">
              and {change.ops.length - SHOWN_OPS} more
            </Text>
          )}
          <Group gap={4}>
            {change.reverts && (
              <Badge size="sm" variant="light" color="grape" tt="none">
                Reverts v{reverted?.version ?? '?'}
              </Badge>
            )}
            {revertedBy && (
              <Badge size="sm" variant="light" color="gray" tt="none">
                Reverted in v{revertedBy.version}
              </Badge>
            )}
            {change.state === 'running' && (
              <Badge size="sm" variant="light" color="blue" tt="none">
                Converting items {change.progress.done.toLocaleString('en-US')} of{' '}
                {change.progress.total.toLocaleString('en-US')}
              </Badge>
            )}
          </Group>
        </Stack>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{change.by.name}</Text>
      </Table.Td>
      <Table.Td>
        <Tooltip label={formatDateTime(change.at)}>
          <Text size="sm" c="dimmed" component="span">
            {fromNow(change.at)}
          </Text>
        </Tooltip>
      </Table.Td>
      <Table.Td>
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          <Button
            size="xs"
            variant="subtle"
            aria-label={`Details of version ${change.version}`}
            onClick={onOpen}
          >
            Details
          </Button>
          {change.revertible && !revertedBy && (
            <Button
              size="xs"
              variant="subtle"
              color="red"
              leftSection={<IconArrowBackUp size={14} />}
              aria-label={`Revert version ${change.version}`}
              loading={isReverting}
              onClick={onRevert}
            >
              Revert
            </Button>
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** One change: its operations, how far its data conversion is, and the items it transformed. */
function ChangeDetails({
  ws,
  id,
  model,
  onClose,
}: {
  ws: string;
  id: string;
  model: ContentModelDoc;
  onClose: () => void;
}) {
  const { data, error } = useModelChange(ws, id);
  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={<Text fw={650}>{data ? `Version ${data.version}` : 'Change'}</Text>}
    >
      <FormError error={error} />
      {!data ? !error && <Skeleton h={160} /> : <ChangeDetailsBody ws={ws} change={data} model={model} />}
    </Modal>
  );
}

function ChangeDetailsBody({
  ws,
  change,
  model,
}: {
  ws: string;
  change: ModelChange;
  model: ContentModelDoc;
}) {
  const domainOf = (schema: string) =>
    model.domains.find((domain) => domain.schemas.some((s) => s.name === schema))?.name;
  const failedCount = change.transformed.filter((item) => item.failed && item.failed.length > 0).length;
  const { total, done } = change.progress;
  return (
    <Stack gap="md" data-testid="change-details">
      <Text size="sm" c="dimmed">
        By {change.by.name}, {formatDateTime(change.at)} · version {change.baseVersion} → {change.version}
      </Text>
      <List size="sm">
        {change.ops.map((op, index) => (
          <List.Item key={index}>{describeOp(op)}</List.Item>
        ))}
      </List>
      {change.state === 'running' && (
        <Stack gap={4}>
          <Text size="sm">
            Converting items: {done} of {total}
          </Text>
          <Progress value={total === 0 ? 0 : (done / total) * 100} aria-label="Items converted" />
        </Stack>
      )}
      <Text size="sm" fw={600}>
        {change.transformed.length === 0
          ? 'No item was transformed.'
          : `${change.transformed.length} ${change.transformed.length === 1 ? 'item' : 'items'} transformed${
              failedCount > 0 ? `, ${failedCount} with values that could not be converted` : ''
            }`}
      </Text>
      {change.transformed.length > 0 && (
        <Table.ScrollContainer minWidth={520} mah={360}>
          <Table verticalSpacing={6} aria-label="Transformed items">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Schema</Table.Th>
                <Table.Th>Item</Table.Th>
                <Table.Th>Values not converted</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {change.transformed.map((item) => {
                const domain = domainOf(item.schema);
                return (
                  <Table.Tr key={`${item.schema}/${item.id}`}>
                    <Table.Td>
                      <Text size="sm">{item.schema}</Text>
                    </Table.Td>
                    <Table.Td>
                      {domain ? (
                        <Anchor
                          component={Link}
                          to={itemScreenPath(ws, domain, item.schema, item.id)}
                          size="sm"
                          ff="monospace"
                        >
                          {item.id}
                        </Anchor>
                      ) : (
                        <Text size="sm" ff="monospace">
                          {item.id}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {(item.failed ?? []).length === 0 && (
                          <Text size="sm" c="dimmed">
                            None
                          </Text>
                        )}
                        {(item.failed ?? []).map((key) => (
                          <Badge key={key} size="sm" variant="light" color="orange" tt="none">
                            {key}
                          </Badge>
                        ))}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

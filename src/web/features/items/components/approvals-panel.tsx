import { useState } from 'react';
import { Alert, Badge, Button, Group, Loader, Paper, Stack, Text, Textarea } from '@mantine/core';
import { IconCircleCheck, IconClockHour4 } from '@tabler/icons-react';
import type { Approvals, Item } from '@shared/api/items';
import type { Workspace } from '@shared/api/workspaces';
import { errorMessage } from '@web/lib/api-client';
import { formatDateTime } from '@web/lib/dates';
import { useApprovals } from '../api/get-approvals';
import { useApproveItem } from '../api/approve-item';
import { showToast } from '@web/lib/toast';

/** The approver roles of the current version: who approved as what, who must still approve. */
export function ApproverList({ approvals }: { approvals: Approvals }) {
  const current = approvals.versions.find((v) => v.version === approvals.version);
  if (!approvals.approvers.length) {
    return (
      <Text size="sm" c="dimmed">
        No role must approve this type of item.
      </Text>
    );
  }
  return (
    <Stack gap={6}>
      {approvals.approvers.map((approver) => {
        const approval = current?.roles[approver.roleId];
        return (
          <Group
            key={approver.roleId}
            justify="space-between"
            gap="xs"
            wrap="nowrap"
            data-testid={`approver-${approver.roleId}`}
          >
            <Group gap={6} wrap="nowrap">
              {approval ? (
                <IconCircleCheck size={16} color="var(--mantine-color-teal-6)" />
              ) : (
                <IconClockHour4 size={16} color="var(--mantine-color-yellow-7)" />
              )}
              <Text size="sm" fw={500}>
                {approver.label}
              </Text>
            </Group>
            <Text size="xs" c="dimmed" ta="right">
              {approval ? `${approval.byName} · ${formatDateTime(approval.at)}` : 'Waiting'}
            </Text>
          </Group>
        );
      })}
    </Stack>
  );
}

/** Approve the current version as one of the roles the user holds that has yet to approve it. */
export function ApproveForm({
  workspace,
  item,
  approvals,
}: {
  workspace: Workspace;
  item: Item;
  approvals: Approvals;
}) {
  const approve = useApproveItem();
  const [comment, setComment] = useState('');
  const mine = approvals.remainingApprovals.filter((roleId) =>
    workspace.__permissions.roles.includes(roleId),
  );
  if (!mine.length) return null;
  const labelOf = (roleId: string) => approvals.approvers.find((a) => a.roleId === roleId)?.label ?? roleId;

  const handleApprove = (roleId: string) =>
    approve.mutate(
      { ws: workspace.id, schema: item.schema, id: item.id, roleId, version: approvals.version, comment },
      {
        onSuccess: () => {
          setComment('');
          showToast({
            color: 'teal',
            message: `Approved version ${approvals.version} as ${labelOf(roleId)}`,
          });
        },
      },
    );

  return (
    <Paper withBorder radius="md" p="sm" bg="var(--mantine-color-gray-light)">
      <Stack gap="xs">
        <Textarea
          label="Approval comment"
          placeholder="Optional note for the team"
          autosize
          minRows={2}
          value={comment}
          onChange={(e) => setComment(e.currentTarget.value)}
        />
        {approve.isError && (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(approve.error)}
          </Alert>
        )}
        <Group gap="xs">
          {mine.map((roleId) => (
            <Button
              key={roleId}
              size="xs"
              color="teal"
              loading={approve.isPending}
              onClick={() => handleApprove(roleId)}
              leftSection={<IconCircleCheck size={14} />}
            >
              Approve as {labelOf(roleId)}
            </Button>
          ))}
        </Group>
      </Stack>
    </Paper>
  );
}

/** The drawer's approvals tab. */
export function ApprovalsPanel({ workspace, item }: { workspace: Workspace; item: Item }) {
  const approvals = useApprovals(workspace.id, item.schema, item.id);
  if (approvals.isPending) return <Loader size="sm" />;
  if (approvals.isError) {
    return (
      <Alert color="red" variant="light" title="Error loading approvals" role="alert">
        {errorMessage(approvals.error)}
      </Alert>
    );
  }
  return (
    <Stack gap="sm" data-testid="approvals-panel">
      <Group gap="xs">
        <Text size="sm" fw={600}>
          Version {approvals.data.version}
        </Text>
        {approvals.data.approvers.length > 0 && (
          <Badge color={approvals.data.fullyApproved ? 'teal' : 'yellow'} variant="light" tt="none">
            {approvals.data.fullyApproved
              ? 'Fully approved'
              : `${approvals.data.remainingApprovals.length} approval(s) remaining`}
          </Badge>
        )}
      </Group>
      <ApproverList approvals={approvals.data} />
      <ApproveForm workspace={workspace} item={item} approvals={approvals.data} />
    </Stack>
  );
}

import { Alert, Badge, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { errorMessage } from '@web/lib/api-client';
import { formatDateTime } from '@web/lib/dates';
import { useApprovals } from './api/get-approvals';
import { ApproveForm, ApproverList } from './components/approvals-panel';
import { ItemSubScreen, type ItemScreenContext } from './components/item-sub-screen';

/** /{workspace}/approvals/{domain}/{schema}/{id}: approval state of the current version and the record of every version. */
export default function ApprovalsRoute() {
  return <ItemSubScreen section="Approvals">{(context) => <ApprovalsScreen {...context} />}</ItemSubScreen>;
}

function ApprovalsScreen({ workspace, item }: ItemScreenContext) {
  const approvals = useApprovals(workspace.id, item.schema, item.id);
  if (approvals.isPending) return <Loader size="sm" />;
  if (approvals.isError) {
    return (
      <Alert color="red" variant="light" title="Error loading approvals" role="alert">
        {errorMessage(approvals.error)}
      </Alert>
    );
  }
  const data = approvals.data;
  return (
    <Stack gap="lg">
      <Paper withBorder radius="md" p="md">
        <Stack gap="sm">
          <Group justify="space-between">
            <Title order={4}>Current version ({data.version})</Title>
            {data.approvers.length > 0 && (
              <Badge color={data.fullyApproved ? 'teal' : 'yellow'} variant="light" tt="none" size="lg">
                {data.fullyApproved ? 'Fully approved' : `Waiting for ${data.remainingApprovals.length}`}
              </Badge>
            )}
          </Group>
          <ApproverList approvals={data} />
          <ApproveForm workspace={workspace} item={item} approvals={data} />
        </Stack>
      </Paper>
      <Stack gap="xs">
        <Title order={4}>Record</Title>
        {data.versions.length === 0 ? (
          <Text size="sm" c="dimmed">
            No approvals yet.
          </Text>
        ) : (
          data.versions.map((record) => (
            <Paper
              key={record.version}
              withBorder
              radius="md"
              p="sm"
              data-testid={`approval-record-${record.version}`}
            >
              <Text fw={600} size="sm" mb={4}>
                Version {record.version}
              </Text>
              <Stack gap={4}>
                {Object.entries(record.roles).map(([roleId, role]) => (
                  <Text key={roleId} size="sm">
                    <b>{role.asRoleLabel}</b>: {role.byName}, {formatDateTime(role.at)}
                    {role.comment ? ` — “${role.comment}”` : ''}
                  </Text>
                ))}
              </Stack>
            </Paper>
          ))
        )}
      </Stack>
    </Stack>
  );
}

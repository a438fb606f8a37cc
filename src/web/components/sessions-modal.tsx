import { Badge, Button, Group, Modal, Skeleton, Stack, Table, Text } from '@mantine/core';
import { FormError } from '@web/components/form-error';
import { formatDateTime, fromNow } from '@web/lib/dates';
import { useEndSession, useSessions } from '@web/lib/sessions';

/** The user's signed-in sessions, each of which can be ended (the current one by signing out). */
export function SessionsModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { data, isPending, error } = useSessions(opened);
  const end = useEndSession();
  return (
    <Modal opened={opened} onClose={onClose} title="Sessions" size="lg">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Where you are signed in. End a session you do not recognise; it is signed out at once.
        </Text>
        <FormError error={error ?? end.error} />
        {isPending ? (
          <Skeleton h={80} />
        ) : (
          <Table aria-label="Sessions" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Device</Table.Th>
                <Table.Th w={140}>Last active</Table.Th>
                <Table.Th w={130} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data?.sessions.map((session) => (
                <Table.Tr key={session.id}>
                  <Table.Td>
                    <Text size="sm" lineClamp={2}>
                      {session.userAgent ?? 'Unknown device'}
                    </Text>
                    <Text size="xs" c="dimmed">
                      Signed in {formatDateTime(session.createdAt)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{fromNow(session.lastSeenAt)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Group justify="flex-end">
                      {session.isCurrent ? (
                        <Badge variant="light">This device</Badge>
                      ) : (
                        <Button
                          size="xs"
                          variant="light"
                          color="red"
                          loading={end.isPending && end.variables === session.id}
                          onClick={() => end.mutate(session.id)}
                        >
                          End
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Modal>
  );
}

import { Alert, Button, Group, Modal, Skeleton, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { PasskeyName } from '@shared/api/passkeys';
import { FormError } from '@web/components/form-error';
import { formatDateTime, fromNow } from '@web/lib/dates';
import { isPasskeySupported, useAddPasskey, usePasskeys, useRemovePasskey } from '@web/lib/passkeys';

/** The account's passkeys: each signs in without a password, or is the second step after one. */
export function PasskeysModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { data, isPending, error } = usePasskeys(opened);
  const remove = useRemovePasskey();
  return (
    <Modal opened={opened} onClose={onClose} title="Passkeys" size="lg">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          A passkey on this device, your phone or a security key signs you in without a password, and is asked
          for after your password when you sign in with one.
        </Text>
        <FormError error={error ?? remove.error} />
        {isPending ? (
          <Skeleton h={60} />
        ) : data?.passkeys.length ? (
          <Table aria-label="Passkeys" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th w={140}>Last used</Table.Th>
                <Table.Th w={110} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.passkeys.map((passkey) => (
                <Table.Tr key={passkey.id}>
                  <Table.Td>
                    <Text size="sm">{passkey.name}</Text>
                    <Text size="xs" c="dimmed">
                      Added {formatDateTime(passkey.createdAt)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{passkey.lastUsedAt ? fromNow(passkey.lastUsedAt) : 'Never'}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Group justify="flex-end">
                      <Button
                        size="xs"
                        variant="light"
                        color="red"
                        aria-label={`Remove ${passkey.name}`}
                        loading={remove.isPending && remove.variables === passkey.id}
                        onClick={() => remove.mutate(passkey.id)}
                      >
                        Remove
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : (
          <Text size="sm">No passkeys yet.</Text>
        )}
        <AddPasskey />
      </Stack>
    </Modal>
  );
}

function AddPasskey() {
  const add = useAddPasskey();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  if (!isPasskeySupported())
    return (
      <Alert color="gray" variant="light">
        This browser cannot make passkeys.
      </Alert>
    );
  const handleSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = PasskeyName.safeParse(name);
    setNameError(parsed.success ? null : (parsed.error.issues[0]?.message ?? null));
    if (parsed.success) add.mutate(parsed.data, { onSuccess: () => setName('') });
  };
  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="sm">
        <FormError error={add.error} />
        <Group align="flex-start" wrap="nowrap">
          <TextInput
            label="Passkey name"
            placeholder="Work laptop"
            flex={1}
            value={name}
            error={nameError}
            onChange={(event) => setName(event.currentTarget.value)}
          />
          <Button type="submit" mt={25} loading={add.isPending}>
            Add a passkey
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

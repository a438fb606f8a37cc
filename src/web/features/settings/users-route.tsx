import {
  Avatar,
  Badge,
  Box,
  Button,
  Card,
  Checkbox,
  Group,
  MultiSelect,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { IconMailForward, IconTrash } from '@tabler/icons-react';
import { InviteBody, type Member, type Workspace } from '@shared/api/workspaces';
import { FormError } from '@web/components/form-error';
import { errorMessage } from '@web/lib/api-client';
import { initials, useMe } from '@web/lib/auth';
import { formatDateTime, fromNow } from '@web/lib/dates';
import { useCurrentWorkspace } from '@web/lib/workspace';
import { useInviteMember } from './api/invite-member';
import { useMembers } from './api/get-members';
import { useRevokeInvitation } from './api/revoke-invitation';
import { useUpdateMember, type MemberPatch } from './api/update-member';
import { roleLabel } from './role-label';
import { showToast } from '@web/lib/toast';

/** What a member without roles may do: only roles grant editing, publishing and approving (spec §6). */
const VIEW_ONLY_NOTICE = 'With no role they will only see content, not edit, publish or approve it.';

const roleOptions = (workspace: Workspace) =>
  Object.entries(workspace.roles).map(([id, role]) => ({ value: id, label: roleLabel(role) }));

/** /{workspace}/_settings/users: invite by email with roles, manage members, revoke invitations. */
export default function UsersRoute() {
  const workspace = useCurrentWorkspace();
  const { data, isPending, error } = useMembers(workspace.id);

  return (
    <Stack gap="lg">
      <InviteCard workspace={workspace} />
      <FormError error={error} />
      {isPending ? (
        <Skeleton h={180} radius="md" />
      ) : data ? (
        <>
          <MembersTable workspace={workspace} members={data.members} />
          <InvitationsTable workspace={workspace} invitations={data.invitations} />
        </>
      ) : null}
    </Stack>
  );
}

function InviteCard({ workspace }: { workspace: Workspace }) {
  const invite = useInviteMember(workspace.id);
  const form = useForm({
    mode: 'controlled',
    initialValues: { email: '', roles: [] as string[], isWorkspaceManager: false },
    validate: schemaResolver(InviteBody, { sync: true }),
  });

  const handleSubmit = form.onSubmit((values) =>
    invite.mutate(values, {
      onSuccess: (invitation) => {
        showToast({
          color: 'teal',
          title: 'Invitation sent',
          message: `${invitation.email} joins when they sign in or sign up with that address.`,
        });
        form.reset();
      },
    }),
  );

  return (
    <Card p="lg">
      <form onSubmit={handleSubmit} noValidate aria-label="Invite people">
        <Stack gap="md">
          <Stack gap={2}>
            <Title order={5}>Invite people</Title>
            <Text size="sm" c="dimmed">
              They join this workspace as soon as they sign in or sign up with this email address.
            </Text>
          </Stack>
          <FormError error={invite.error} />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              label="Email"
              placeholder="colleague@company.com"
              type="email"
              {...form.getInputProps('email')}
            />
            <MultiSelect
              label="Roles"
              placeholder={form.values.roles.length ? undefined : 'Choose roles'}
              data={roleOptions(workspace)}
              clearable
              description={form.values.roles.length === 0 ? VIEW_ONLY_NOTICE : undefined}
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              {...form.getInputProps('roles')}
            />
          </SimpleGrid>
          <Group justify="space-between">
            <Checkbox
              label="Workspace manager (can change settings and members)"
              {...form.getInputProps('isWorkspaceManager', { type: 'checkbox' })}
            />
            <Button type="submit" leftSection={<IconMailForward size={16} />} loading={invite.isPending}>
              Send invitation
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

interface MemberRowProps {
  workspace: Workspace;
  member: Member;
  isMe: boolean;
  onChange: (member: Member, patch: MemberPatch, done: string) => void;
}

function MemberIdentity({ member, isMe }: Pick<MemberRowProps, 'member' | 'isMe'>) {
  return (
    <Group gap="sm" wrap="nowrap">
      <Avatar radius="xl" color="marquee" size={34}>
        {initials(member.displayName, member.email)}
      </Avatar>
      <Stack gap={0} style={{ minWidth: 0 }}>
        <Group gap={6}>
          <Text size="sm" fw={550} truncate>
            {member.displayName || member.email}
          </Text>
          {isMe && (
            <Badge size="xs" variant="light">
              You
            </Badge>
          )}
          {!member.active && (
            <Badge size="xs" color="gray">
              Deactivated
            </Badge>
          )}
        </Group>
        <Text size="xs" c="dimmed" truncate>
          {member.email}
        </Text>
      </Stack>
    </Group>
  );
}

function MemberRoles({ workspace, member, onChange }: Omit<MemberRowProps, 'isMe'>) {
  return (
    <MultiSelect
      size="xs"
      aria-label={`Roles of ${member.email}`}
      data={roleOptions(workspace)}
      value={member.roles.filter((r) => r in workspace.roles)}
      placeholder={member.roles.length ? undefined : 'No roles: only sees content'}
      onChange={(roles) => onChange(member, { roles }, `Roles of ${member.email} saved`)}
    />
  );
}

function ManagerSwitch({
  member,
  onChange,
  label,
}: Omit<MemberRowProps, 'isMe' | 'workspace'> & { label?: string }) {
  return (
    <Switch
      label={label}
      aria-label={`${member.email} is a workspace manager`}
      checked={member.isWorkspaceManager}
      onChange={(e) =>
        onChange(
          member,
          { isWorkspaceManager: e.currentTarget.checked },
          e.currentTarget.checked
            ? `${member.email} is now a manager`
            : `${member.email} is no longer a manager`,
        )
      }
    />
  );
}

function ActiveSwitch({
  member,
  isMe,
  onChange,
  label,
}: Omit<MemberRowProps, 'workspace'> & { label?: string }) {
  if (isMe)
    return (
      <Tooltip label="You cannot deactivate yourself">
        <Badge color="teal" variant="light">
          Active
        </Badge>
      </Tooltip>
    );
  return (
    <Switch
      label={label}
      aria-label={`${member.email} is active`}
      checked={member.active}
      color="teal"
      onChange={(e) =>
        onChange(
          member,
          { active: e.currentTarget.checked },
          e.currentTarget.checked ? `${member.email} activated` : `${member.email} deactivated`,
        )
      }
    />
  );
}

function MembersTable({ workspace, members }: { workspace: Workspace; members: Member[] }) {
  const { data: me } = useMe();
  const update = useUpdateMember(workspace.id);
  // Four columns do not fit a phone: there each member is one cell with its controls stacked.
  const isWide = useMediaQuery('(min-width: 48em)', true);

  const handleChange = (member: Member, patch: MemberPatch, done: string) =>
    update.mutate(
      { userId: member.userId, patch },
      {
        onSuccess: () => showToast({ color: 'teal', message: done }),
        onError: (e) => showToast({ color: 'red', title: 'Not saved', message: errorMessage(e) }),
      },
    );

  return (
    <Card p={0}>
      <Group px="lg" py="md" justify="space-between">
        <Title order={5}>Members</Title>
        <Badge variant="light" color="gray">
          {members.length}
        </Badge>
      </Group>
      <Table
        verticalSpacing="sm"
        horizontalSpacing={isWide ? 'lg' : 'md'}
        layout="fixed"
        aria-label="Members"
        data-testid="members-table"
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Member</Table.Th>
            {isWide && (
              <>
                <Table.Th w="36%">Roles</Table.Th>
                <Table.Th w={110}>Manager</Table.Th>
                <Table.Th w={110}>Active</Table.Th>
              </>
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {members.map((member) => {
            const row = { workspace, member, isMe: member.userId === me?.id, onChange: handleChange };
            return (
              <Table.Tr
                key={member.userId}
                data-testid={`member-${member.email}`}
                style={{ opacity: member.active ? 1 : 0.6 }}
              >
                {isWide ? (
                  <>
                    <Table.Td>
                      <MemberIdentity {...row} />
                    </Table.Td>
                    <Table.Td>
                      <MemberRoles {...row} />
                    </Table.Td>
                    <Table.Td>
                      <ManagerSwitch {...row} />
                    </Table.Td>
                    <Table.Td>
                      <ActiveSwitch {...row} />
                    </Table.Td>
                  </>
                ) : (
                  <Table.Td>
                    <Stack gap="xs">
                      <MemberIdentity {...row} />
                      <MemberRoles {...row} />
                      <Group gap="lg">
                        <ManagerSwitch {...row} label="Manager" />
                        <ActiveSwitch {...row} label="Active" />
                      </Group>
                    </Stack>
                  </Table.Td>
                )}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Card>
  );
}

type Invitation = { email: string; roles: string[]; isWorkspaceManager: boolean; invitedAt: string };

function InvitationRoles({ workspace, invitation }: { workspace: Workspace; invitation: Invitation }) {
  return (
    <Group gap={6}>
      {invitation.isWorkspaceManager && <Badge variant="filled">Manager</Badge>}
      {invitation.roles.map((id) => (
        <Badge key={id} variant="light">
          {workspace.roles[id]?.name ?? id}
        </Badge>
      ))}
      {invitation.roles.length === 0 && (
        <Text size="xs" c="dimmed">
          No roles: will only see content
        </Text>
      )}
    </Group>
  );
}

function InvitationsTable({ workspace, invitations }: { workspace: Workspace; invitations: Invitation[] }) {
  const revoke = useRevokeInvitation(workspace.id);
  const isWide = useMediaQuery('(min-width: 48em)', true);

  const handleRevoke = (email: string) =>
    modals.openConfirmModal({
      title: 'Revoke invitation',
      children: <Text size="sm">{email} will no longer join this workspace when they sign in.</Text>,
      labels: { confirm: 'Revoke', cancel: 'Keep' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        revoke.mutate(email, {
          onSuccess: () => showToast({ color: 'teal', message: `Invitation for ${email} revoked` }),
          onError: (e) => showToast({ color: 'red', title: 'Not revoked', message: errorMessage(e) }),
        }),
    });

  return (
    <Card p={0}>
      <Group px="lg" py="md" justify="space-between">
        <Title order={5}>Pending invitations</Title>
        <Badge variant="light" color="gray">
          {invitations.length}
        </Badge>
      </Group>
      {invitations.length === 0 ? (
        <Text size="sm" c="dimmed" px="lg" pb="lg">
          No pending invitations.
        </Text>
      ) : (
        <Table
          verticalSpacing="sm"
          horizontalSpacing={isWide ? 'lg' : 'md'}
          layout="fixed"
          aria-label="Pending invitations"
        >
          <Table.Tbody>
            {invitations.map((invitation) => {
              const roles = <InvitationRoles workspace={workspace} invitation={invitation} />;
              return (
                <Table.Tr key={invitation.email} data-testid={`invitation-${invitation.email}`}>
                  <Table.Td>
                    <Text size="sm" fw={550} style={{ overflowWrap: 'anywhere' }}>
                      {invitation.email}
                    </Text>
                    <Text size="xs" c="dimmed" title={formatDateTime(invitation.invitedAt)}>
                      Invited {fromNow(invitation.invitedAt)}
                    </Text>
                    {!isWide && <Box mt={6}>{roles}</Box>}
                  </Table.Td>
                  {isWide && <Table.Td>{roles}</Table.Td>}
                  <Table.Td w={isWide ? 120 : 100} ta="right" valign="top">
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      leftSection={<IconTrash size={14} />}
                      onClick={() => handleRevoke(invitation.email)}
                    >
                      Revoke
                    </Button>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}

import { useEffect, useMemo, useState } from 'react';
import { Button, Card, EmptyState, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { IconPlus, IconShieldLock } from '@tabler/icons-react';
import type { Workspace } from '@shared/api/workspaces';
import { trimRoles, type Role, type Roles } from '@shared/permissions/permissions';
import type { ContentModel } from '@shared/model/registry';
import { useContentModel } from '@web/lib/content-model';
import { useCurrentWorkspace, useUpdateWorkspace } from '@web/lib/workspace';
import { SaveErrorAlert } from './components/conflict-alert';
import { RoleCard } from './components/role-card';
import { SaveBar } from './components/save-bar';
import { newRoleId } from './role-id';
import { showToast } from '@web/lib/toast';

/** Schema choices of the enabled domains, grouped by domain. */
function schemaOptions(workspace: Workspace, model: ContentModel) {
  return workspace.basics.domains
    .map((name) => model.domain(name))
    .filter((d) => !!d && !d.disabled)
    .map((domain) => ({
      group: domain!.title,
      items: domain!.schemas.map((s) => ({ value: s.name, label: s.pluralTitle })),
    }));
}

/** /{workspace}/_settings/roles: each role's name and its canEdit, canPublish and mustApprove schema lists. */
export default function RolesRoute() {
  const workspace = useCurrentWorkspace();
  const update = useUpdateWorkspace(workspace.id);
  const model = useContentModel();
  const existingSchemas = useMemo(
    () => model.schemasOfDomains(workspace.basics.domains).map((s) => s.name),
    [model, workspace.basics.domains],
  );
  const saved = useMemo(
    () => trimRoles(workspace.roles, existingSchemas),
    [workspace.roles, existingSchemas],
  );
  const [draft, setDraft] = useState<Roles>(saved);
  const [isAddOpen, addModal] = useDisclosure(false);
  const options = schemaOptions(workspace, model);

  useEffect(() => setDraft(saved), [saved]);

  const isDirty = JSON.stringify(draft) !== JSON.stringify(saved);
  const hasBlankName = Object.values(draft).some((r) => !r.name.trim());

  const setRole = (id: string, patch: Partial<Role>) =>
    setDraft((roles) => ({ ...roles, [id]: { ...roles[id], ...patch } }));

  const handleDelete = (id: string) =>
    modals.openConfirmModal({
      title: `Delete the role ${draft[id].name}?`,
      children: <Text size="sm">Members lose what this role allowed them once you save.</Text>,
      labels: { confirm: 'Delete role', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        setDraft((roles) => {
          const next = { ...roles };
          delete next[id];
          return next;
        }),
    });

  const handleAdd = (name: string) => {
    const id = newRoleId(name, Object.keys(draft));
    setDraft((roles) => ({
      ...roles,
      [id]: { name: name.trim(), canEdit: [], canPublish: [], mustApprove: [], customerData: [] },
    }));
    addModal.close();
  };

  const handleSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    if (hasBlankName) return;
    update.mutate(
      { roles: trimRoles(draft, existingSchemas), baseVersion: workspace.version },
      { onSuccess: () => showToast({ color: 'teal', message: 'Roles saved' }) },
    );
  };

  const ids = Object.keys(draft);

  return (
    <form onSubmit={handleSubmit} noValidate>
      <SaveErrorAlert error={update.error} workspaceId={workspace.id} />
      <Group justify="space-between" mb="md">
        <Text size="sm" c="dimmed">
          A member’s rights are the union of their roles. Only types of enabled domains can be chosen.
        </Text>
        <Button variant="light" leftSection={<IconPlus size={16} />} onClick={addModal.open}>
          Add role
        </Button>
      </Group>
      <Stack gap="md">
        {ids.length === 0 && (
          <Card p={40}>
            <EmptyState
              icon={<IconShieldLock size={28} />}
              variant="light"
              title="No roles yet"
              description="Add a role to give members rights to edit, publish and approve."
            />
          </Card>
        )}
        {ids.map((id) => (
          <RoleCard
            key={id}
            id={id}
            role={draft[id]}
            schemaOptions={options}
            workspaceLocales={workspace.basics.locales?.tags}
            onChange={(patch) => setRole(id, patch)}
            onDelete={() => handleDelete(id)}
          />
        ))}
      </Stack>
      <SaveBar
        isDirty={isDirty}
        isSaving={update.isPending}
        onReset={() => setDraft(saved)}
        saveLabel="Save roles"
      />
      <AddRoleModal opened={isAddOpen} onClose={addModal.close} onAdd={handleAdd} />
    </form>
  );
}

function AddRoleModal({
  opened,
  onClose,
  onAdd,
}: {
  opened: boolean;
  onClose: () => void;
  onAdd: (name: string) => void;
}) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (opened) {
      setName('');
      setError(null);
    }
  }, [opened]);
  const handleAdd = () => {
    if (!name.trim()) return setError('Role name is required');
    onAdd(name);
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Add a role" centered>
      <Stack>
        <TextInput
          label="Role name"
          placeholder="Editor"
          value={name}
          data-autofocus
          onChange={(e) => {
            setName(e.currentTarget.value);
            setError(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              handleAdd();
            }
          }}
          error={error}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={handleAdd}>Add role</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

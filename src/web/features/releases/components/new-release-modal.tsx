import { Modal } from '@mantine/core';
import type { ReleaseSummary } from '@shared/api/releases';
import type { Workspace } from '@shared/api/workspaces';
import { useCreateRelease } from '@web/lib/releases';
import { ReleaseDetailsForm } from '@web/components/releases/release-details-form';

/** 'New release': name, description, target stage and an optional publish time. */
export function NewReleaseModal({
  workspace,
  opened,
  onClose,
  onCreated,
}: {
  workspace: Workspace;
  opened: boolean;
  onClose: () => void;
  onCreated: (release: ReleaseSummary) => void;
}) {
  const create = useCreateRelease(workspace.id);
  return (
    <Modal opened={opened} onClose={onClose} title="New release" size="lg">
      <ReleaseDetailsForm
        workspace={workspace}
        submitLabel="Create release"
        isSaving={create.isPending}
        error={create.error}
        onCancel={onClose}
        onSubmit={(body) => create.mutate(body, { onSuccess: onCreated })}
      />
    </Modal>
  );
}

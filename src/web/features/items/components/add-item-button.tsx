import { lazy, Suspense, useRef, useState } from 'react';
import { Button, Loader } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import type { Workspace } from '@shared/api/workspaces';
import { useWorkspaceModel } from '@web/lib/content-model';
import { editableTypes, newItemPath } from './editable-types';

// The dialog (and the multi-image upload it offers) loads when first wanted: list screens paint without it.
const loadDialog = () => import('./add-item-dialog');
const AddItemDialog = lazy(() => loadDialog().then((m) => ({ default: m.AddItemDialog })));

/**
 * The list screens' Add button (spec §2): hidden unless the user may edit some type; with exactly one
 * editable type (or on the list of a schema the user may edit) it goes straight to the new item form.
 */
export function AddItemButton({
  workspace,
  schema,
}: {
  workspace: Workspace;
  schema?: { domain: string; name: string };
}) {
  const navigate = useNavigate();
  const [opened, setOpened] = useState(false);
  // Once opened the dialog stays mounted: its closing transition and the upload it starts outlive it.
  const [wasOpened, setWasOpened] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const groups = editableTypes(workspace, useWorkspaceModel(workspace));
  const types = groups.flatMap((group) =>
    group.schemas.map((s) => ({ domain: group.domain.name, name: s.name })),
  );
  if (types.length === 0) return null;
  const ownSchema = schema && types.some((t) => t.name === schema.name) ? schema : undefined;
  const direct = ownSchema ?? (types.length === 1 ? types[0] : undefined);

  const handleClick = () => {
    if (direct) {
      navigate(newItemPath(workspace.id, direct.domain, direct.name));
      return;
    }
    setWasOpened(true);
    setOpened(true);
  };
  // The lazy dialog mounts already open, so Mantine never saw what had the focus: give it back here.
  const handleClose = () => {
    setOpened(false);
    buttonRef.current?.focus();
  };
  return (
    <>
      <Button
        ref={buttonRef}
        leftSection={<IconPlus size={16} />}
        onClick={handleClick}
        onPointerEnter={direct ? undefined : () => void loadDialog()}
        onFocus={direct ? undefined : () => void loadDialog()}
      >
        Add
      </Button>
      {wasOpened && (
        <Suspense fallback={<Loader size="xs" aria-label="Loading" />}>
          <AddItemDialog workspace={workspace} opened={opened} onClose={handleClose} />
        </Suspense>
      )}
    </>
  );
}

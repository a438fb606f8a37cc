import { useState } from 'react';
import { Button, Group, Modal, SegmentedControl, Select, Skeleton, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { CreateReleaseBody, ReleaseSummary } from '@shared/api/releases';
import type { Workspace } from '@shared/api/workspaces';
import { FormError } from '@web/components/form-error';
import { useAddEntries, useCreateRelease, useReleases } from '@web/lib/releases';
import { stageLabelOf } from '@web/lib/release-labels';
import { releasePath } from '@web/lib/release-paths';
import { AddReferencesButton } from './add-references-button';
import { ReleaseDetailsForm } from './release-details-form';

/** An item to add, pinned at the version the person saw: what they checked is what goes out. */
export interface ReleaseCandidate {
  schema: string;
  itemId: string;
  version: number;
}

interface Added {
  id: string;
  name: string;
  stageLabel: string;
  count: number;
}

const itemsWord = (n: number) => `${n} ${n === 1 ? 'item' : 'items'}`;

/** Adds items to a draft release, or to a new one created on the spot. */
export default function AddToReleaseDialog({
  workspace,
  items,
  onClose,
  onAdded,
}: {
  workspace: Workspace;
  items: readonly ReleaseCandidate[];
  onClose: () => void;
  onAdded?: () => void;
}) {
  const ws = workspace.id;
  const releases = useReleases(ws);
  const drafts = (releases.data?.releases ?? []).filter((r) => r.state !== 'published');
  const [choice, setChoice] = useState<'existing' | 'new' | null>(null);
  const mode = choice ?? (releases.isSuccess && drafts.length === 0 ? 'new' : 'existing');
  const create = useCreateRelease(ws);
  const add = useAddEntries(ws);

  const [added, setAdded] = useState<Added | null>(null);
  const addTo = (release: Pick<ReleaseSummary, 'id' | 'name' | 'stage'>) =>
    add.mutate(
      {
        id: release.id,
        entries: items.map((i) => ({ schema: i.schema, itemId: i.itemId, version: i.version })),
      },
      {
        onSuccess: () => {
          setAdded({
            id: release.id,
            name: release.name,
            stageLabel: stageLabelOf(workspace.basics.stages, release.stage),
            count: items.length,
          });
          onAdded?.();
        },
      },
    );
  const createAndAdd = (body: Required<CreateReleaseBody>) =>
    create.mutate(body, { onSuccess: (release) => addTo(release) });

  return (
    <Modal
      opened
      onClose={onClose}
      title={`Add ${itemsWord(added?.count ?? items.length)} to a release`}
      size="lg"
    >
      {added ? (
        <AddedNotice ws={ws} added={added} onClose={onClose} />
      ) : (
        <Stack gap="md">
          <SegmentedControl
            value={mode}
            onChange={(value) => setChoice(value as 'existing' | 'new')}
            data={[
              { value: 'existing', label: 'Existing release' },
              { value: 'new', label: 'New release' },
            ]}
            aria-label="Which release"
          />
          {mode === 'existing' ? (
            releases.isPending ? (
              <Skeleton h={60} />
            ) : drafts.length === 0 ? (
              <Text size="sm" c="dimmed">
                No release is open for changes. Create a new one.
              </Text>
            ) : (
              <ExistingReleasePicker
                workspace={workspace}
                drafts={drafts}
                count={items.length}
                error={releases.error ?? add.error}
                isAdding={add.isPending}
                onAdd={addTo}
                onCancel={onClose}
              />
            )
          ) : (
            <ReleaseDetailsForm
              workspace={workspace}
              submitLabel={`Create and add ${itemsWord(items.length)}`}
              isSaving={create.isPending || add.isPending}
              error={create.error ?? add.error}
              onCancel={onClose}
              onSubmit={createAndAdd}
            />
          )}
        </Stack>
      )}
    </Modal>
  );
}

/** What was added, and the items the release references that are not current in its stage, one click away. */
function AddedNotice({ ws, added, onClose }: { ws: string; added: Added; onClose: () => void }) {
  const addRefs = useAddEntries(ws);
  return (
    <Stack gap="md" data-testid="added-to-release">
      <Text size="sm">
        {itemsWord(added.count)} added to “{added.name}”.
        {addRefs.isSuccess && ` ${itemsWord(addRefs.variables.entries.length)} it references added too.`}
      </Text>
      <FormError error={addRefs.error} />
      <Group>
        <AddReferencesButton
          ws={ws}
          releaseId={added.id}
          enabled
          stageLabel={added.stageLabel}
          isAdding={addRefs.isPending}
          onAdd={(entries) => addRefs.mutate({ id: added.id, entries })}
        />
      </Group>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Done
        </Button>
        <Button component={Link} to={releasePath(ws, added.id)} onClick={onClose} data-autofocus>
          Open release
        </Button>
      </Group>
    </Stack>
  );
}

/** The releases still open for changes, by name, stage and size. */
function ExistingReleasePicker({
  workspace,
  drafts,
  count,
  error,
  isAdding,
  onAdd,
  onCancel,
}: {
  workspace: Workspace;
  drafts: ReleaseSummary[];
  count: number;
  error: unknown;
  isAdding: boolean;
  onAdd: (release: ReleaseSummary) => void;
  onCancel: () => void;
}) {
  const [releaseId, setReleaseId] = useState<string | null>(null);
  const selected = drafts.find((r) => r.id === releaseId);
  const entries = (n: number) => `${n} ${n === 1 ? 'entry' : 'entries'}`;
  return (
    <>
      <FormError error={error} />
      <Select
        label="Release"
        placeholder="Choose a release"
        data={drafts.map((r) => ({
          value: r.id,
          label: `${r.name} (${stageLabelOf(workspace.basics.stages, r.stage)}, ${entries(r.entryCount)})`,
        }))}
        value={releaseId}
        onChange={setReleaseId}
        searchable
        data-autofocus
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button disabled={!selected} loading={isAdding} onClick={() => selected && onAdd(selected)}>
          Add {itemsWord(count)}
        </Button>
      </Group>
    </>
  );
}

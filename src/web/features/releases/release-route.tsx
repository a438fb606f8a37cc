import { useState } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Breadcrumbs,
  Button,
  Card,
  Checkbox,
  Group,
  List,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconAlertTriangle, IconArrowBackUp, IconRefresh, IconRocket, IconTrash } from '@tabler/icons-react';
import { Link, useNavigate, useParams } from 'react-router';
import type { CreateReleaseBody, Release, ReleaseEntry, UpdateReleaseBody } from '@shared/api/releases';
import type { Workspace } from '@shared/api/workspaces';
import { FormError } from '@web/components/form-error';
import { NotFoundPage } from '@web/components/not-found-page';
import { isApiError } from '@web/lib/api-client';
import { showToast } from '@web/lib/toast';
import { useCurrentWorkspace } from '@web/lib/workspace';
import {
  useAddEntries,
  useDeleteRelease,
  useRelease,
  useReleaseAction,
  useReleaseReferences,
  useRemoveEntries,
  useUpdateRelease,
} from '@web/lib/releases';
import { AddReferencesButton } from '@web/components/releases/add-references-button';
import { ReleaseDetailsForm } from '@web/components/releases/release-details-form';
import { useContentModel } from '@web/lib/content-model';
import { itemPathOf } from '@web/lib/item-paths';
import { ReleaseEntries } from './components/release-entries';
import { ReleasePreview } from './components/release-preview';
import { ScheduleNotice } from './components/schedule-notice';
import {
  RELEASE_STATE_LABELS,
  changedSinceOf,
  publishRefusals,
  releaseTimeLabel,
  stageLabelOf,
} from '@web/lib/release-labels';
import { releasesPath } from '@web/lib/release-paths';

/** /{workspace}/_releases/{id}: a release's details, its entries with their chips and blockers, publish and revert. */
export default function ReleaseRoute() {
  const workspace = useCurrentWorkspace();
  const { releaseId = '' } = useParams();
  const release = useRelease(workspace.id, releaseId);
  if (release.isPending) return <Skeleton h={320} radius="md" />;
  if (release.isError) {
    if (isApiError(release.error) && release.error.status === 404) return <NotFoundPage />;
    return <FormError error={release.error} />;
  }
  return <ReleaseScreen workspace={workspace} release={release.data} />;
}

function ReleaseScreen({ workspace, release }: { workspace: Workspace; release: Release }) {
  const ws = workspace.id;
  const stageLabel = stageLabelOf(workspace.basics.stages, release.stage);
  const isPublished = release.state === 'published';
  const isPublisher = workspace.__permissions.canPublish.length > 0;
  // Its entries, stage and time change only for members who may publish all of it; its name for any publisher.
  const { canChange } = release;
  const add = useAddEntries(ws);
  const remove = useRemoveEntries(ws, release.id);
  const state = RELEASE_STATE_LABELS[release.state];
  const confirms = useReleaseConfirms(workspace, release, stageLabel);
  const busyItemId = add.isPending
    ? (add.variables.entries[0]?.itemId ?? null)
    : remove.isPending
      ? (remove.variables[0] ?? null)
      : null;

  return (
    <Stack gap="lg">
      <Stack gap={6}>
        <Breadcrumbs fz="sm">
          <Anchor component={Link} to={releasesPath(ws)} c="dimmed">
            Releases
          </Anchor>
          <Text span fz="sm" lineClamp={1}>
            {release.name}
          </Text>
        </Breadcrumbs>
        <Group justify="space-between" align="flex-start" gap="md">
          <Stack gap={6} style={{ minWidth: 0, flex: '1 1 18rem' }}>
            <Title order={1} fz={26} style={{ wordBreak: 'break-word' }}>
              {release.name}
            </Title>
            <Group gap="sm">
              <Badge color={state.color} variant="light" tt="none" data-testid="release-state">
                {state.label}
              </Badge>
              <Text size="sm" c="dimmed">
                To {stageLabel} · {release.entryCount} {release.entryCount === 1 ? 'entry' : 'entries'} ·{' '}
                {releaseTimeLabel(release)}
              </Text>
            </Group>
          </Stack>
          <ReleaseActions workspace={workspace} release={release} confirms={confirms} />
        </Group>
      </Stack>

      <ScheduleNotice
        workspace={workspace}
        release={release}
        canChange={canChange}
        canPublishNow={publishRefusals(release, isPublisher).length === 0}
        onPublishNow={confirms.confirmPublish}
      />
      <RevertRefusal ws={ws} error={confirms.revert.error} />
      <PublishBlockers release={release} isPublisher={isPublisher} />

      <Card withBorder p={0}>
        <Group justify="space-between" p="md" pb={0}>
          <Title order={2} size="h4">
            Entries
          </Title>
          {canChange && (
            <AddReferencesButton
              ws={ws}
              releaseId={release.id}
              enabled={release.entries.length > 0}
              stageLabel={stageLabel}
              isAdding={add.isPending}
              onAdd={(entries) => add.mutate({ id: release.id, entries })}
            />
          )}
        </Group>
        <FormError error={add.error ?? remove.error} />
        {release.entries.length === 0 ? (
          <Text c="dimmed" size="sm" p="md">
            No entries yet. Add items from their screen (Actions, Add to release) or select them in a list.
          </Text>
        ) : (
          <ReleaseEntries
            ws={ws}
            release={release}
            stageLabel={stageLabel}
            actions={{
              isEditable: canChange,
              busyItemId,
              onPin: (entry: ReleaseEntry, version: number) =>
                add.mutate({
                  id: release.id,
                  entries: [{ schema: entry.schema, itemId: entry.itemId, action: entry.action, version }],
                }),
              onRemove: (entry: ReleaseEntry) => remove.mutate([entry.itemId]),
            }}
          />
        )}
      </Card>

      {!isPublished && <ReleasePreview workspace={workspace} release={release} />}
      <DetailsCard workspace={workspace} release={release} readOnly={isPublished || !isPublisher} />
    </Stack>
  );
}

/** A revert refused because entries were published again since: the message and each such item, linked. */
function RevertRefusal({ ws, error }: { ws: string; error: unknown }) {
  const model = useContentModel();
  const changed = changedSinceOf(error);
  if (changed.length === 0) return null;
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      title="Nothing was reverted"
      role="alert"
      data-testid="revert-refused"
    >
      <Text size="sm">{error instanceof Error ? error.message : null}</Text>
      <List size="sm" mt={4} spacing={2}>
        {changed.map((c) => (
          <List.Item key={`${c.schema}/${c.itemId}`}>
            <Anchor component={Link} to={itemPathOf(model, ws, c.schema, c.itemId)} size="sm">
              {c.label || c.itemId}
            </Anchor>
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

/** The reasons beside 'Publish release' describe the disabled button. */
const REFUSALS_ID = 'release-refusals';

/** Why the release cannot go out yet, entry by entry; nothing once it can. */
function PublishBlockers({ release, isPublisher }: { release: Release; isPublisher: boolean }) {
  if (release.state === 'published') return null;
  const refusals = publishRefusals(release, isPublisher);
  if (refusals.length === 0) return null;
  const [headline, ...details] = refusals;
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      title="This release cannot be published yet"
      data-testid="release-blockers"
    >
      <div id={REFUSALS_ID}>
        <Text size="sm">{headline}</Text>
        {details.length > 0 && (
          <List size="sm" mt={4} spacing={2}>
            {details.map((line) => (
              <List.Item key={line}>{line}</List.Item>
            ))}
          </List>
        )}
      </div>
    </Alert>
  );
}

/** What publishing does, and the option to publish along the referenced items not current in the stage. */
function PublishConfirmBody({
  ws,
  release,
  stageLabel,
  count,
  onPublishRefsChange,
}: {
  ws: string;
  release: Release;
  stageLabel: string;
  count: string;
  onPublishRefsChange: (value: boolean) => void;
}) {
  const [publishRefs, setPublishRefs] = useState(false);
  const references = useReleaseReferences(ws, release.id, true).data?.references ?? [];
  return (
    <Stack gap="sm">
      <Text size="sm">
        {count} change in {stageLabel} together. If any of them is refused, none is.
      </Text>
      {references.length > 0 && (
        <>
          <Checkbox
            label="Also publish the items it references"
            description={`${references.length} not current in ${stageLabel}, each at its latest version`}
            checked={publishRefs}
            onChange={(event) => {
              setPublishRefs(event.currentTarget.checked);
              onPublishRefsChange(event.currentTarget.checked);
            }}
          />
          {publishRefs && (
            <List size="sm" spacing={2} data-testid="publish-refs">
              {references.map((r) => (
                <List.Item key={`${r.schema}/${r.itemId}`}>
                  {r.label} ({r.schema})
                </List.Item>
              ))}
            </List>
          )}
        </>
      )}
    </Stack>
  );
}

/** Publish, revert and delete, each behind its confirm dialog. */
function useReleaseConfirms(workspace: Workspace, release: Release, stageLabel: string) {
  const navigate = useNavigate();
  const publish = useReleaseAction(workspace.id, release.id, 'publish');
  const revert = useReleaseAction(workspace.id, release.id, 'revert');
  const remove = useDeleteRelease(workspace.id);
  const count = `${release.entries.length} ${release.entries.length === 1 ? 'item' : 'items'}`;

  const confirmPublish = () => {
    // The dialog's checkbox, read when the person confirms.
    let publishRefs = false;
    modals.openConfirmModal({
      title: `Publish “${release.name}” to ${stageLabel}?`,
      children: (
        <PublishConfirmBody
          ws={workspace.id}
          release={release}
          stageLabel={stageLabel}
          count={count}
          onPublishRefsChange={(value) => {
            publishRefs = value;
          }}
        />
      ),
      labels: { confirm: 'Publish release', cancel: 'Cancel' },
      onConfirm: () =>
        publish.mutate(
          { publishRefs },
          {
            onSuccess: () =>
              showToast({ color: 'teal', message: `“${release.name}” is published in ${stageLabel}` }),
          },
        ),
    });
  };
  const confirmRevert = () =>
    modals.openConfirmModal({
      title: `Revert “${release.name}”?`,
      children: (
        <Text size="sm">
          Each entry’s previously published version goes back to {stageLabel}; items the release published for
          the first time are unpublished.
        </Text>
      ),
      labels: { confirm: 'Revert release', cancel: 'Cancel' },
      confirmProps: { color: 'orange' },
      onConfirm: () =>
        revert.mutate(undefined, {
          onSuccess: () => showToast({ color: 'teal', message: `“${release.name}” is reverted` }),
        }),
    });
  const confirmDelete = () =>
    modals.openConfirmModal({
      title: `Delete “${release.name}”?`,
      children: (
        <Text size="sm">The release and its list of entries are deleted. The items stay as they are.</Text>
      ),
      labels: { confirm: 'Delete release', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(release.id, { onSuccess: () => navigate(releasesPath(workspace.id)) }),
    });

  return { publish, revert, remove, confirmPublish, confirmRevert, confirmDelete };
}

function ReleaseActions({
  workspace,
  release,
  confirms,
}: {
  workspace: Workspace;
  release: Release;
  confirms: ReturnType<typeof useReleaseConfirms>;
}) {
  const isPublished = release.state === 'published';
  const isPublisher = workspace.__permissions.canPublish.length > 0;
  const { publish, revert, remove, confirmPublish, confirmRevert, confirmDelete } = confirms;
  const refusals = publishRefusals(release, isPublisher);
  return (
    <Stack gap={6} align="flex-end">
      <Group gap="xs">
        {isPublished ? (
          <Button
            color="orange"
            leftSection={<IconArrowBackUp size={16} />}
            onClick={confirmRevert}
            loading={revert.isPending}
            disabled={!isPublisher}
          >
            Revert release
          </Button>
        ) : (
          <Button
            leftSection={<IconRocket size={16} />}
            onClick={confirmPublish}
            loading={publish.isPending}
            disabled={refusals.length > 0}
            aria-describedby={refusals.length > 0 ? REFUSALS_ID : undefined}
          >
            Publish release
          </Button>
        )}
        {release.canChange && (
          <Button
            variant="default"
            c="red.9"
            leftSection={<IconTrash size={16} />}
            onClick={confirmDelete}
            loading={remove.isPending}
          >
            Delete
          </Button>
        )}
      </Group>
      {/* A revert refused for newer work is explained, item by item, below the header. */}
      <FormError
        error={publish.error ?? (changedSinceOf(revert.error).length ? null : revert.error) ?? remove.error}
      />
    </Stack>
  );
}

/**
 * What a save of the details changes: a stage or time left as they were is not sent, so saving a name
 * neither needs the rights a new schedule does nor schedules a cleared release again.
 */
function detailsChange(
  release: Release,
  body: Required<CreateReleaseBody>,
): Omit<UpdateReleaseBody, 'updatedAt'> {
  const sameTime =
    (body.publishAt === null ? null : Date.parse(body.publishAt)) ===
      (release.publishAt === null ? null : Date.parse(release.publishAt)) &&
    body.publishAtTz === release.publishAtTz;
  return {
    name: body.name,
    description: body.description,
    ...(body.stage === release.stage ? {} : { stage: body.stage }),
    ...(sameTime ? {} : { publishAt: body.publishAt, publishAtTz: body.publishAtTz }),
  };
}

/** The release's details, editable while it is not published; a stale save (409) offers to reload. */
function DetailsCard({
  workspace,
  release,
  readOnly,
}: {
  workspace: Workspace;
  release: Release;
  readOnly: boolean;
}) {
  const scheduleReadOnly = readOnly || !release.canChange;
  const update = useUpdateRelease(workspace.id, release.id);
  const [formKey, setFormKey] = useState(0);
  const isStale = isApiError(update.error) && update.error.status === 409;
  return (
    <Card withBorder p="md">
      <Title order={2} size="h4" mb="sm">
        Details
      </Title>
      {isStale && (
        <Alert
          color="orange"
          variant="light"
          icon={<IconAlertTriangle size={18} />}
          title="This release changed while you were editing"
          role="alert"
          mb="md"
          data-testid="release-conflict"
        >
          <Group justify="space-between" gap="sm">
            <Text size="sm">{update.error?.message} Nothing was overwritten.</Text>
            <Button
              size="xs"
              color="orange"
              leftSection={<IconRefresh size={14} />}
              onClick={() => {
                update.reset();
                setFormKey((k) => k + 1);
              }}
            >
              Reload the release
            </Button>
          </Group>
        </Alert>
      )}
      <ReleaseDetailsForm
        key={`${formKey}:${readOnly}:${scheduleReadOnly}:${release.publishAt ?? ''}`}
        workspace={workspace}
        release={release}
        readOnly={readOnly}
        scheduleReadOnly={scheduleReadOnly}
        submitLabel="Save details"
        isSaving={update.isPending}
        error={isStale ? null : update.error}
        onSubmit={(body) =>
          update.mutate(
            { ...detailsChange(release, body), updatedAt: release.updatedAt },
            { onSuccess: () => showToast({ color: 'teal', message: 'Release saved' }) },
          )
        }
      />
    </Card>
  );
}

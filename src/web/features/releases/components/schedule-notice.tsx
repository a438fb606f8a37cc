import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCalendarTime, IconRocket } from '@tabler/icons-react';
import type { Release } from '@shared/api/releases';
import type { Workspace } from '@shared/api/workspaces';
import { FormError } from '@web/components/form-error';
import { PUBLISH_AT_FIELD_ID } from '@web/components/releases/release-details-form';
import { useMemberName } from '@web/lib/members';
import { scheduleLabel } from '@web/lib/release-labels';
import { useUpdateRelease } from '@web/lib/releases';
import { showToast } from '@web/lib/toast';

interface NoticeProps {
  workspace: Workspace;
  release: Release;
  /** The member may set its time: they may publish every entry. */
  canChange: boolean;
  /** Nothing blocks publishing now (else the blockers below say what to do first). */
  canPublishNow: boolean;
  onPublishNow: () => void;
}

/**
 * Where the scheduled publish stands. A refused one says why, that nothing went out, and how to go on;
 * one a change cleared says who changed it and who is to schedule it again.
 */
export function ScheduleNotice(props: NoticeProps) {
  const nameOf = useMemberName(props.workspace.id);
  const { release } = props;
  const line = scheduleLabel(release, nameOf(release.scheduledBy));
  if (!line) return null;
  if (release.scheduleStatus === 'refused' || release.scheduleStatus === 'cleared')
    return <ScheduleStopped {...props} line={line} />;
  return <ScheduleLine {...props} line={line} />;
}

function focusPublishAt() {
  const field = document.getElementById(PUBLISH_AT_FIELD_ID);
  field?.scrollIntoView({ block: 'center' });
  field?.focus();
}

/** A schedule that will not run: refused at its time, or cleared by someone else's change. */
function ScheduleStopped({
  workspace,
  release,
  canChange,
  canPublishNow,
  onPublishNow,
  line,
}: NoticeProps & { line: string }) {
  const update = useUpdateRelease(workspace.id, release.id);
  const isRefused = release.scheduleStatus === 'refused';
  const scheduleAgain = () =>
    update.mutate(
      { publishAt: release.publishAt, publishAtTz: release.publishAtTz, updatedAt: release.updatedAt },
      { onSuccess: () => showToast({ color: 'teal', message: 'Scheduled again' }) },
    );
  return (
    <Alert
      color={isRefused ? 'red' : 'orange'}
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      title={isRefused ? 'The scheduled publish was refused' : 'The schedule was cleared'}
      role="alert"
      data-testid="release-schedule"
    >
      <Stack gap="xs">
        <Text size="sm">
          {isRefused
            ? `${line}. Nothing was published. ${release.lastError ?? ''}`
            : `${release.lastError}. ${line}.`}
        </Text>
        {canChange && (
          <Group gap="xs">
            <Button
              size="xs"
              variant="default"
              leftSection={<IconCalendarTime size={14} />}
              loading={update.isPending}
              onClick={isRefused ? focusPublishAt : scheduleAgain}
            >
              {isRefused ? 'Reschedule' : 'Schedule again'}
            </Button>
            {canPublishNow && (
              <Button size="xs" leftSection={<IconRocket size={14} />} onClick={onPublishNow}>
                Publish now
              </Button>
            )}
          </Group>
        )}
        <FormError error={update.error} />
      </Stack>
    </Alert>
  );
}

/** A schedule still to run, running or done; one still to run may be cleared. */
function ScheduleLine({ workspace, release, canChange, line }: NoticeProps & { line: string }) {
  const update = useUpdateRelease(workspace.id, release.id);
  const isPending = release.scheduleStatus === 'pending';
  return (
    <Alert
      color={release.scheduleStatus === 'done' ? 'teal' : 'blue'}
      variant="light"
      icon={release.scheduleStatus === 'running' ? <Loader size={16} /> : <IconCalendarTime size={18} />}
      data-testid="release-schedule"
    >
      <Group justify="space-between" gap="sm">
        <Text size="sm">
          {line}
          {isPending && '. It publishes with their rights at that time.'}
        </Text>
        {isPending && canChange && (
          <Button
            size="xs"
            variant="default"
            loading={update.isPending}
            onClick={() =>
              update.mutate(
                { publishAt: null, publishAtTz: null, updatedAt: release.updatedAt },
                { onSuccess: () => showToast({ color: 'teal', message: 'Schedule cleared' }) },
              )
            }
          >
            Clear the schedule
          </Button>
        )}
      </Group>
      <FormError error={update.error} />
    </Alert>
  );
}

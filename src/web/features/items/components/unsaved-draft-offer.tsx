import { Alert, Button, Group, Text } from '@mantine/core';
import { IconHistory, IconTrash } from '@tabler/icons-react';
import { LIVE_MESSAGES } from '@shared/api/live';
import { formatDateTime } from '@web/lib/dates';
import type { ItemDraft } from '@web/lib/item-drafts';

/** Unsaved edits kept in this browser: put them back in the form (edit mode), or forget them. */
export function UnsavedDraftOffer({
  draft,
  storedVersion,
  canEdit,
  onRestore,
  onDiscard,
}: {
  draft: ItemDraft;
  storedVersion: number;
  /** Without it (no right to edit, item deleted) the edits can only be discarded. */
  canEdit: boolean;
  onRestore: () => void;
  onDiscard: () => void;
}) {
  const outdated = draft.version < storedVersion;
  return (
    <Alert
      color="grape"
      variant="light"
      icon={<IconHistory size={18} />}
      title={LIVE_MESSAGES.restoreDraft(formatDateTime(draft.savedAt))}
      role="status"
      data-testid="draft-offer"
    >
      <Group justify="space-between" gap="sm">
        <Text size="sm">
          {outdated
            ? `They were made on version ${draft.version}; the item has changed since, so saving them will be refused as out of date. Restore them to copy what you need.`
            : 'They were kept in this browser when someone else took over editing.'}
        </Text>
        <Group gap="xs">
          <Button size="xs" variant="default" leftSection={<IconTrash size={14} />} onClick={onDiscard}>
            Discard
          </Button>
          {canEdit && (
            <Button size="xs" color="grape" leftSection={<IconHistory size={14} />} onClick={onRestore}>
              Restore
            </Button>
          )}
        </Group>
      </Group>
    </Alert>
  );
}

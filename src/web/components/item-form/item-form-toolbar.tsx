import { Anchor, Button, Group, Paper, Text } from '@mantine/core';
import { IconArrowBackUp, IconDeviceFloppy, IconEye, IconLock, IconPencil } from '@tabler/icons-react';
import type { SchemaType } from '@shared/schemas/types';
import { SAVE_BLOCKED_MESSAGE } from '@shared/validation/messages';
import type { ItemFormMode } from './item-form';

/** The mode's icon and title, and whether there are unsaved changes. */
function ToolbarTitle({ schema, mode, dirty }: { schema: SchemaType; mode: ItemFormMode; dirty: boolean }) {
  const editing = mode === 'edit';
  return (
    <Group gap="xs">
      {editing ? (
        <IconPencil size={18} />
      ) : mode === 'compare' ? (
        <IconArrowBackUp size={18} />
      ) : (
        <IconEye size={18} />
      )}
      <Text fw={600} size="sm">
        {mode === 'edit'
          ? `Editing ${schema.title}`
          : mode === 'compare'
            ? 'Comparing versions'
            : schema.title}
      </Text>
      {editing && dirty && (
        <Text size="xs" c="dimmed">
          Unsaved changes
        </Text>
      )}
    </Group>
  );
}

interface ItemFormActions {
  canSave: boolean;
  canReset: boolean;
  saving: boolean;
}

interface ToolbarActionsProps {
  schema: SchemaType;
  mode: ItemFormMode;
  canEdit: boolean;
  /** Said in view mode without `canEdit`, instead of the missing right. */
  readOnlyReason?: string;
  actions: ItemFormActions;
  onModeChange: (mode: ItemFormMode) => void;
  onCancel: () => void;
  onReset: () => void;
  onSave: () => void;
}

/** Edit (or why not) in view mode, Close comparison in compare mode, Cancel, Reset and Save in edit mode. */
function ToolbarActions({
  schema,
  mode,
  canEdit,
  readOnlyReason,
  actions: { canSave, canReset, saving },
  onModeChange,
  onCancel,
  onReset,
  onSave,
}: ToolbarActionsProps) {
  return (
    <Group gap="xs">
      {mode === 'view' && canEdit && (
        <Button leftSection={<IconPencil size={16} />} onClick={() => onModeChange('edit')}>
          Edit
        </Button>
      )}
      {mode === 'view' && !canEdit && (
        <Group gap={6} c="dimmed">
          <IconLock size={16} />
          <Text size="sm">
            {readOnlyReason ?? `Read-only: you cannot edit ${schema.pluralTitle.toLowerCase()}`}
          </Text>
        </Group>
      )}
      {mode === 'compare' && (
        <Button variant="default" onClick={() => onModeChange('view')}>
          Close comparison
        </Button>
      )}
      {mode === 'edit' && (
        <>
          <Button variant="subtle" color="gray" onClick={onCancel}>
            Cancel
          </Button>
          <Button variant="default" disabled={!canReset || saving} onClick={onReset}>
            Reset
          </Button>
          <Button
            leftSection={<IconDeviceFloppy size={16} />}
            disabled={!canSave}
            loading={saving}
            onClick={onSave}
          >
            Save
          </Button>
        </>
      )}
    </Group>
  );
}

/** Why Save is refused, with a link that shows every error when only the touched fields' show. */
function SaveBlockedNotice({
  showAllErrors,
  onShowAllErrors,
}: {
  showAllErrors: boolean;
  onShowAllErrors: () => void;
}) {
  return (
    <Group gap={6} justify="flex-end" mt={4}>
      <Text size="xs" c="red" role="alert">
        {SAVE_BLOCKED_MESSAGE}
      </Text>
      {!showAllErrors && (
        <Anchor component="button" type="button" size="xs" onClick={onShowAllErrors}>
          Show what to fix
        </Anchor>
      )}
    </Group>
  );
}

/** The form's sticky bar: its mode and title, the actions of that mode, and why Save is blocked. */
export function ItemFormToolbar({
  dirty,
  blocked,
  showAllErrors,
  onShowAllErrors,
  ...actions
}: ToolbarActionsProps & {
  dirty: boolean;
  blocked: boolean;
  showAllErrors: boolean;
  onShowAllErrors: () => void;
}) {
  return (
    <Paper
      px="md"
      py="xs"
      radius="md"
      style={{ position: 'sticky', top: 0, zIndex: 3, background: 'var(--mantine-color-body)' }}
    >
      <Group justify="space-between" gap="sm">
        <ToolbarTitle schema={actions.schema} mode={actions.mode} dirty={dirty} />
        <ToolbarActions {...actions} />
      </Group>
      {blocked && <SaveBlockedNotice showAllErrors={showAllErrors} onShowAllErrors={onShowAllErrors} />}
    </Paper>
  );
}

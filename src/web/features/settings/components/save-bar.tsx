import { Button, Group, Text } from '@mantine/core';

/** Save and reset actions of a settings form; enabled only when something changed. */
export function SaveBar({
  isDirty,
  isSaving,
  onReset,
  saveLabel = 'Save changes',
}: {
  isDirty: boolean;
  isSaving: boolean;
  onReset: () => void;
  saveLabel?: string;
}) {
  return (
    <Group
      justify="space-between"
      mt="lg"
      py="sm"
      style={{
        position: 'sticky',
        bottom: 0,
        zIndex: 5,
        background: 'var(--mantine-color-gray-0)',
        borderTop: '1px solid var(--mantine-color-gray-3)',
      }}
    >
      <Text size="sm" c="dimmed">
        {isDirty ? 'You have unsaved changes.' : 'All changes saved.'}
      </Text>
      <Group gap="sm">
        <Button variant="default" onClick={onReset} disabled={!isDirty || isSaving}>
          Reset
        </Button>
        <Button type="submit" disabled={!isDirty} loading={isSaving}>
          {saveLabel}
        </Button>
      </Group>
    </Group>
  );
}

import { Button } from '@mantine/core';
import { IconLink } from '@tabler/icons-react';
import { useReleaseReferences } from '@web/lib/releases';

/**
 * 'Add the N items it references that are not current in {stage}': one click, each at its latest version.
 * Nothing when the release's entries reference no such item.
 */
export function AddReferencesButton({
  ws,
  releaseId,
  enabled,
  stageLabel,
  isAdding,
  onAdd,
}: {
  ws: string;
  releaseId: string;
  enabled: boolean;
  stageLabel: string;
  isAdding: boolean;
  onAdd: (entries: { schema: string; itemId: string }[]) => void;
}) {
  const references = useReleaseReferences(ws, releaseId, enabled);
  const found = references.data?.references ?? [];
  if (found.length === 0) return null;
  return (
    <Button
      variant="light"
      size="xs"
      leftSection={<IconLink size={14} />}
      loading={isAdding}
      title={found.map((r) => r.label).join(', ')}
      onClick={() => onAdd(found.map((r) => ({ schema: r.schema, itemId: r.itemId })))}
    >
      Add the {found.length === 1 ? 'item' : `${found.length} items`} it references that{' '}
      {found.length === 1 ? 'is' : 'are'} not current in {stageLabel}
    </Button>
  );
}

import { Alert, Button } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { isApiError } from '@web/lib/api-client';
import { workspaceQueryKey } from '@web/lib/workspace';

/** A save failed: a stale version (409) offers to reload the workspace, any other error shows its message. */
export function SaveErrorAlert({
  error,
  workspaceId,
  onReload,
}: {
  error: unknown;
  workspaceId: string;
  onReload?: () => void;
}) {
  const client = useQueryClient();
  if (!error) return null;
  const isConflict = isApiError(error) && error.status === 409;
  const message = error instanceof Error ? error.message : 'Saving failed';
  return (
    <Alert
      color={isConflict ? 'orange' : 'red'}
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      mb="md"
      role="alert"
    >
      {message}
      {isConflict && (
        <Button
          size="xs"
          variant="white"
          ml="sm"
          onClick={async () => {
            await client.refetchQueries({ queryKey: workspaceQueryKey(workspaceId), exact: true });
            onReload?.();
          }}
        >
          Reload
        </Button>
      )}
    </Alert>
  );
}

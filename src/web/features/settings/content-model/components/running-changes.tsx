import { Alert, Progress, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useModelChanges } from '../api/list-model-changes';

/**
 * The changes whose items are still being converted in the background, each with its progress: the
 * model has changed already, and every item reads in its new shape meanwhile.
 */
export function RunningChanges({ ws }: { ws: string }) {
  const { data } = useModelChanges(ws);
  const running = (data?.changes ?? []).filter((change) => change.state === 'running').reverse();
  if (running.length === 0) return null;
  return (
    <Alert
      variant="light"
      color="blue"
      icon={<IconRefresh size={18} />}
      title="Converting items"
      data-testid="running-changes"
      mb="lg"
    >
      <Stack gap="xs">
        {running.map(({ id, version, progress: { done, total } }) => (
          <Stack key={id} gap={4}>
            <Text size="sm">
              Version {version}: {done.toLocaleString('en-US')} of {total.toLocaleString('en-US')} items
              converted. Items read in the new shape meanwhile, and can be edited.
            </Text>
            <Progress
              value={total === 0 ? 100 : (done / total) * 100}
              aria-label={`Items of version ${version} converted`}
            />
          </Stack>
        ))}
      </Stack>
    </Alert>
  );
}

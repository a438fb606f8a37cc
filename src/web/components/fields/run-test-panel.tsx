import { Alert, Badge, Button, Code, Group, Stack, Text } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useParams } from 'react-router';
import { useRunTest } from './run-test-api';

/** 'Run' under the test collection's code: the sandbox's result, console lines and error. */
export function RunTestPanel({ body }: { body: string }) {
  const { workspace: workspaceId = '' } = useParams();
  const run = useRunTest(workspaceId);
  const answer = run.data;

  return (
    <Stack gap="xs" data-testid="run-test">
      <Group gap="sm">
        <Button
          size="xs"
          variant="light"
          leftSection={<IconPlayerPlay size={14} />}
          loading={run.isPending}
          disabled={!workspaceId}
          onClick={() => run.mutate(body)}
        >
          Run
        </Button>
        {answer && (
          <>
            <Badge color={answer.ok ? 'green' : 'red'} variant="light">
              {answer.ok ? 'Passed' : 'Failed'}
            </Badge>
            <Text size="xs" c="dimmed">
              {answer.ms} ms
            </Text>
          </>
        )}
      </Group>
      {run.error && (
        <Alert color="red" variant="light" py={6} role="alert">
          {run.error.message}
        </Alert>
      )}
      {answer?.error && (
        <Alert color="red" variant="light" py={6} role="alert" title="Error">
          {answer.error}
        </Alert>
      )}
      {answer?.ok && (
        <div>
          <Text size="xs" fw={600}>
            Result
          </Text>
          <Code block aria-label="Result">
            {JSON.stringify(answer.result, null, 2)}
          </Code>
        </div>
      )}
      {answer && answer.logs.length > 0 && (
        <div>
          <Text size="xs" fw={600}>
            Logs
          </Text>
          <Code block aria-label="Logs">
            {answer.logs.join('\n')}
          </Code>
        </div>
      )}
    </Stack>
  );
}

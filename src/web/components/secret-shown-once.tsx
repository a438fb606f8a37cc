import { Alert, Code, Group, Text } from '@mantine/core';
import { CopyTextButton } from './copy-text-button';

/**
 * A key just created, shown this once with a button to copy it (the server keeps only its hash).
 * `testId` names it for tests: `new-{testId}` and `{testId}-secret`.
 */
export function SecretShownOnce({ name, secret, testId }: { name: string; secret: string; testId: string }) {
  return (
    <Alert mt="md" color="teal" variant="light" title={`Key "${name}" created`} data-testid={`new-${testId}`}>
      <Text size="sm" mb="xs">
        Copy it now: it is shown only this once.
      </Text>
      <Group gap="xs" wrap="nowrap">
        <Code block style={{ flex: 1, wordBreak: 'break-all' }} data-testid={`${testId}-secret`}>
          {secret}
        </Code>
        <CopyTextButton value={secret} />
      </Group>
    </Alert>
  );
}

import { Center, Loader, Stack, Text } from '@mantine/core';

/** Shown while the first route guards run. */
export function FullPageLoader() {
  return (
    <Center h="100vh" data-testid="full-page-loader">
      <Stack align="center" gap="xs">
        <Loader size="md" type="dots" />
        <Text size="sm" c="dimmed">
          Loading Marquee…
        </Text>
      </Stack>
    </Center>
  );
}

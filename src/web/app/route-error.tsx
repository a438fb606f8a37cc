import { useEffect } from 'react';
import { Button, Center, Code, Group, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { errorMessage } from '@web/lib/api-client';
import { logEvent } from '@web/lib/analytics';
import { MainLandmark } from '@web/components/main-landmark';
import { NotFoundPage } from '@web/components/not-found-page';

/** The text of spec §8's navigation error. */
const navigationErrorText = (e: unknown) => `Navigation error: ${routeErrorMessage(e)}`;

function routeErrorMessage(e: unknown): string {
  if (isRouteErrorResponse(e)) return `${e.status} ${e.statusText || ''}`.trim();
  return errorMessage(e);
}

/** Error boundary of the routes: 'Navigation error: {message}' and a navigation_failed event (spec §8). */
export function RouteErrorPage() {
  const error = useRouteError();
  const isNotFound = isRouteErrorResponse(error) && error.status === 404;

  useEffect(() => {
    if (!isNotFound) logEvent('navigation_failed', { message: routeErrorMessage(error) });
  }, [error, isNotFound]);

  if (isNotFound) return <NotFoundPage />;

  return (
    <MainLandmark>
      <Center mih="70vh" p="xl">
        <Stack align="center" gap="sm" maw={520} ta="center" role="alert">
          <IconAlertTriangle size={44} stroke={1.4} color="var(--mantine-color-red-6)" />
          <Title order={1} fz="h3">
            Something went wrong
          </Title>
          <Code block style={{ whiteSpace: 'pre-wrap' }}>
            {navigationErrorText(error)}
          </Code>
          <Text c="dimmed" size="sm">
            Try again, or go back to your workspaces.
          </Text>
          <Group>
            <Button variant="default" onClick={() => window.location.reload()}>
              Reload
            </Button>
            <Button component={Link} to="/" reloadDocument>
              Your workspaces
            </Button>
          </Group>
        </Stack>
      </Center>
    </MainLandmark>
  );
}

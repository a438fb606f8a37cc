import { Button, Stack, Text } from '@mantine/core';
import { Link, useLoaderData } from 'react-router';
import { AuthLayout } from './components/auth-layout';

/** /auth/bye after signing out. */
export default function ByeRoute() {
  const data = useLoaderData() as { name?: string } | null;
  return (
    <AuthLayout
      title="You are signed out"
      subtitle={data?.name ? `See you soon, ${data.name}.` : 'See you soon.'}
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Your session on this device has ended. Sign in again to get back to your workspaces.
        </Text>
        <Button component={Link} to="/auth/welcome" fullWidth>
          Sign in again
        </Button>
      </Stack>
    </AuthLayout>
  );
}

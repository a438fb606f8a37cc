import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { IconMapQuestion } from '@tabler/icons-react';
import { Link } from 'react-router';
import { MainLandmark } from './main-landmark';

/** Spec §2: any other path shows the not-found page. */
export function NotFoundPage() {
  return (
    <MainLandmark>
      <Center mih="70vh" p="xl">
        <Stack align="center" gap="sm" maw={420} ta="center">
          <IconMapQuestion size={48} stroke={1.4} color="var(--mantine-color-marquee-5)" />
          <Text c="dimmed" fw={600} size="sm">
            404
          </Text>
          <Title order={1} fz="h2">
            Page not found
          </Title>
          <Text c="dimmed">The page you are looking for does not exist or has moved.</Text>
          <Button component={Link} to="/" mt="sm">
            Go to your workspaces
          </Button>
        </Stack>
      </Center>
    </MainLandmark>
  );
}

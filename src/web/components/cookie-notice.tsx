import { useState } from 'react';
import { Button, Group, Paper, Text } from '@mantine/core';
import { IconCookie } from '@tabler/icons-react';
import { acceptCookieNotice, isCookieNoticeAccepted } from '@web/lib/cookies';

/** Spec §1/§9: the cookie notice; it never times out and is hidden once accepted. */
export function CookieNotice() {
  const [isVisible, setIsVisible] = useState(() => !isCookieNoticeAccepted());
  if (!isVisible) return null;

  const handleAccept = () => {
    acceptCookieNotice();
    setIsVisible(false);
  };

  return (
    <Paper
      role="region"
      aria-label="Cookie notice"
      shadow="lg"
      p="md"
      radius="lg"
      style={{
        position: 'fixed',
        bottom: 16,
        left: 16,
        right: 16,
        maxWidth: 560,
        margin: '0 auto',
        zIndex: 300,
      }}
    >
      <Group wrap="nowrap" align="center" gap="md">
        <IconCookie size={28} stroke={1.5} color="var(--mantine-color-marquee-5)" style={{ flexShrink: 0 }} />
        <Text size="sm" style={{ flex: 1 }}>
          Marquee uses cookies to keep you signed in and to understand how the app is used.
        </Text>
        <Button size="xs" onClick={handleAccept}>
          Got it
        </Button>
      </Group>
    </Paper>
  );
}

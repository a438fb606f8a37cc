import { useEffect } from 'react';
import { Button, Group, Notification, Portal, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useRegisterSW } from 'virtual:pwa-register/react';

/** Spec §8 and §9: the update notice's text and how long it stays. */
export const UPDATE_NOTICE_TEXT = 'NEWER VERSION AVAILABLE. PLEASE REFRESH';
export const UPDATE_NOTICE_TIMEOUT_MS = 10_000;

/**
 * Registers the service worker and, when a newer build has been installed beside the running one, offers
 * REFRESH (activate it and reload) or IGNORE; the notice closes itself after 10000 ms.
 */
export function UpdateNotice() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW();

  useEffect(() => {
    if (!needRefresh) return;
    const timer = setTimeout(() => setNeedRefresh(false), UPDATE_NOTICE_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [needRefresh, setNeedRefresh]);

  if (!needRefresh) return null;
  return (
    <Portal>
      <Notification
        role="alert"
        data-testid="update-notice"
        icon={<IconRefresh size={18} />}
        color="marquee"
        withCloseButton={false}
        style={{ position: 'fixed', bottom: 24, left: '50%', transform: 'translateX(-50%)', zIndex: 3000 }}
      >
        <Group gap="md" wrap="nowrap">
          <Text size="sm" fw={600}>
            {UPDATE_NOTICE_TEXT}
          </Text>
          <Button size="xs" onClick={() => void updateServiceWorker(true)}>
            REFRESH
          </Button>
          <Button size="xs" variant="default" onClick={() => setNeedRefresh(false)}>
            IGNORE
          </Button>
        </Group>
      </Notification>
    </Portal>
  );
}

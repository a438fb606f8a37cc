import { useEffect } from 'react';
import { Button, Group, Notification, Portal, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';

/** Spec §8 and §9: the update notice's text and how long it stays. */
export const UPDATE_NOTICE_TEXT = 'NEWER VERSION AVAILABLE. PLEASE REFRESH';
export const UPDATE_NOTICE_TIMEOUT_MS = 10_000;

/** The notice itself: REFRESH or IGNORE, and it closes itself (as IGNORE) after 10000 ms. */
export function UpdateNoticeView({
  isOpen,
  onRefresh,
  onIgnore,
}: {
  isOpen: boolean;
  onRefresh: () => void;
  onIgnore: () => void;
}) {
  useEffect(() => {
    if (!isOpen) return;
    const timer = setTimeout(onIgnore, UPDATE_NOTICE_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [isOpen, onIgnore]);

  if (!isOpen) return null;
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
          <Button size="xs" onClick={onRefresh}>
            REFRESH
          </Button>
          <Button size="xs" variant="default" onClick={onIgnore}>
            IGNORE
          </Button>
        </Group>
      </Notification>
    </Portal>
  );
}

import { Alert } from '@mantine/core';
import { useNetwork } from '@mantine/hooks';
import { IconWifiOff } from '@tabler/icons-react';

const OFFLINE_NOTICE_TEXT =
  "You are offline. Screens you have opened before still open, but their data needs a connection and loads when you're back online.";

/** Says plainly why lists and items do not load while the browser has no network. */
export function OfflineNotice() {
  const { online } = useNetwork();
  if (online) return null;
  return (
    <Alert
      data-testid="offline-notice"
      role="status"
      color="orange"
      icon={<IconWifiOff size={18} />}
      variant="filled"
      radius="md"
      maw="calc(100vw - 32px)"
      w={440}
      style={{ position: 'fixed', bottom: 16, left: 16, zIndex: 2900, boxShadow: 'var(--mantine-shadow-md)' }}
    >
      {OFFLINE_NOTICE_TEXT}
    </Alert>
  );
}

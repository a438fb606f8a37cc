import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { TOAST_POSITION } from '@web/lib/toast';
import { readableColorsResolver } from './readable-colors';
import { theme } from './theme';

/**
 * Confirm dialogs (`modals.openConfirmModal`) reach the ModalsProvider through window events, so it
 * needs to be mounted, not to wrap the screens: mounted beside them it loads after the entry chunk and
 * no screen's first paint carries Mantine's Modal (DESIGN §7). Nothing here uses `useModals()`.
 * Events sent while it loads (a click right after the page opens) are kept and sent again once it is in.
 */
const MODAL_EVENTS = [
  'openModal',
  'openConfirmModal',
  'openContextModal',
  'closeModal',
  'closeAllModals',
  'updateModal',
  'updateContextModal',
].map((name) => `mantine-modals:${name}`);
const sentEarly: CustomEvent[] = [];
const keepEarly = (event: Event) => sentEarly.push(event as CustomEvent);
for (const type of MODAL_EVENTS) window.addEventListener(type, keepEarly);

const ModalsProvider = lazy(() =>
  import('@mantine/modals').then(({ ModalsProvider: Provider }) => ({
    default: function LoadedModals() {
      // After the provider's own listeners are in (a child's effects run first).
      useEffect(() => {
        for (const type of MODAL_EVENTS) window.removeEventListener(type, keepEarly);
        for (const event of sentEarly.splice(0)) {
          window.dispatchEvent(new CustomEvent(event.type, { detail: event.detail }));
        }
      }, []);
      return <Provider />;
    },
  })),
);

export function AppProviders({ client, children }: { client: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={client}>
      <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={readableColorsResolver}>
        <Notifications position={TOAST_POSITION} limit={4} zIndex={2000} />
        <Suspense fallback={null}>
          <ModalsProvider />
        </Suspense>
        {children}
      </MantineProvider>
    </QueryClientProvider>
  );
}

import { lazy, Suspense, type ReactNode } from 'react';
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
 */
const ModalsProvider = lazy(() => import('@mantine/modals').then((m) => ({ default: m.ModalsProvider })));

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

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/dates/styles.css';
import './app/global.css';
import { AppProviders } from './app/providers';
import { createAppRouter } from './app/router';
import { queryClient } from './lib/query-client';
import { publicConfigOptions } from './lib/public-config';
import { UpdateNotice } from './components/update-notice';

const router = createAppRouter(queryClient);
// The public runtime configuration is read once, at start.
void queryClient.prefetchQuery(publicConfigOptions);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders client={queryClient}>
      <RouterProvider router={router} />
      <UpdateNotice />
    </AppProviders>
  </StrictMode>,
);

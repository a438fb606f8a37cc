import { QueryClient } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '@web/app/providers';
import { createRoutes } from '@web/app/router';
import { render } from './render';

/** Renders the whole app (its routes with their guards, and its providers) at `path`, on a new query cache. */
export async function renderApp(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(createRoutes(client), { initialEntries: [path] });
  await render(
    <AppProviders client={client}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  const location = () => router.state.location.pathname + router.state.location.search;
  return { router, location };
}

import type { QueryClient } from '@tanstack/react-query';
import {
  createBrowserRouter,
  redirect,
  type LoaderFunction,
  type Params,
  type RouteObject,
} from 'react-router';
import { createLoaders } from './loaders';
import { RootLayout } from './root-layout';
import { RouteErrorPage } from './route-error';
import { FullPageLoader } from '@web/components/full-page-loader';
import { NotFoundPage } from '@web/components/not-found-page';
import { ROOT_REDIRECT, explorePath } from './guards';
import { loadChunk } from '@web/lib/chunk-load';

type Loaders = ReturnType<typeof createLoaders>;

/** Lazy route module: screens load as separate chunks so the first bundle stays small (DESIGN §7). */
const screen = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({
  Component: (await loadChunk(load)).default,
});

/**
 * A lazy item screen with its guard: the module exports the screen and `createLoader(client)`, the
 * spec's guard that loads the item (and what the screen shows) before it renders.
 */
const guardedScreen =
  (
    client: QueryClient,
    load: () => Promise<{
      default: React.ComponentType;
      createLoader: (client: QueryClient) => LoaderFunction;
    }>,
  ) =>
  async () => {
    const module = await loadChunk(load);
    return { Component: module.default, loader: module.createLoader(client) };
  };

/**
 * A route that only sends the visitor on: its loader always redirects, and until the router has run it
 * (the first page load) the loader's indicator stands in. Without a Component the router warns that the
 * matched leaf route has no element.
 */
const redirectRoute = (to: (params: Params) => string) => ({
  loader: ({ params }: { params: Params }) => redirect(to(params)),
  Component: FullPageLoader,
});

/** Re-run guards on every navigation: onboarding and the manager check depend on the target path. */
const always = () => true;

/** The public screens about an account: sign-in, password, farewell, email verification. */
function accountRoutes(loaders: Loaders): RouteObject[] {
  return [
    {
      path: 'auth/welcome',
      loader: loaders.welcomeLoader,
      lazy: screen(() => import('@web/features/auth/welcome-route')),
    },
    {
      path: 'auth/forgot-password',
      lazy: screen(() => import('@web/features/auth/forgot-password-route')),
    },
    {
      path: 'auth/reset-password',
      lazy: screen(() => import('@web/features/auth/reset-password-route')),
    },
    {
      path: 'auth/bye',
      loader: loaders.byeLoader,
      lazy: screen(() => import('@web/features/auth/bye-route')),
    },
    {
      path: 'user/verify-email',
      loader: loaders.verifyEmailLoader,
      lazy: screen(() => import('@web/features/auth/verify-email-route')),
    },
    { path: 'auth/*', Component: NotFoundPage },
    { path: 'user/*', Component: NotFoundPage },
  ];
}

/** /{workspace}/_settings and its pages. */
function settingsRoute(): RouteObject {
  return {
    path: '_settings',
    lazy: screen(() => import('@web/features/settings/settings-layout')),
    children: [
      { index: true, lazy: screen(() => import('@web/features/settings/basics-route')) },
      { path: 'basics', lazy: screen(() => import('@web/features/settings/basics-route')) },
      { path: 'locales', lazy: screen(() => import('@web/features/settings/locales-route')) },
      {
        path: 'content-model',
        lazy: screen(() => import('@web/features/settings/content-model/content-model-route')),
      },
      { path: 'preview', lazy: screen(() => import('@web/features/settings/preview-origins-route')) },
      { path: 'users', lazy: screen(() => import('@web/features/settings/users-route')) },
      { path: 'roles', lazy: screen(() => import('@web/features/settings/roles-route')) },
      { path: 'sso', lazy: screen(() => import('@web/features/settings/sso-route')) },
      { path: 'subscription', lazy: screen(() => import('@web/features/settings/subscription-route')) },
      { path: 'batches', lazy: screen(() => import('@web/features/settings/batches-route')) },
      {
        path: 'suppressions',
        lazy: screen(() => import('@web/features/suppressions/suppressions-route')),
      },
      { path: 'api-keys', lazy: screen(() => import('@web/features/api-keys/api-keys-route')) },
      { path: 'write-keys', lazy: screen(() => import('@web/features/ingest-keys/write-keys-route')) },
      { path: 'undeclared', lazy: screen(() => import('@web/features/ingest-keys/undeclared-route')) },
      { path: 'webhooks', lazy: screen(() => import('@web/features/webhooks/webhooks-route')) },
      { path: 'sending', lazy: screen(() => import('@web/features/senders/senders-route')) },
      { path: 'audit', lazy: screen(() => import('@web/features/audit/audit-route')) },
      { path: '*', Component: NotFoundPage },
    ],
  };
}

/** The screens about one item, each behind the guard that loads it. */
function itemScreenRoutes(client: QueryClient): RouteObject[] {
  return [
    {
      path: ':domain/:schema/:id',
      lazy: guardedScreen(client, () => import('@web/features/items/routes/single-item')),
    },
    {
      path: 'changelog/:domain/:schema/:id',
      lazy: guardedScreen(client, () => import('@web/features/items/routes/changelog')),
    },
    {
      path: 'approvals/:domain/:schema/:id',
      lazy: guardedScreen(client, () => import('@web/features/items/routes/approvals')),
    },
    {
      path: ':domain/:schema/:id/publish',
      lazy: guardedScreen(client, () => import('@web/features/items/routes/publish')),
    },
    {
      path: ':domain/:schema/:id/un-publish',
      lazy: guardedScreen(client, () => import('@web/features/items/routes/unpublish')),
    },
    {
      path: ':domain/:schema/:id/delete',
      lazy: guardedScreen(client, () => import('@web/features/items/routes/delete-item')),
    },
  ];
}

export function createRoutes(client: QueryClient): RouteObject[] {
  const loaders = createLoaders(client);
  return [
    {
      id: 'root',
      Component: RootLayout,
      ErrorBoundary: RouteErrorPage,
      HydrateFallback: FullPageLoader,
      children: [
        { index: true, ...redirectRoute(() => ROOT_REDIRECT) },
        ...accountRoutes(loaders),
        {
          id: 'private',
          loader: loaders.privateLoader,
          shouldRevalidate: always,
          children: [
            {
              path: 'workspaces',
              loader: loaders.workspacesListLoader,
              lazy: screen(() => import('@web/features/workspaces/workspaces-route')),
            },
            {
              path: 'workspaces/create',
              lazy: screen(() => import('@web/features/workspaces/create-workspace-route')),
            },
            { path: 'workspaces/*', Component: NotFoundPage },
            {
              id: 'workspace',
              path: ':workspace',
              loader: loaders.workspaceLoader,
              shouldRevalidate: always,
              children: [
                { index: true, ...redirectRoute((params) => explorePath(params.workspace!)) },
                { path: '_oobe', lazy: screen(() => import('@web/features/workspaces/oobe-route')) },
                {
                  lazy: screen(() => import('./shell/workspace-shell')),
                  ErrorBoundary: RouteErrorPage,
                  children: [
                    { path: '_items', ...redirectRoute((params) => explorePath(params.workspace!)) },
                    { path: '_domains', lazy: screen(() => import('@web/features/explore/domains-route')) },
                    {
                      path: '_dashboard',
                      lazy: screen(() => import('@web/features/dashboard/dashboard-route')),
                    },
                    {
                      path: '_items/:viewId/:viewParam?',
                      handle: { withAside: true },
                      lazy: screen(() => import('@web/features/items/explore-route')),
                    },
                    settingsRoute(),
                    {
                      path: '_releases',
                      lazy: screen(() => import('@web/features/releases/releases-route')),
                    },
                    {
                      path: '_releases/:releaseId',
                      lazy: screen(() => import('@web/features/releases/release-route')),
                    },
                    {
                      path: 'marketing/_customers',
                      lazy: screen(() => import('@web/features/customers/customers-route')),
                    },
                    {
                      path: 'marketing/_customers/:profileId',
                      lazy: screen(() => import('@web/features/customers/profile-route')),
                    },
                    {
                      path: ':domain',
                      handle: { withAside: true },
                      lazy: screen(() => import('@web/features/explore/domain-route')),
                    },
                    {
                      path: ':domain/:schema',
                      handle: { withAside: true },
                      lazy: screen(() => import('@web/features/items/list-items-route')),
                    },
                    ...itemScreenRoutes(client),
                    { path: '*', Component: NotFoundPage },
                  ],
                },
              ],
            },
          ],
        },
        { path: '*', Component: NotFoundPage },
      ],
    },
  ];
}

export function createAppRouter(client: QueryClient) {
  return createBrowserRouter(createRoutes(client));
}

import type { QueryClient } from '@tanstack/react-query';
import { data, redirect, type LoaderFunctionArgs } from 'react-router';
import type { User } from '@shared/api/auth';
import { MESSAGES } from '@shared/api/errors';
import { OkResponse, LinkResultResponse } from '@shared/api/auth';
import { apiRequest, errorMessage, isApiError } from '@web/lib/api-client';
import { logEvent } from '@web/lib/analytics';
import { meQueryKey, meQueryOptions } from '@web/lib/auth';
import { loadWorkspaceModel } from '@web/lib/content-model';
import { forgetOfflineCopies } from '@web/lib/offline-copy';
import { workspacesQueryOptions } from '@web/lib/workspace';
import { abortNavigation, applyDecision, forgetLocation } from './guard-actions';
import {
  BYE_PATH,
  RETURN_TO_PARAM,
  WORKSPACES_PATH,
  decideBye,
  decidePrivateRoute,
  decideVerifyEmail,
  decideWelcome,
  decideWorkspaceRoute,
  canBeWorkspaceSegment,
  safeReturnTo,
  welcomeUrl,
} from './guards';
import { showToast } from '@web/lib/toast';

const attemptedUrl = (request: Request) => {
  const url = new URL(request.url);
  return url.pathname + url.search;
};

/**
 * The route guards of spec §2/§4. Each loader collects the facts through the shared query cache and
 * acts on the pure decision from guards.ts.
 */
export function createLoaders(client: QueryClient) {
  /** Who is signed in; an error other than "signed out" is the spec's init error in the sign-in check. */
  const currentUser = () => client.fetchQuery(meQueryOptions());
  const currentUserOrNull = () => currentUser().catch(() => null);

  /** Private routes: signed in (else welcome, remembering the URL) with a verified email. */
  async function requireUser(request: Request): Promise<User> {
    const url = attemptedUrl(request);
    let user: User | null;
    try {
      user = await currentUser();
    } catch (e) {
      logEvent('controller_error', { message: errorMessage(e), guard: 'sign-in check' }, url);
      throw redirect(BYE_PATH);
    }
    applyDecision(decidePrivateRoute(user, url), url);
    return user!;
  }

  return {
    async privateLoader({ request }: LoaderFunctionArgs) {
      await requireUser(request);
      return null;
    },

    async welcomeLoader({ request }: LoaderFunctionArgs) {
      const user = await currentUserOrNull();
      if (!user) return null;
      const returnTo = new URL(request.url).searchParams.get(RETURN_TO_PARAM);
      const workspaces = safeReturnTo(returnTo)
        ? undefined
        : await client.fetchQuery(workspacesQueryOptions()).catch(() => undefined);
      applyDecision(decideWelcome(user, returnTo, workspaces), attemptedUrl(request));
      return null;
    },

    /** /auth/bye signs out (when signed in) and forgets everything cached for that user. */
    async byeLoader() {
      const user = await currentUserOrNull();
      const decision = decideBye(user);
      if (decision !== 'sign-out') throw redirect(decision.redirect);
      try {
        await apiRequest('/api/v1/auth/sign-out', { method: 'POST', body: {}, schema: OkResponse });
      } catch (e) {
        // The session may already be gone on the server; signing out locally is what matters.
        if (!isApiError(e) || e.status >= 500) throw e;
      }
      client.clear();
      forgetOfflineCopies();
      client.setQueryData(meQueryKey, null);
      forgetLocation();
      return { name: user!.name };
    },

    /** /user/verify-email: follows a mailed link (?token=), else shows the page to unverified users. */
    async verifyEmailLoader({ request }: LoaderFunctionArgs) {
      const url = new URL(request.url);
      const token = url.searchParams.get('token');
      const returnTo = url.searchParams.get(RETURN_TO_PARAM);
      const user = await currentUserOrNull();
      applyDecision(decideVerifyEmail(user, !!token, attemptedUrl(request), returnTo), attemptedUrl(request));
      if (!token) return { linkError: null as string | null };
      try {
        const result = await apiRequest('/api/v1/auth/verify-email', {
          method: 'POST',
          body: { token },
          schema: LinkResultResponse,
        });
        if (result.user && user && result.user.id === user.id) client.setQueryData(meQueryKey, result.user);
        else await client.invalidateQueries({ queryKey: meQueryKey });
        showToast({
          color: 'teal',
          title: 'Email verified',
          message: 'Thanks! Your email address is confirmed.',
        });
        throw redirect(safeReturnTo(result.returnTo) ?? '/');
      } catch (e) {
        if (e instanceof Response) throw e;
        return { linkError: errorMessage(e) };
      }
    },

    /**
     * /{workspace}/…: the workspace must be one the user is a member of (else back to /workspaces with
     * 'Workspace not found'), onboarding comes first, settings are for managers. Loads its content model.
     */
    async workspaceLoader({ request, params }: LoaderFunctionArgs) {
      await requireUser(request);
      const url = attemptedUrl(request);
      const id = params.workspace ?? '';
      // Not a workspace id at all: this is simply a path the app does not have.
      if (!canBeWorkspaceSegment(id)) throw data(null, { status: 404 });
      let workspace;
      try {
        ({ workspace } = await loadWorkspaceModel(client, id));
      } catch (e) {
        if (isApiError(e) && e.status === 401) throw redirect(welcomeUrl(url));
        if (isApiError(e) && e.status >= 400 && e.status < 500) {
          // Spec §8: workspace select failure goes to /workspaces.
          const message =
            e.status === 404 || e.status === 403 || e.status === 400 ? MESSAGES.workspaceNotFound : e.message;
          showToast({ color: 'red', title: 'Cannot open workspace', message });
          logEvent('controller_error', { message }, url);
          throw redirect(WORKSPACES_PATH);
        }
        abortNavigation(errorMessage(e), url, WORKSPACES_PATH);
      }
      applyDecision(decideWorkspaceRoute(workspace, new URL(request.url).pathname), url);
      return null;
    },

    async workspacesListLoader({ request }: LoaderFunctionArgs) {
      await requireUser(request);
      await client.ensureQueryData(workspacesQueryOptions()).catch(() => undefined);
      return null;
    },
  };
}

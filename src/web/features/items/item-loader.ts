import type { QueryClient } from '@tanstack/react-query';
import { redirect, type LoaderFunctionArgs } from 'react-router';
import { welcomeUrl } from '@web/app/guards';
import { errorMessage, isApiError } from '@web/lib/api-client';
import { logEvent } from '@web/lib/analytics';
import { loadWorkspaceModel } from '@web/lib/content-model';
import { approvalsQueryOptions } from './api/get-approvals';
import { historyQueryOptions } from './api/get-history';
import { itemQueryOptions } from './api/get-item';
import { NEW_ITEM_ID } from './api/save-item';
import { schemaListPath } from '@web/lib/item-paths';
import { showToast } from '@web/lib/toast';

/** Spec §8: the notification title when a single item fails to load. */
const ITEM_NOT_FOUND = 'Item not found';

export interface ItemLoaderOptions {
  /** Also load the change log (changelog route). */
  history?: boolean;
  /** Also load approvals (approvals route); a failure there is 'Error loading approvals'. */
  approvals?: boolean;
}

/**
 * The guard of the item routes (spec §2): loads the item (and the change log or approvals the screen
 * shows). If it fails to load, the app notifies 'Item not found' with the reason ('Instance not found'),
 * logs a controller_error event and returns to the list of that schema.
 */
export function createItemLoader(client: QueryClient, options: ItemLoaderOptions = {}) {
  return async ({ params, request }: LoaderFunctionArgs) => {
    const { workspace: ws = '', domain: domainName = '', schema: schemaName = '', id = '' } = params;
    // No workspace (or no model): its own guard redirects.
    const loaded = await loadWorkspaceModel(client, ws).catch(() => undefined);
    if (!loaded) return null;
    const { workspace, model } = loaded;
    const domain = model.domain(domainName);
    if (!domain || !domain.schemas.some((s) => s.name === schemaName)) return null; // the screen shows not-found
    // A domain the workspace has not enabled: the screen says so.
    if (!workspace.basics.domains.includes(domain.name) || domain.disabled) return null;
    if (id === NEW_ITEM_ID) return null;

    const url = new URL(request.url);
    try {
      await client.fetchQuery(itemQueryOptions(ws, schemaName, id));
    } catch (e) {
      if (isApiError(e) && e.status === 401) throw redirect(welcomeUrl(url.pathname + url.search));
      const message = errorMessage(e);
      showToast({ color: 'red', title: ITEM_NOT_FOUND, message, autoClose: 6000 });
      logEvent('controller_error', { message, guard: 'item' }, url.pathname);
      throw redirect(schemaListPath(ws, domain.name, schemaName));
    }
    if (options.history) await client.prefetchQuery(historyQueryOptions(ws, schemaName, id));
    if (options.approvals) {
      try {
        await client.fetchQuery(approvalsQueryOptions(ws, schemaName, id));
      } catch (e) {
        showToast({ color: 'red', title: 'Error loading approvals', message: errorMessage(e) });
      }
    }
    return null;
  };
}

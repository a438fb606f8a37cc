import { useMemo } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Workspace } from '@shared/api/workspaces';
import { imageResizeUrl } from '@shared/media/urls';
import { schemaOptionsOf } from '@web/components/fields/field-environment';
import { useWorkspaceModel } from '@web/lib/content-model';
import { createTypeGenerator } from '../api/generate-types';
import { createInsertionCheck } from '../api/insertion-check';
import { createReferenceSearch } from '../api/search-references';
import { ITEM_FIELD_EDITORS } from '../field-editors';

/** The locales an item form offers for one schema, and those the user may edit (none: every one). */
export function formLocales(workspace: Pick<Workspace, 'basics' | '__permissions'>, schemaName: string) {
  const { locales } = workspace.basics;
  if (!locales) return undefined;
  const limits = workspace.__permissions.editLocales;
  return {
    default: locales.default,
    others: locales.tags.filter((tag) => tag !== locales.default),
    fallback: locales.fallback,
    editable: limits && Object.hasOwn(limits, schemaName) ? limits[schemaName] : undefined,
  };
}

/** What every ItemForm on the item screens gets from the workspace and the API. */
export function useItemFormEnvironment(workspace: Pick<Workspace, 'id' | 'basics' | 'modelVersion'>) {
  const client = useQueryClient();
  const ws = workspace.id;
  const model = useWorkspaceModel(workspace);
  return useMemo(
    () => ({
      model,
      timezones: workspace.basics.timezones,
      referenceSearch: createReferenceSearch(client, ws, model),
      // Spec §5: an event's copy and images are checked against its places and times as the user picks.
      validateAsync: createInsertionCheck(client, ws),
      thumbnailUrl: (thumbId: string) => imageResizeUrl(ws, thumbId, { w: 400 }),
      fieldEditors: ITEM_FIELD_EDITORS,
      generateTypes: createTypeGenerator(ws),
      // Schema selectors offer the schemas of the workspace's enabled domains.
      schemaOptions: schemaOptionsOf(model, workspace.basics.domains),
    }),
    [client, ws, model, workspace.basics.timezones, workspace.basics.domains],
  );
}

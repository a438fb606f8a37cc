import { useMemo } from 'react';
import { useParams } from 'react-router';
import type { Workspace } from '@shared/api/workspaces';
import { localizedSchema } from '@shared/locales/locales';
import type { Domain, SchemaType } from '@shared/schemas/types';
import { useContentModel } from '@web/lib/content-model';
import { useCurrentWorkspace } from '@web/lib/workspace';

export type ItemRoute =
  | { status: 'not-found' }
  | { status: 'disabled'; workspace: Workspace; domain: Domain; schema: SchemaType }
  | { status: 'ok'; ws: string; workspace: Workspace; domain: Domain; schema: SchemaType; id: string };

/**
 * The workspace, domain, schema (with the workspace's locales) and item id an item route names, and
 * whether the domain is usable.
 */
export function useItemRoute(): ItemRoute {
  const params = useParams();
  const workspace = useCurrentWorkspace();
  const domain = useContentModel().domain(params.domain ?? '');
  const declared = domain?.schemas.find((s) => s.name === params.schema);
  const { locales } = workspace.basics;
  // The schema as the workspace sees it: its localised fields flagged, its locales on it.
  const schema = useMemo(
    () => (declared && locales ? localizedSchema(declared, locales) : declared),
    [declared, locales],
  );
  if (!domain || !schema || !params.id) return { status: 'not-found' };
  if (domain.disabled || !workspace.basics.domains.includes(domain.name)) {
    return { status: 'disabled', workspace, domain, schema };
  }
  return { status: 'ok', ws: workspace.id, workspace, domain, schema, id: params.id };
}

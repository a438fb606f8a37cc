import type { ContentModel } from '@shared/model/registry';

/** Paths of the item screens (spec §2 routes). */
export const schemaListPath = (ws: string, domain: string, schema: string) => `/${ws}/${domain}/${schema}`;
export const itemScreenPath = (ws: string, domain: string, schema: string, id: string) =>
  `/${ws}/${domain}/${schema}/${id}`;
export const changelogPath = (ws: string, domain: string, schema: string, id: string) =>
  `/${ws}/changelog/${domain}/${schema}/${id}`;
export const approvalsPath = (ws: string, domain: string, schema: string, id: string) =>
  `/${ws}/approvals/${domain}/${schema}/${id}`;
export const publishPath = (ws: string, domain: string, schema: string, id: string, stage?: string) =>
  `${itemScreenPath(ws, domain, schema, id)}/publish${stage ? `?stage=${encodeURIComponent(stage)}` : ''}`;
export const unpublishPath = (ws: string, domain: string, schema: string, id: string, stage?: string) =>
  `${itemScreenPath(ws, domain, schema, id)}/un-publish${stage ? `?stage=${encodeURIComponent(stage)}` : ''}`;
export const deleteItemPath = (ws: string, domain: string, schema: string, id: string) =>
  `${itemScreenPath(ws, domain, schema, id)}/delete`;

/** The single-item path of an item, from its schema alone (its domain is the model's). */
export function itemPathOf(model: ContentModel, ws: string, schema: string, id: string): string {
  const domain = model.domainOf(schema)?.name ?? '_';
  return itemScreenPath(ws, domain, schema, id);
}

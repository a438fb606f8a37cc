/**
 * Query keys of everything about items in one workspace. Every key starts with ['workspaces', ws,
 * 'items'], so a write can invalidate all lists of a workspace at once.
 */
export interface ListQuery {
  /** Without a schema: every schema of the enabled domains. */
  schema?: string;
  view: string;
  stage?: string;
  /** Case-insensitive text the item's name or title contains. */
  q?: string;
  /** '{latitude},{longitude}': items whose address lies within radiusKm, nearest first. */
  near?: string;
  radiusKm?: number;
  /** A locale other than the default: the items with a localised value missing in it. */
  missing?: string;
}

export const itemKeys = {
  all: (ws: string) => ['workspaces', ws, 'items'] as const,
  lists: (ws: string) => [...itemKeys.all(ws), 'list'] as const,
  list: (ws: string, query: ListQuery) => [...itemKeys.lists(ws), query] as const,
  /** Reference searches of a schema; without `q`, the prefix of all of them. */
  search: (ws: string, schema: string, q?: string) =>
    [...itemKeys.all(ws), 'search', schema, ...(q === undefined ? [] : [q])] as const,
  detail: (ws: string, schema: string, id: string) => [...itemKeys.all(ws), 'detail', schema, id] as const,
  history: (ws: string, schema: string, id: string) =>
    [...itemKeys.detail(ws, schema, id), 'history'] as const,
  version: (ws: string, schema: string, id: string, num: number) =>
    [...itemKeys.detail(ws, schema, id), 'history', num] as const,
  comments: (ws: string, schema: string, id: string) =>
    [...itemKeys.detail(ws, schema, id), 'comments'] as const,
  approvals: (ws: string, schema: string, id: string) =>
    [...itemKeys.detail(ws, schema, id), 'approvals'] as const,
};

const seg = encodeURIComponent;
export const itemsPath = (ws: string, schema?: string) =>
  `/api/v1/workspaces/${seg(ws)}/items${schema ? `/${seg(schema)}` : ''}`;
export const itemPath = (ws: string, schema: string, id: string) => `${itemsPath(ws, schema)}/${seg(id)}`;

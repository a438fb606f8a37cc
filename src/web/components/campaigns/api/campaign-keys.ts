/** Where a campaign's routes live, and the query keys of what they answer. */
export const campaignPath = (workspaceId: string, campaignId: string) =>
  `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/campaigns/${encodeURIComponent(campaignId)}`;

export const sendPath = (workspaceId: string, campaignId: string, sendId: string) =>
  `${campaignPath(workspaceId, campaignId)}/sends/${encodeURIComponent(sendId)}`;

export const campaignKeys = {
  /**
   * The workspace's item lists ('Scheduled' holds campaigns with a queued send) and the campaigns'
   * statuses: a send that starts, stops or is cancelled changes them.
   */
  lists: (ws: string) => ['workspaces', ws, 'items'] as const,
  statuses: (ws: string) => ['workspaces', ws, 'items', 'campaign-statuses'] as const,
  all: (ws: string, id: string) => ['workspaces', ws, 'campaigns', id] as const,
  readiness: (ws: string, id: string) => ['workspaces', ws, 'campaigns', id, 'readiness'] as const,
  preview: (ws: string, id: string, version: number, profileId: string | null) =>
    ['workspaces', ws, 'campaigns', id, 'preview', version, profileId] as const,
  sends: (ws: string, id: string) => ['workspaces', ws, 'campaigns', id, 'sends'] as const,
  send: (ws: string, id: string, sendId: string) =>
    ['workspaces', ws, 'campaigns', id, 'sends', sendId] as const,
  results: (ws: string, id: string, sendId: string) =>
    ['workspaces', ws, 'campaigns', id, 'sends', sendId, 'results'] as const,
};

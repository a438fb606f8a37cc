/** Where a journey's routes live, and the query keys of what they answer. */
export const journeyPath = (workspaceId: string, journeyId: string) =>
  `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/journeys/${encodeURIComponent(journeyId)}`;

export const journeyKeys = {
  results: (ws: string, id: string) => ['workspaces', ws, 'journeys', id, 'results'] as const,
  startPlan: (ws: string, id: string) => ['workspaces', ws, 'journeys', id, 'start-plan'] as const,
};

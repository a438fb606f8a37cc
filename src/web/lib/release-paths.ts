export const releasesPath = (ws: string) => `/${ws}/_releases`;
export const releasePath = (ws: string, id: string) => `/${ws}/_releases/${id}`;

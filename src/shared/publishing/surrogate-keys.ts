/**
 * The cache keys of delivered answers, for a CDN in front of the delivery API: answers carry them in
 * `Surrogate-Key` (space-separated) and `Cache-Tag` (comma-separated), and a publish purges exactly the
 * keys it changed (`DELIVERY_PURGE_URL`). A list answer carries its schema's key; a single item its
 * item's key; an answer with `include=refs` also the keys of every item it references.
 */
export interface DeliveredPlace {
  workspaceId: string;
  stage: string;
  schema: string;
}

export const workspaceKey = (workspaceId: string) => `mq:${workspaceId}`;
export const stageKey = (workspaceId: string, stage: string) => `mq:${workspaceId}:${stage}`;
export const schemaKey = (place: DeliveredPlace) => `mq:${place.workspaceId}:${place.stage}:${place.schema}`;
export const itemKey = (place: DeliveredPlace, id: string) => `${schemaKey(place)}:${id}`;

/** What a publish, unpublish or delete of one item in a stage changes: its lists and its own answers. */
export const changedKeys = (place: DeliveredPlace, id: string) => [schemaKey(place), itemKey(place, id)];

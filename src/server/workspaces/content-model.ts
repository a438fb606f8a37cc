import { and, eq } from 'drizzle-orm';
import { BUILT_IN_MODEL, ContentModel } from '@shared/model/registry';
import { rootOf, type Db, type Tx } from '../db/client';
import { readCache } from '../db/read-cache';
import { contentModels, workspaces } from '../db/schema';
import type { Change } from '../journal/changes';

/** A workspace as far as its model goes: the row every workspace route has already read. */
export interface ModelOwner {
  id: string;
  modelVersion: number;
}

/** Models kept per process; a model version never changes once written, so entries are never stale. */
const MAX_CACHED_MODELS = 500;
const cachedModels = new WeakMap<Db, Map<string, Promise<ContentModel>>>();

async function readModel(db: Db | Tx, owner: ModelOwner): Promise<ContentModel> {
  const [row] = await db
    .select({ doc: contentModels.doc, renamed: contentModels.renamed })
    .from(contentModels)
    .where(and(eq(contentModels.workspaceId, owner.id), eq(contentModels.version, owner.modelVersion)))
    .limit(1);
  if (!row) throw new Error(`Content model ${owner.modelVersion} of workspace ${owner.id} is missing`);
  return new ContentModel(owner.modelVersion, row.doc, row.renamed);
}

/**
 * The workspace's content model at the version its row names: the built-in one at version 0, else read
 * once per process and version. The membership cache's row, dropped by the journal's notice of every
 * model change, is what moves a reader on to the next version. Reads inside a transaction are not
 * cached: a version it writes is not a version until it commits.
 */
export function modelOf(db: Db | Tx, owner: ModelOwner): Promise<ContentModel> {
  if (owner.modelVersion === 0) return Promise.resolve(BUILT_IN_MODEL);
  const root = rootOf(db);
  if (root !== db) return readModel(db, owner);
  let models = cachedModels.get(root);
  if (!models) cachedModels.set(root, (models = new Map()));
  const key = `${owner.id}\n${owner.modelVersion}`;
  let model = models.get(key);
  if (!model) {
    if (models.size >= MAX_CACHED_MODELS) models.delete(models.keys().next().value!);
    model = readModel(db, owner);
    models.set(key, model);
    model.catch(() => models.delete(key));
  }
  return model;
}

/** workspace id → its model version, for readers that have no workspace row (see db/read-cache.ts). */
const MODEL_VERSION_CACHE = 'model-version';

/** The change to journal with a model change: drops the workspace's cached model version. */
export const modelVersionChanged = (workspaceId: string): Change => ({
  kind: 'cache',
  name: MODEL_VERSION_CACHE,
  matches: (key) => key === workspaceId,
});

/** The model of a workspace known by id only (jobs, the delivery API): its current version. */
export async function modelOfWorkspace(db: Db | Tx, workspaceId: string): Promise<ContentModel | undefined> {
  const read = async () =>
    (
      await db
        .select({ modelVersion: workspaces.modelVersion })
        .from(workspaces)
        .where(eq(workspaces.id, workspaceId))
        .limit(1)
    )[0]?.modelVersion;
  const cache = rootOf(db) === db ? readCache<number>(db, MODEL_VERSION_CACHE) : undefined;
  const modelVersion = cache ? await cache.get(workspaceId, read) : await read();
  return modelVersion === undefined ? undefined : modelOf(db, { id: workspaceId, modelVersion });
}

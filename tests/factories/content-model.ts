import type { ContentModelAnswer, ModelApplied } from '@shared/api/content-model';
import type { ModelOp } from '@shared/model/types';
import type { AppContext } from '@server/context';
import { migrateWorkspaceData } from '@server/model/migrate';
import { richTextReader } from '@server/sanitize/rich-text-reader';
import type { TestApp } from '../helpers/test-app';
import type { TestUser } from './users';
import { call } from './items';

/** The job queue's work for a workspace's model changes, run here and now. */
export const migrateModelData = (t: TestApp, ws: string) =>
  migrateWorkspaceData(
    {
      db: t.database.db,
      config: t.config,
      log: t.app.log,
      itemFieldReaders: { 'rich-text': richTextReader },
    } as AppContext,
    ws,
  );

/** Applies a change set to the workspace's current model, its data migrated here and now. */
export async function applyModelChange(
  t: TestApp,
  user: TestUser,
  ws: string,
  ops: ModelOp[],
): Promise<ModelApplied> {
  const url = `/api/v1/workspaces/${ws}/content-model`;
  const { version } = (await call(t, 'GET', url, user)).json() as ContentModelAnswer;
  const res = await call(t, 'POST', `${url}/apply`, user, { baseVersion: version, ops });
  if (res.statusCode !== 200) throw new Error(`apply failed: ${res.statusCode} ${res.body}`);
  const applied = res.json() as ModelApplied;
  if (applied.change?.state === 'running') await migrateModelData(t, ws);
  return applied;
}

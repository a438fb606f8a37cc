import { TransactionRollbackError } from 'drizzle-orm';
import { DELIVERY_MESSAGES } from '@shared/api/delivery';
import { RELEASE_MESSAGES } from '@shared/api/releases';
import type { ApiKeyRow } from '../api-keys/repository';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { forbidden, notFound } from '../http/errors';
import { findRelease } from '../releases/repository';
import { putReleaseInStage } from '../releases/stage-copies';
import type { Rendered } from './cache';
import type { DeliveryTarget } from './service';

/**
 * A delivery answer as it will be once the release publishes (`?release={id}`), for keys with the
 * preview right: the release's entries are put in its stage in a transaction, `render` reads the stage
 * through that transaction (its delivery cache is its own, thrown away with it), and the transaction
 * is rolled back. A published release, or one for another stage, changes nothing in the answer.
 */
export async function previewRelease(
  ctx: AppContext,
  key: ApiKeyRow,
  target: DeliveryTarget,
  releaseId: string,
  render: (ctx: AppContext) => Promise<Rendered>,
): Promise<Rendered> {
  if (!key.preview) throw forbidden(DELIVERY_MESSAGES.previewNotAllowed);
  const release = await findRelease(ctx.db, key.workspaceId, releaseId);
  if (!release) throw notFound(RELEASE_MESSAGES.notFound);
  let answer: Rendered | undefined;
  try {
    await ctx.db.transaction(async (tx) => {
      if (release.state !== 'published' && release.stage === target.stage)
        await putReleaseInStage(tx, target.model, release, new Date(), `preview:${key.id}`);
      const db = tx as unknown as Db;
      answer = await render({ ...ctx, db, readDb: db });
      tx.rollback();
    });
  } catch (err) {
    if (!(err instanceof TransactionRollbackError)) throw err;
  }
  return answer!;
}

import { ITEM_MESSAGES, type PublishResult } from '@shared/api/items';
import { changedKeys } from '@shared/publishing/surrogate-keys';
import type { AppContext } from '../context';
import type { Tx } from '../db/client';
import { AppError, conflict, forbidden, notFound } from '../http/errors';
import { findItemWithWriter, lockItem, type ItemRow } from '../items/repository';
import { presentItem } from '../items/present';
import { upcastItemRow } from '../items/upcast';
import { keyOf, resolveStage } from '../items/service';
import { requireRight, schemaIn, type SchemaScope } from '../items/scope';
import { assertPublishable, publishAudit } from './service';
import { copiesOf, upsertCopy } from './repository';
import { itemLabel, journal } from '../journal/journal';

/** Restates a referenced item's refusal so the caller knows which reference stopped the publish. */
function aboutReference(err: unknown, label: string): unknown {
  if (!(err instanceof AppError)) return err;
  const message = `Referenced item "${label}": ${err.message}`;
  return err.statusCode === 403 ? forbidden(message) : conflict(message, err.details);
}

/**
 * Publishes the current version of referenced items that are not CURRENT in the stage. Each must be
 * publishable by the caller in its own right; any refusal undoes the whole publish.
 */
export async function publishReferences(
  tx: Tx,
  scope: SchemaScope,
  item: ItemRow,
  stage: string,
  at: Date,
  skip: ReadonlySet<string> = new Set(),
) {
  const done: PublishResult['published'] = [];
  const byLabel = Object.entries(item.refs).sort(
    ([idA, a], [idB, b]) => a.label.localeCompare(b.label) || idA.localeCompare(idB),
  );
  for (const [refId, ref] of byLabel) {
    const label = ref.label || refId;
    if (skip.has(`${ref.schemaType}/${refId}`)) continue;
    try {
      const refScope = schemaIn(scope, ref.schemaType);
      requireRight(refScope, 'publish');
      const refItem = await upcastItemRow(tx, refScope, await lockItem(tx, keyOf(refScope, refId)));
      if (!refItem) throw conflict('it does not exist any more');
      const [copy] = await copiesOf(tx, scope.workspace.id, [
        { schema: refItem.schema, id: refItem.id },
      ]).then((copies) => copies.filter((c) => c.stage === stage));
      if (copy && copy.version === refItem.version) continue;
      assertPublishable(refScope, refItem, 'It');
      await upsertCopy(tx, scope.model, refItem, stage, scope.user.id, at);
      done.push({ schema: refItem.schema, id: refItem.id, version: refItem.version });
    } catch (err) {
      throw aboutReference(err, label);
    }
  }
  return done;
}

/**
 * Publishes an item's current version to a stage (DESIGN §4): refused without the publish right (403)
 * and while approvals remain (409). With publishRefs, referenced items not CURRENT there go too, all in
 * one transaction.
 */
export async function publishItem(
  ctx: AppContext,
  scope: SchemaScope,
  id: string,
  stageParam: string,
  options: { publishRefs: boolean },
): Promise<PublishResult> {
  requireRight(scope, 'publish');
  const stage = resolveStage(scope, stageParam);
  const key = keyOf(scope, id);
  const at = new Date();
  const published = await ctx.db.transaction(async (tx) => {
    const item = await upcastItemRow(tx, scope, await lockItem(tx, key));
    if (!item) throw notFound(ITEM_MESSAGES.instanceNotFound);
    assertPublishable(scope, item);
    await upsertCopy(tx, scope.model, item, stage, scope.user.id, at);
    const refs = options.publishRefs ? await publishReferences(tx, scope, item, stage, at) : [];
    const all = [{ schema: item.schema, id: item.id, version: item.version }, ...refs];
    const workspaceId = scope.workspace.id;
    await journal(tx, {
      audit: all.map((p) =>
        publishAudit(scope, 'item.published', p, {
          label: p.id === item.id ? itemLabel(item.data) : (item.refs[p.id]?.label ?? null),
          detail: { stage, version: p.version },
        }),
      ),
      events: all.map((p) => ({ item: { workspaceId, ...p }, event: 'item.published' as const, stage })),
      changes: [
        { kind: 'items', workspaceId },
        { kind: 'stage', workspaceId, stage },
      ],
      purge: {
        workspaceId,
        keys: all.flatMap((p) => changedKeys({ workspaceId, stage, schema: p.schema }, p.id)),
      },
    });
    return all;
  });
  const row = await findItemWithWriter(ctx.db, key);
  if (!row) throw notFound(ITEM_MESSAGES.instanceNotFound);
  return { stage, published, item: await presentItem(ctx.db, scope, row) };
}

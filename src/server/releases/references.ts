import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { RELEASE_MESSAGES, ReleaseReferences, type ReleaseReference } from '@shared/api/releases';
import type { AppContext } from '../context';
import { items } from '../db/schema';
import type { ItemReference } from '../db/schema';
import { enabledSchemas } from '../items/scope';
import { copiesOf } from '../publishing/repository';
import type { WorkspaceAccess } from '../workspaces/access';
import { WorkspaceParams } from '../workspaces/workspace-scope';
import * as repo from './repository';
import { requireRelease } from './service';

const ReleaseParams = WorkspaceParams.extend({
  id: z.string().regex(/^[A-Za-z0-9]{1,40}$/, { error: RELEASE_MESSAGES.notFound }),
});

type Key = { schema: string; id: string };
const keyString = (k: Key) => `${k.schema}/${k.id}`;

/** The current version and references of some items of one workspace. */
async function currentItems(db: AppContext['db'], workspaceId: string, keys: readonly Key[]) {
  if (keys.length === 0) return new Map<string, { version: number; refs: Record<string, ItemReference> }>();
  const wanted = new Set(keys.map(keyString));
  const rows = await db
    .select({ schema: items.schema, id: items.id, version: items.version, refs: items.refs })
    .from(items)
    .where(
      and(
        eq(items.workspaceId, workspaceId),
        inArray(items.schema, [...new Set(keys.map((k) => k.schema))]),
        inArray(items.id, [...new Set(keys.map((k) => k.id))]),
      ),
    );
  return new Map(rows.filter((r) => wanted.has(keyString(r))).map((r) => [keyString(r), r]));
}

/**
 * The items a release's publish entries reference (from the version each would publish) that are not
 * current in its stage and not in the release already: what 'Add the N items it references' adds.
 * References to deleted items and to schemas the workspace no longer offers are left out.
 */
async function releaseReferences(ctx: AppContext, access: WorkspaceAccess, id: string) {
  const release = await requireRelease(ctx.db, access, id);
  const workspaceId = access.workspace.id;
  const entries = (await repo.listEntries(ctx.db, workspaceId, id)).filter((e) => e.action === 'publish');
  const inRelease = new Set(entries.map((e) => keyString({ schema: e.schema, id: e.itemId })));
  const current = await currentItems(
    ctx.db,
    workspaceId,
    entries.map((e) => ({ schema: e.schema, id: e.itemId })),
  );
  const enabled = new Set(enabledSchemas(access).map((s) => s.name));
  const referenced = new Map<string, Key & { label: string }>();
  for (const entry of entries) {
    const key = { workspaceId, schema: entry.schema, id: entry.itemId };
    const item = current.get(keyString(key));
    if (!item) continue;
    const refs =
      entry.version === null || entry.version === item.version
        ? item.refs
        : ((await repo.versionContent(ctx.db, key, entry.version))?.refs ?? {});
    for (const [refId, ref] of Object.entries(refs)) {
      const k = { schema: ref.schemaType, id: refId };
      if (!enabled.has(k.schema) || inRelease.has(keyString(k))) continue;
      if (!referenced.has(keyString(k))) referenced.set(keyString(k), { ...k, label: ref.label || refId });
    }
  }
  const keys = [...referenced.values()];
  const [versions, copies] = await Promise.all([
    currentItems(ctx.db, workspaceId, keys),
    copiesOf(ctx.db, workspaceId, keys),
  ]);
  const inStage = new Map(
    copies.filter((c) => c.stage === release.stage).map((c) => [keyString(c), c.version]),
  );
  const references: ReleaseReference[] = [];
  for (const ref of keys) {
    const currentVersion = versions.get(keyString(ref))?.version;
    if (currentVersion === undefined) continue;
    const stageVersion = inStage.get(keyString(ref)) ?? null;
    if (stageVersion === currentVersion) continue;
    references.push({ schema: ref.schema, itemId: ref.id, label: ref.label, currentVersion, stageVersion });
  }
  references.sort((a, b) => a.label.localeCompare(b.label) || a.itemId.localeCompare(b.itemId));
  return { references };
}

export async function releaseReferenceRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/releases/:id/references',
    {
      schema: {
        tags: ['releases'],
        description: 'Items the entries reference that are not current in the release’s stage',
        params: ReleaseParams,
        response: { 200: ReleaseReferences },
      },
    },
    async (request) => releaseReferences(ctx, request.access, request.params.id),
  );
}

import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { published } from '../db/schema';

/** Every copy of one schema in one stage (the delivery cache keeps them in memory). */
export async function loadStageCopies(db: Db, workspaceId: string, stage: string, schema: string) {
  return db
    .select({
      id: published.id,
      version: published.version,
      data: published.data,
      refs: published.refs,
      publishedAt: published.publishedAt,
    })
    .from(published)
    .where(
      and(eq(published.workspaceId, workspaceId), eq(published.stage, stage), eq(published.schema, schema)),
    );
}

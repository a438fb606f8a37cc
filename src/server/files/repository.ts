import { and, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { files } from '../db/schema';

export type FileRow = typeof files.$inferSelect;
export type NewFileRow = typeof files.$inferInsert;

export async function insertFile(db: Db | Tx, row: NewFileRow): Promise<FileRow> {
  const [inserted] = await db.insert(files).values(row).returning();
  return inserted;
}

export async function findFile(
  db: Db | Tx,
  workspaceId: string,
  storageName: string,
): Promise<FileRow | undefined> {
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.workspaceId, workspaceId), eq(files.storageName, storageName)));
  return row;
}

export async function findFiles(db: Db | Tx, workspaceId: string, storageNames: readonly string[]) {
  if (storageNames.length === 0) return [];
  return db
    .select()
    .from(files)
    .where(and(eq(files.workspaceId, workspaceId), inArray(files.storageName, [...storageNames])));
}

export async function updateFile(
  db: Db | Tx,
  workspaceId: string,
  storageName: string,
  patch: Partial<Pick<FileRow, 'focusX' | 'focusY' | 'sanityResults'>>,
): Promise<FileRow | undefined> {
  const [row] = await db
    .update(files)
    .set(patch)
    .where(and(eq(files.workspaceId, workspaceId), eq(files.storageName, storageName)))
    .returning();
  return row;
}

/** The other hashed images of the workspace, for the local analyser's duplicate search. */
export async function listHashesExcept(db: Db | Tx, workspaceId: string, storageName: string) {
  return db
    .select({
      storageName: files.storageName,
      name: files.name,
      dhash: files.dhash,
      createdAt: files.createdAt,
    })
    .from(files)
    .where(
      and(eq(files.workspaceId, workspaceId), ne(files.storageName, storageName), isNotNull(files.dhash)),
    );
}

/** Bytes of the workspace's uploads (thumbnails excluded). */
export async function sumFileSizes(db: Db | Tx, workspaceId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<string | number | null>`coalesce(sum(${files.size}), 0)` })
    .from(files)
    .where(eq(files.workspaceId, workspaceId));
  return Number(row?.total ?? 0);
}

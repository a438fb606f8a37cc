import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { itemVersions, members, users } from '../db/schema';
import type { ItemKey } from '../items/repository';

const ofItem = (key: ItemKey) =>
  and(
    eq(itemVersions.workspaceId, key.workspaceId),
    eq(itemVersions.schema, key.schema),
    eq(itemVersions.itemId, key.id),
  );

const withAuthor = (db: Db) =>
  db
    .select({
      num: itemVersions.num,
      at: itemVersions.at,
      by: itemVersions.by,
      memberName: members.displayName,
      userName: users.name,
    })
    .from(itemVersions)
    .leftJoin(
      members,
      and(eq(members.workspaceId, itemVersions.workspaceId), eq(members.userId, itemVersions.by)),
    )
    .leftJoin(users, eq(users.id, itemVersions.by));

/** The versions of an item, newest first, without their data. */
export async function listVersions(db: Db, key: ItemKey) {
  return withAuthor(db).where(ofItem(key)).orderBy(desc(itemVersions.num));
}

/** The data of every version of an item, with the model version each was saved in. */
export async function listVersionData(db: Db, key: ItemKey) {
  const rows = await db
    .select({ num: itemVersions.num, data: itemVersions.data, modelVersion: itemVersions.modelVersion })
    .from(itemVersions)
    .where(ofItem(key));
  return rows;
}

export async function findVersion(db: Db, key: ItemKey, num: number) {
  const [row] = await db
    .select({
      version: itemVersions,
      memberName: members.displayName,
      userName: users.name,
    })
    .from(itemVersions)
    .leftJoin(
      members,
      and(eq(members.workspaceId, itemVersions.workspaceId), eq(members.userId, itemVersions.by)),
    )
    .leftJoin(users, eq(users.id, itemVersions.by))
    .where(and(ofItem(key), eq(itemVersions.num, num)))
    .limit(1);
  return row;
}

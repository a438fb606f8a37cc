import type { Db } from '../db/client';
import { events } from '../db/schema';

export async function insertEvent(db: Db, event: typeof events.$inferInsert) {
  await db.insert(events).values(event);
}

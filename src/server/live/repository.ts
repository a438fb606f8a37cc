import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rows } from '../db/migrate';

/** Whom a stream was opened for: the session, and the member of the workspace. */
export interface StreamGrant {
  sessionHash: string;
  workspaceId: string;
  userId: string;
}

/**
 * Which of `grants` still hold, in one query however many there are: the session is unexpired and
 * its user's address verified, and the user is an active member of the workspace. Answers their indexes.
 */
export async function grantsStillHeld(db: Db, grants: StreamGrant[]): Promise<Set<number>> {
  if (grants.length === 0) return new Set();
  const json = JSON.stringify(grants.map((g, i) => ({ i, s: g.sessionHash, w: g.workspaceId, u: g.userId })));
  const found = rows<{ i: number }>(
    await db.execute(sql`
      select x.i from jsonb_to_recordset(${json}::jsonb) as x(i int, s text, w text, u text)
      join sessions on sessions.id_hash = x.s and sessions.user_id = x.u and sessions.expires_at > now()
      join users on users.id = x.u and users.email_verified
      join members on members.workspace_id = x.w and members.user_id = x.u and members.active`),
  );
  return new Set(found.map((r) => Number(r.i)));
}

import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rows } from '../db/migrate';

/** Whom a stream was opened for: the session, and the member of the workspace. */
export interface StreamGrant {
  sessionHash: string;
  workspaceId: string;
  userId: string;
}

/** What a grant that still holds lets the member read: the workspace's domains, and whether they manage it. */
export interface HeldGrant {
  domains: string[];
  modelVersion: number;
  isManager: boolean;
}

/**
 * Which of `grants` still hold, in one query however many there are: the session is unexpired and
 * its user's address verified, and the user is an active member of the workspace. Answers them by index.
 */
export async function grantsStillHeld(db: Db, grants: StreamGrant[]): Promise<Map<number, HeldGrant>> {
  if (grants.length === 0) return new Map();
  const json = JSON.stringify(grants.map((g, i) => ({ i, s: g.sessionHash, w: g.workspaceId, u: g.userId })));
  const found = rows<{ i: number; domains: string[] | null; is_manager: boolean; model_version: number }>(
    await db.execute(sql`
      select x.i, workspaces.basics->'domains' as domains, members.is_manager, workspaces.model_version
      from jsonb_to_recordset(${json}::jsonb) as x(i int, s text, w text, u text)
      join sessions on sessions.id_hash = x.s and sessions.user_id = x.u and sessions.expires_at > now()
      join users on users.id = x.u and users.email_verified
      join members on members.workspace_id = x.w and members.user_id = x.u and members.active
      join workspaces on workspaces.id = x.w`),
  );
  return new Map(
    found.map((r) => [
      Number(r.i),
      { domains: r.domains ?? [], isManager: Boolean(r.is_manager), modelVersion: Number(r.model_version) },
    ]),
  );
}

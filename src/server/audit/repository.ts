import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { AuditAction } from '@shared/api/delivery';
import type { Db, Tx } from '../db/client';
import { auditLog } from '../db/schema';

export type AuditRow = typeof auditLog.$inferSelect;

/** Who acts: account id, display name and, in a request, the client address. */
export interface Actor {
  id: string;
  name: string;
  address?: string | null;
}

export interface AuditRecord {
  workspaceId: string;
  user: Actor;
  action: AuditAction;
  targetType: 'item' | 'workspace' | 'member' | 'api-key' | 'webhook' | 'schedule';
  targetId: string;
  schema?: string | null;
  detail?: Record<string, unknown> | null;
}

/** Who acts, as audit rows name them: the account id, the member's display name and the request's address. */
export const actorOf = (access: {
  user: { id: string; address?: string | null };
  member: { displayName: string };
}): Actor => ({
  id: access.user.id,
  name: access.member.displayName,
  address: access.user.address ?? null,
});

/**
 * An audit row per row of the CTE `source` (an item save's `saved` or `created`), as one more CTE of the
 * same statement, so the save stays one round trip and its audit row commits with it.
 */
export function auditItemCte(
  source: 'saved' | 'created',
  action: AuditAction,
  user: Actor,
  detail: Record<string, unknown> = {},
): SQL {
  return sql`, audit as (
      insert into audit_log (workspace_id, user_id, user_name, action, target_type, target_id, schema, detail, address)
      select workspace_id, ${user.id}, ${user.name}, ${action}, 'item', id, schema, jsonb_build_object('version', version) || ${JSON.stringify(detail)}::jsonb, ${user.address ?? null}
      from ${sql.raw(source)}
    )`;
}

/** The values of an audit row; the address is the actor's in the request that acts. */
export function auditValues(record: AuditRecord) {
  return {
    workspaceId: record.workspaceId,
    userId: record.user.id,
    userName: record.user.name,
    action: record.action,
    targetType: record.targetType,
    targetId: record.targetId,
    schema: record.schema ?? null,
    detail: record.detail ?? null,
    address: record.user.address ?? null,
  };
}

/** Writes audit rows; call it with the transaction of the change they describe. */
export async function recordAudit(tx: Tx | Db, ...records: AuditRecord[]) {
  if (records.length === 0) return;
  await tx.insert(auditLog).values(records.map(auditValues));
}

export interface AuditFilter {
  workspaceId: string;
  userId?: string;
  action?: string;
  from?: Date;
  to?: Date;
  /** Keyset: only entries older than this id (ids rise with time). */
  beforeId?: number;
  limit: number;
}

/** A keyset page of a workspace's audit log, newest first (one row more than the limit when more follow). */
export async function listAudit(db: Db, filter: AuditFilter): Promise<AuditRow[]> {
  const where: (SQL | undefined)[] = [eq(auditLog.workspaceId, filter.workspaceId)];
  if (filter.userId) where.push(eq(auditLog.userId, filter.userId));
  if (filter.action) where.push(eq(auditLog.action, filter.action));
  if (filter.from) where.push(gte(auditLog.at, filter.from));
  if (filter.to) where.push(lt(auditLog.at, filter.to));
  if (filter.beforeId !== undefined) where.push(lt(auditLog.id, filter.beforeId));
  return db
    .select()
    .from(auditLog)
    .where(and(...where))
    .orderBy(desc(auditLog.id))
    .limit(filter.limit + 1);
}

/** An `insert into audit_log` for a statement built by hand (the item save's CTE). */
export function auditInsertSql(record: AuditRecord): SQL {
  const v = auditValues(record);
  return sql`insert into audit_log (workspace_id, user_id, user_name, action, target_type, target_id, schema, detail, address)
    values (${v.workspaceId}, ${v.userId}, ${v.userName}, ${v.action}, ${v.targetType}, ${v.targetId}, ${v.schema}, ${v.detail ? JSON.stringify(v.detail) : null}::jsonb, ${v.address})`;
}

import { and, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auditLog } from '../db/schema';

export type AuditRow = typeof auditLog.$inferSelect;

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

import type { Item } from '@shared/api/items';
import { can, deleteRefusal } from '@shared/permissions/permissions';
import {
  approverRoleLabel,
  isFullyApproved,
  needsApprovalFrom,
  remainingApprovals,
} from '@shared/publishing/approvals';
import { stageValue } from '@shared/publishing/stages';
import { publishStatuses } from '@shared/publishing/status';
import type { Db, Tx } from '../db/client';
import type { WorkspaceAccess } from '../workspaces/access';
import { copiesAndApprovalsOf, type ItemWithWriter } from './repository';
import { upcastItemRows } from './upcast';

/**
 * The stage copies and current approvals of rows read without them (just written rows): one query for any
 * number of items. Rows read by the item queries carry them already.
 */
async function withCopiesAndApprovals(
  db: Db | Tx,
  workspaceId: string,
  rows: readonly ItemWithWriter[],
): Promise<Required<ItemWithWriter>[]> {
  const missing = rows.filter((r) => !r.copies || !r.approvals);
  if (missing.length === 0) return rows as Required<ItemWithWriter>[];
  const keys = missing.map(({ item }) => ({ schema: item.schema, id: item.id, version: item.version }));
  const found = await copiesAndApprovalsOf(db, workspaceId, keys);
  const of = (item: ItemWithWriter['item']) =>
    found.find((f) => f.schema === item.schema && f.id === item.id && f.version === item.version);
  return rows.map(({ item, writerName, ...known }) => ({
    item,
    writerName,
    copies: known.copies ?? of(item)?.copies ?? [],
    approvals: known.approvals ?? of(item)?.approvals ?? [],
  }));
}

/**
 * Item JSON for the caller: the stored item plus its status in every stage, its approval state and
 * what the caller may do with it (so screens never re-derive the rules).
 */
export async function presentItems(
  db: Db | Tx,
  access: WorkspaceAccess,
  rows: readonly ItemWithWriter[],
): Promise<Item[]> {
  const found = await upcastItemRows(
    db,
    access,
    rows.map((row) => row.item),
  );
  const complete = await withCopiesAndApprovals(
    db,
    access.workspace.id,
    rows.map((row, i) => ({ ...row, item: found[i] })),
  );
  const stages = access.workspace.basics.stages;
  const stageValues = new Set(stages.map(stageValue));
  const { roles } = access.workspace;

  return complete.map(({ item, writerName, copies, approvals }) => {
    const own = copies.filter((c) => stageValues.has(c.stage));
    const remaining = remainingApprovals(roles, item.schema, item.approvedRoles);
    return {
      id: item.id,
      schema: item.schema,
      data: item.data,
      _references: item.refs,
      version: item.version,
      modelVersion: item.modelVersion,
      lastWrittenBy: item.lastWrittenBy,
      lastWrittenByName: writerName,
      lastWrittenAt: item.lastWrittenAt.toISOString(),
      createdAt: item.createdAt.toISOString(),
      createdBy: item.createdBy,
      hasErrors: item.hasErrors,
      variation: item.variation ?? null,
      publishStatus: publishStatuses(
        stages,
        Object.fromEntries(own.map((c) => [c.stage, c.version])),
        item.version,
      ),
      published: Object.fromEntries(
        own.map((c) => [
          c.stage,
          { version: c.version, publishedAt: c.publishedAt.toISOString(), publishedBy: c.publishedBy },
        ]),
      ),
      fullyApproved: isFullyApproved(remaining),
      remainingApprovals: remaining,
      approvedBy: approvals.map((a) => ({
        roleId: a.roleId,
        roleLabel: Object.hasOwn(roles, a.roleId) ? approverRoleLabel(roles, a.roleId) : a.roleLabel,
        byId: a.byId,
        byName: a.byName,
        at: a.at.toISOString(),
      })),
      abilities: {
        canEdit: can(access.permissions, 'edit', item.schema),
        canPublish: can(access.permissions, 'publish', item.schema),
        canApprove: needsApprovalFrom(remaining, access.permissions.roles),
        canDelete:
          deleteRefusal(
            access.permissions,
            access.model.schema(item.schema) ?? { name: item.schema, pluralTitle: item.schema },
            copies.length > 0,
          ) === null,
      },
    };
  });
}

export async function presentItem(db: Db | Tx, access: WorkspaceAccess, row: ItemWithWriter): Promise<Item> {
  const [item] = await presentItems(db, access, [row]);
  return item;
}

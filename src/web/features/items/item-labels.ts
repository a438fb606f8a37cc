import type { Item } from '@shared/api/items';
import type { Member } from '@shared/api/workspaces';
import type { Roles } from '@shared/permissions/permissions';
import { approverRoleLabel } from '@shared/publishing/approvals';
import { stageValue } from '@shared/publishing/stages';
import type { PublishStatus } from '@shared/publishing/status';
import type { SchemaType } from '@shared/schemas/types';
import { UNNAMED_ITEM } from '@shared/validation/messages';
import { PUBLISH_STATUS_COLORS, PUBLISH_STATUS_WORDS } from '@web/lib/publish-status';

/** Spec §8: labels of members that cannot be resolved. */
export const UNKNOWN_USER = 'UNKNOWN USER';
export const BLANK_USER = 'BLANK USER';

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/**
 * An item's title wherever it is shown: its name, else '-- UNNAMED ITEM --' (spec §2 item list). Never
 * another field: an unnamed item listed under its description reads as if it had a name.
 */
export function itemTitle(data: Readonly<Record<string, unknown>>): string {
  return text(data.name) || UNNAMED_ITEM;
}

/** Storage name of the image a schema's thumbnail path points at, if the item has one. */
export function itemThumbId(
  schema: Pick<SchemaType, 'thumbnail'>,
  data: Readonly<Record<string, unknown>>,
): string | undefined {
  if (!schema.thumbnail) return undefined;
  let value: unknown = data;
  for (const part of schema.thumbnail.split('.')) {
    value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  }
  const storageName =
    value && typeof value === 'object' ? (value as { storageName?: unknown }).storageName : undefined;
  return typeof storageName === 'string' && storageName ? storageName : undefined;
}

/**
 * Who a user id is, for "updated by" and the change log: the member's display name, else the name the
 * server knew; 'BLANK USER' for an empty id or name, 'UNKNOWN USER' when nothing resolves it.
 */
export function userLabel(
  userId: string | null | undefined,
  knownName: string | null | undefined,
  members: readonly Pick<Member, 'userId' | 'displayName'>[] | undefined,
): string {
  if (!userId || !userId.trim()) return BLANK_USER;
  const member = members?.find((m) => m.userId === userId);
  if (member) return member.displayName.trim() || BLANK_USER;
  if (knownName !== null && knownName !== undefined) return knownName.trim() || BLANK_USER;
  return UNKNOWN_USER;
}

export interface PublishChip {
  stage: string;
  stageLabel: string;
  status: PublishStatus;
  label: string;
  /** Mantine colour: MODIFIED is a warning, CURRENT is positive (spec §4). */
  color: string;
  /** MODIFIED and CURRENT chips open the publish screen. */
  clickable: boolean;
}

/** One chip per stage of the workspace, in the workspace's order. */
export function publishChips(
  publishStatus: Readonly<Record<string, PublishStatus>>,
  stageLabels: readonly string[],
  { publishedOnly = false }: { publishedOnly?: boolean } = {},
): PublishChip[] {
  return stageLabels
    .map((stageLabel) => {
      const stage = stageValue(stageLabel);
      const status = publishStatus[stage] ?? 'NOT_PUBLISHED';
      return {
        stage,
        stageLabel,
        status,
        label: `${stageLabel}: ${PUBLISH_STATUS_WORDS[status]}`,
        color: PUBLISH_STATUS_COLORS[status],
        clickable: status !== 'NOT_PUBLISHED',
      };
    })
    .filter((chip) => !publishedOnly || chip.status !== 'NOT_PUBLISHED');
}

export interface ApprovalChip {
  roleId: string;
  label: string;
  approved: boolean;
}

/** One chip per approver role of the current version: approved ones first; none when nobody must approve. */
export function approvalChips(
  item: Pick<Item, 'remainingApprovals' | 'approvedBy'>,
  roles: Roles,
): ApprovalChip[] {
  const approved = item.approvedBy.map((a) => ({
    roleId: a.roleId,
    label: `Approved by ${a.roleLabel || approverRoleLabel(roles, a.roleId)}`,
    approved: true,
  }));
  const remaining = item.remainingApprovals
    .filter((roleId) => !item.approvedBy.some((a) => a.roleId === roleId))
    .map((roleId) => ({ roleId, label: `Awaiting ${approverRoleLabel(roles, roleId)}`, approved: false }));
  return [...approved, ...remaining];
}

/** Spec §2 item list title: the saved view's name, or 'All {plural type titles}'. */
export function listTitle(
  viewName: string | undefined,
  schemas: readonly Pick<SchemaType, 'pluralTitle'>[],
): string {
  if (viewName) return viewName;
  return `All ${schemas.map((s) => s.pluralTitle).join(', ')}`;
}

import type { AuditAction } from '@shared/api/delivery';
import type { Tx } from '../db/client';
import { journal } from '../journal/journal';
import type { UserRow } from './repository';
import { activeWorkspaceIdsOf } from './two-factor-repository';

/** Account-wide changes (two-factor, passkeys) are audited in every workspace the account is an active member of. */
export async function journalAccount(
  tx: Tx,
  user: UserRow,
  action: AuditAction,
  address: string | null | undefined,
  detail?: Record<string, unknown>,
) {
  const workspaceIds = await activeWorkspaceIdsOf(tx, user.id);
  await journal(tx, {
    audit: workspaceIds.map((workspaceId) => ({
      workspaceId,
      user: { id: user.id, name: user.name, address: address ?? null },
      action,
      targetType: 'member' as const,
      targetId: user.id,
      label: user.name,
      detail: detail ?? null,
    })),
  });
}

import type { Db, Tx } from '../db/client';
import { actorOf, journal, type AuditRecord } from './journal';

/**
 * Journals a change to one of a workspace's secret keys (delivery API keys, write keys, SCIM tokens)
 * by a manager: its audit row, named by the key's name, and the notice that drops the keys every
 * process keeps.
 */
export function journalKeyChange(
  tx: Tx | Db,
  access: Parameters<typeof actorOf>[0] & { workspace: { id: string } },
  key: Pick<AuditRecord, 'action' | 'targetType' | 'detail'> & { id: string; name: string },
) {
  const workspaceId = access.workspace.id;
  return journal(tx, {
    audit: [
      {
        workspaceId,
        user: actorOf(access),
        action: key.action,
        targetType: key.targetType,
        targetId: key.id,
        label: key.name,
        detail: key.detail ?? { name: key.name },
      },
    ],
    changes: [{ kind: 'keys', workspaceId }],
  });
}

import type { Workspace } from '@shared/api/workspaces';
import { getDomain } from '@shared/schemas/catalogue';
import type { Domain } from '@shared/schemas/types';

/**
 * The domains a member sees in a workspace: enabled in basics, known and not disabled; admin domains
 * only for workspace managers (DESIGN §4).
 */
export function visibleDomains(workspace: Pick<Workspace, 'basics' | '__permissions'>): Domain[] {
  return workspace.basics.domains
    .map((name) => getDomain(name))
    .filter((domain): domain is Domain => !!domain && !domain.disabled)
    .filter((domain) => !domain.admin || workspace.__permissions.canManageWorkspace);
}

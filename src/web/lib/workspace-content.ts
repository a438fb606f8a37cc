import type { Workspace } from '@shared/api/workspaces';
import type { ContentModel } from '@shared/model/registry';
import type { Domain } from '@shared/schemas/types';

/**
 * The domains a member sees in a workspace: enabled in basics, in its content model and not disabled;
 * admin domains only for workspace managers (DESIGN §4).
 */
export function visibleDomains(
  workspace: Pick<Workspace, 'basics' | '__permissions'>,
  model: ContentModel,
): Domain[] {
  return workspace.basics.domains
    .map((name) => model.domain(name))
    .filter((domain): domain is Domain => !!domain && !domain.disabled)
    .filter((domain) => !domain.admin || workspace.__permissions.canManageWorkspace);
}

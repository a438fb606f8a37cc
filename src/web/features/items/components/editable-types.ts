import type { Workspace } from '@shared/api/workspaces';
import type { ContentModel } from '@shared/model/registry';
import { can } from '@shared/permissions/permissions';
import { IMAGE_SET_SCHEMA } from '@shared/schemas/assets';
import type { Domain, SchemaType } from '@shared/schemas/types';
import { visibleDomains } from '@web/lib/workspace-content';
import { NEW_ITEM_ID } from '../api/save-item';
import { itemScreenPath } from '@web/lib/item-paths';

export interface EditableGroup {
  domain: Domain;
  schemas: SchemaType[];
}

/** Spec §2 Add dialog / §6: the types the user may edit, grouped by the domains they see. */
export function editableTypes(
  workspace: Pick<Workspace, 'basics' | '__permissions'>,
  model: ContentModel,
): EditableGroup[] {
  return visibleDomains(workspace, model)
    .map((domain) => ({
      domain,
      schemas: domain.schemas.filter((schema) => can(workspace.__permissions, 'edit', schema.name)),
    }))
    .filter((group) => group.schemas.length > 0);
}

/** Spec §6: multi-image upload needs edit on marquee-assets-image-set (in a domain the user sees). */
export const canUploadImages = (groups: readonly EditableGroup[]) =>
  groups.some((group) => group.schemas.some((schema) => schema.name === IMAGE_SET_SCHEMA));

export const newItemPath = (ws: string, domain: string, schema: string) =>
  itemScreenPath(ws, domain, schema, NEW_ITEM_ID);

import { createContext, useContext } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { IMAGE_SET_SCHEMA } from '@shared/schemas/assets';
import { workspaceQueryOptions } from '@web/lib/workspace';

export interface MediaWorkspace {
  workspaceId: string;
  /** Spec §6: multi-image upload, and uploads that create image sets, need edit on image sets. */
  canEditImageSets: boolean;
}

/** Overrides the workspace of the URL (previews and tests); the app itself needs no provider. */
export const MediaWorkspaceContext = createContext<MediaWorkspace | null>(null);

/** The workspace media editors upload to: the provided one, else the workspace of the current URL. */
export function useMediaWorkspace(): MediaWorkspace {
  const provided = useContext(MediaWorkspaceContext);
  const { workspace = '' } = useParams();
  const { data } = useQuery({ ...workspaceQueryOptions(workspace), enabled: !provided && !!workspace });
  if (provided) return provided;
  return {
    workspaceId: workspace,
    canEditImageSets: data?.__permissions.canEdit.includes(IMAGE_SET_SCHEMA) ?? false,
  };
}

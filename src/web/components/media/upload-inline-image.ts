import type { QueryClient } from '@tanstack/react-query';
import { createImageSet, invalidateWorkspaceItems } from './api/create-image-set';
import { uploadFile, type UploadOptions } from './api/upload-file';
import { inlineImageOfFile, inlineImageOfSet, type InlineImage } from './inline-image';
import { nameFromFile } from './upload-rows';

/**
 * An image uploaded in place in rich text. For users who may edit image sets, it becomes an image set
 * (named after the file) so the inline image references it like one chosen from the library; for
 * others it is kept as a bare file of the workspace.
 */
export async function uploadInlineImage(
  client: QueryClient,
  workspace: { workspaceId: string; canEditImageSets: boolean },
  file: File,
  options: UploadOptions = {},
): Promise<InlineImage> {
  const record = await uploadFile(workspace.workspaceId, file, options);
  const name = nameFromFile(file.name);
  if (!workspace.canEditImageSets) return inlineImageOfFile(workspace.workspaceId, record, name);
  const item = await createImageSet(workspace.workspaceId, { masterImage: record, name, altText: name });
  void invalidateWorkspaceItems(client, workspace.workspaceId);
  return (
    inlineImageOfSet(workspace.workspaceId, item) ?? inlineImageOfFile(workspace.workspaceId, record, name)
  );
}

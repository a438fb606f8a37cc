import { useMemo, useState } from 'react';
import { Modal, Tabs, Text } from '@mantine/core';
import { IconLibraryPhoto, IconUpload } from '@tabler/icons-react';
import type { Item } from '@shared/api/items';
import { useImageSets } from './api/list-image-sets';
import { ImageSetLibrary } from './image-set-library';
import { InlineImageUploadPanel } from './inline-image-upload-panel';
import { inlineImageOfSet, masterImageOf, matchesImageSearch, type InlineImage } from './inline-image';
import type { MediaWorkspace } from './media-workspace';
import { useInlineImageUpload } from './use-inline-image-upload';

export interface ImageSetPickerProps {
  opened: boolean;
  onClose: () => void;
  onInsert: (image: InlineImage) => void;
  workspace: MediaWorkspace;
}

/**
 * Chooses an inline image for rich text: one of the workspace's image sets (searched by name, alt text
 * and labels), or a new image uploaded in place (which becomes an image set when the user may make one).
 */
export function ImageSetPicker({ opened, onClose, onInsert, workspace }: ImageSetPickerProps) {
  const [tab, setTab] = useState<string | null>('library');
  const [search, setSearch] = useState('');
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const sets = useImageSets(workspace.workspaceId, opened);
  const uploads = useInlineImageUpload(workspace, (image) => {
    onInsert(image);
    close();
  });

  const items = useMemo(
    () =>
      (sets.data?.pages.flatMap((page) => page.items) ?? []).filter(
        (item) => masterImageOf(item) && matchesImageSearch(item, search),
      ),
    [sets.data, search],
  );

  const close = () => {
    setSelectedId(null);
    uploads.reset();
    onClose();
  };

  const insert = (item: Item) => {
    const image = inlineImageOfSet(workspace.workspaceId, item);
    if (!image) return;
    onInsert(image);
    close();
  };

  return (
    <Modal opened={opened} onClose={close} title={<Text fw={650}>Insert image</Text>} size="xl" centered>
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="library" leftSection={<IconLibraryPhoto size={16} />}>
            Image sets
          </Tabs.Tab>
          <Tabs.Tab value="upload" leftSection={<IconUpload size={16} />}>
            Upload new
          </Tabs.Tab>
        </Tabs.List>

        <Tabs.Panel value="library">
          <ImageSetLibrary
            sets={sets}
            items={items}
            search={search}
            workspaceId={workspace.workspaceId}
            selectedId={selectedId}
            onSearchChange={setSearch}
            onSelect={setSelectedId}
            onChoose={insert}
            onCancel={close}
          />
        </Tabs.Panel>

        <Tabs.Panel value="upload">
          <InlineImageUploadPanel
            upload={uploads.upload}
            uploadError={uploads.uploadError}
            canEditImageSets={workspace.canEditImageSets}
            onFile={(file) => void uploads.start(file)}
            onReject={uploads.reject}
          />
        </Tabs.Panel>
      </Tabs>
    </Modal>
  );
}

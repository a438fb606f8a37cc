import { useMemo, useState } from 'react';
import {
  Alert,
  Button,
  Center,
  Group,
  Loader,
  Modal,
  Progress,
  ScrollArea,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import '@mantine/dropzone/styles.css';
import { useQueryClient } from '@tanstack/react-query';
import {
  IconAlertTriangle,
  IconLibraryPhoto,
  IconPhoto,
  IconSearch,
  IconUpload,
  IconX,
} from '@tabler/icons-react';
import type { Item } from '@shared/api/items';
import { imageResizeUrl, parseOwnImageUrl } from '@shared/media/urls';
import { errorMessage } from '@web/lib/api-client';
import { useImageSets } from './api/list-image-sets';
import { IMAGE_ACCEPT, notAnImageDetail, UPLOAD_MESSAGES } from './upload-messages';
import { inlineImageOfSet, masterImageOf, matchesImageSearch, type InlineImage } from './inline-image';
import type { MediaWorkspace } from './media-workspace';
import classes from './media.module.css';
import { uploadInlineImage } from './upload-inline-image';
import { progressPercent } from './upload-progress';

/** Picker tiles use the lists' thumbnail size, w=400 (spec §7). */
const TILE_WIDTH = 400;

export interface ImageSetPickerProps {
  opened: boolean;
  onClose: () => void;
  onInsert: (image: InlineImage) => void;
  workspace: MediaWorkspace;
}

function Tile({
  item,
  workspaceId,
  selected,
  onSelect,
  onChoose,
}: {
  item: Item;
  workspaceId: string;
  selected: boolean;
  onSelect: () => void;
  onChoose: () => void;
}) {
  const file = masterImageOf(item);
  const name =
    typeof item.data.name === 'string' && item.data.name.trim() ? item.data.name : '-- UNNAMED ITEM --';
  const owner = file ? (parseOwnImageUrl(file.publicUrl)?.workspaceId ?? workspaceId) : workspaceId;
  return (
    <button
      type="button"
      className={classes.pickerTile}
      data-selected={selected || undefined}
      aria-pressed={selected}
      onClick={onSelect}
      onDoubleClick={onChoose}
      title={name}
    >
      <div className={classes.pickerThumb}>
        {file && (
          <img
            src={imageResizeUrl(owner, file.storageName, { w: TILE_WIDTH })}
            alt={typeof item.data.altText === 'string' ? item.data.altText : ''}
            loading="lazy"
          />
        )}
      </div>
      <Text size="xs" fw={500} truncate>
        {name}
      </Text>
    </button>
  );
}

/**
 * Chooses an inline image for rich text: one of the workspace's image sets (searched by name, alt text
 * and labels), or a new image uploaded in place (which becomes an image set when the user may make one).
 */
export function ImageSetPicker({ opened, onClose, onInsert, workspace }: ImageSetPickerProps) {
  const client = useQueryClient();
  const [tab, setTab] = useState<string | null>('library');
  const [search, setSearch] = useState('');
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [upload, setUpload] = useState<{ name: string; percent: number } | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const sets = useImageSets(workspace.workspaceId, opened);

  const items = useMemo(
    () =>
      (sets.data?.pages.flatMap((page) => page.items) ?? []).filter(
        (item) => masterImageOf(item) && matchesImageSearch(item, search),
      ),
    [sets.data, search],
  );
  const selected = items.find((item) => item.id === selectedId) ?? null;

  const close = () => {
    setSelectedId(null);
    setUpload(null);
    setUploadError(null);
    onClose();
  };

  const insert = (item: Item) => {
    const image = inlineImageOfSet(workspace.workspaceId, item);
    if (!image) return;
    onInsert(image);
    close();
  };

  const handleUpload = async (file: File | undefined) => {
    if (!file) return;
    setUploadError(null);
    setUpload({ name: file.name, percent: 0 });
    try {
      const image = await uploadInlineImage(client, workspace, file, {
        onProgress: ({ loaded, total }) =>
          setUpload({ name: file.name, percent: progressPercent(loaded, total, file.size) }),
      });
      onInsert(image);
      close();
    } catch (e) {
      setUpload(null);
      setUploadError(UPLOAD_MESSAGES.failed(errorMessage(e)));
    }
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
          <Stack gap="sm">
            <TextInput
              placeholder="Search image sets by name, alt text or label"
              aria-label="Search image sets"
              leftSection={<IconSearch size={16} />}
              value={search}
              onChange={(event) => setSearch(event.currentTarget.value)}
              data-autofocus
            />
            <ScrollArea.Autosize mah="52vh" type="auto" offsetScrollbars>
              {sets.isPending ? (
                <Center py="xl">
                  <Loader size="sm" />
                </Center>
              ) : sets.isError ? (
                <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />}>
                  {errorMessage(sets.error)}
                </Alert>
              ) : items.length === 0 ? (
                <Center py="xl">
                  <Stack gap={4} align="center">
                    <IconPhoto size={32} stroke={1.4} color="var(--mantine-color-dimmed)" />
                    <Text size="sm" c="dimmed">
                      {search
                        ? 'No image sets match your search'
                        : 'No image sets yet: upload one in "Upload new"'}
                    </Text>
                  </Stack>
                </Center>
              ) : (
                <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" role="group" aria-label="Image sets">
                  {items.map((item) => (
                    <Tile
                      key={item.id}
                      item={item}
                      workspaceId={workspace.workspaceId}
                      selected={item.id === selectedId}
                      onSelect={() => setSelectedId(item.id)}
                      onChoose={() => insert(item)}
                    />
                  ))}
                </SimpleGrid>
              )}
              {sets.hasNextPage && (
                <Center mt="sm">
                  <Button
                    variant="subtle"
                    size="xs"
                    loading={sets.isFetchingNextPage}
                    onClick={() => void sets.fetchNextPage()}
                  >
                    Load More
                  </Button>
                </Center>
              )}
            </ScrollArea.Autosize>
            <Group justify="space-between">
              <Text size="sm" c="dimmed" truncate maw="60%">
                {selected
                  ? `Selected: ${String(selected.data.name ?? '')}`
                  : 'Click an image set to select it'}
              </Text>
              <Group gap="xs">
                <Button variant="default" onClick={close}>
                  Cancel
                </Button>
                <Button disabled={!selected} onClick={() => selected && insert(selected)}>
                  Insert image
                </Button>
              </Group>
            </Group>
          </Stack>
        </Tabs.Panel>

        <Tabs.Panel value="upload">
          <Stack gap="sm">
            {upload ? (
              <Stack gap={6} py="lg">
                <Text size="sm" fw={500}>
                  Uploading {upload.name}
                </Text>
                <Progress value={upload.percent} animated aria-label={`Upload of ${upload.name}`} />
              </Stack>
            ) : (
              <Dropzone
                onDrop={(files) => void handleUpload(files[0])}
                onReject={(rejections) =>
                  setUploadError(UPLOAD_MESSAGES.failed(notAnImageDetail(rejections[0]?.file.name)))
                }
                accept={IMAGE_ACCEPT}
                multiple={false}
                maxFiles={1}
                inputProps={{ 'aria-label': 'Upload an image' }}
                radius="md"
              >
                <Stack align="center" gap={6} py="xl" style={{ pointerEvents: 'none' }}>
                  <Dropzone.Accept>
                    <IconUpload size={36} stroke={1.5} color="var(--mantine-primary-color-filled)" />
                  </Dropzone.Accept>
                  <Dropzone.Reject>
                    <IconX size={36} stroke={1.5} color="var(--mantine-color-red-6)" />
                  </Dropzone.Reject>
                  <Dropzone.Idle>
                    <IconPhoto size={36} stroke={1.5} color="var(--mantine-color-dimmed)" />
                  </Dropzone.Idle>
                  <Text fw={500}>Drop an image here or click to choose one</Text>
                  <Text size="sm" c="dimmed">
                    {workspace.canEditImageSets
                      ? 'It is saved as a new image set named after the file, then inserted.'
                      : 'It is inserted as an image of this workspace.'}
                  </Text>
                </Stack>
              </Dropzone>
            )}
            {uploadError && (
              <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
                {uploadError}
              </Alert>
            )}
          </Stack>
        </Tabs.Panel>
      </Tabs>
    </Modal>
  );
}

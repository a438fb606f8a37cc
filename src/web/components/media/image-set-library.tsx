import {
  Alert,
  Button,
  Center,
  Group,
  Loader,
  ScrollArea,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconAlertTriangle, IconPhoto, IconSearch } from '@tabler/icons-react';
import type { Item } from '@shared/api/items';
import { imageResizeUrl, parseOwnImageUrl } from '@shared/media/urls';
import { errorMessage } from '@web/lib/api-client';
import type { useImageSets } from './api/list-image-sets';
import { masterImageOf } from './inline-image';
import classes from './media.module.css';

/** Picker tiles use the lists' thumbnail size, w=400 (spec §7). */
const TILE_WIDTH = 400;

type ImageSetsQuery = ReturnType<typeof useImageSets>;

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

interface ImageSetResultsProps {
  sets: ImageSetsQuery;
  /** The loaded image sets that have an image and match the search. */
  items: Item[];
  search: string;
  workspaceId: string;
  selectedId: string | null;
  onSelect: (id: string) => void;
  onChoose: (item: Item) => void;
}

/** The tiles of the image sets found, or why there are none (loading, an error, nothing matches). */
function ImageSetResults({
  sets,
  items,
  search,
  workspaceId,
  selectedId,
  onSelect,
  onChoose,
}: ImageSetResultsProps) {
  if (sets.isPending)
    return (
      <Center py="xl">
        <Loader size="sm" />
      </Center>
    );
  if (sets.isError)
    return (
      <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />}>
        {errorMessage(sets.error)}
      </Alert>
    );
  if (items.length === 0)
    return (
      <Center py="xl">
        <Stack gap={4} align="center">
          <IconPhoto size={32} stroke={1.4} color="var(--mantine-color-dimmed)" />
          <Text size="sm" c="dimmed">
            {search ? 'No image sets match your search' : 'No image sets yet: upload one in "Upload new"'}
          </Text>
        </Stack>
      </Center>
    );
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" role="group" aria-label="Image sets">
      {items.map((item) => (
        <Tile
          key={item.id}
          item={item}
          workspaceId={workspaceId}
          selected={item.id === selectedId}
          onSelect={() => onSelect(item.id)}
          onChoose={() => onChoose(item)}
        />
      ))}
    </SimpleGrid>
  );
}

/** The image picker's "Image sets" tab: search, choose a tile, Insert image. */
export function ImageSetLibrary({
  onSearchChange,
  onCancel,
  ...results
}: ImageSetResultsProps & { onSearchChange: (search: string) => void; onCancel: () => void }) {
  const { sets, items, search, selectedId, onChoose } = results;
  const selected = items.find((item) => item.id === selectedId) ?? null;
  return (
    <Stack gap="sm">
      <TextInput
        placeholder="Search image sets by name, alt text or label"
        aria-label="Search image sets"
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(event) => onSearchChange(event.currentTarget.value)}
        data-autofocus
      />
      <ScrollArea.Autosize mah="52vh" type="auto" offsetScrollbars>
        <ImageSetResults {...results} />
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
          {selected ? `Selected: ${String(selected.data.name ?? '')}` : 'Click an image set to select it'}
        </Text>
        <Group gap="xs">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button disabled={!selected} onClick={() => selected && onChoose(selected)}>
            Insert image
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}

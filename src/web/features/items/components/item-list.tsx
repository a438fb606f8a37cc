import { useState, type ReactNode } from 'react';
import {
  Alert,
  Button,
  Center,
  CloseButton,
  Loader,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertCircle, IconSearch } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import type { Item } from '@shared/api/items';
import type { Workspace } from '@shared/api/workspaces';
import { PageHeader } from '@web/components/page-header';
import { NearFilter, type NearValue } from '@web/components/places/near-filter';
import { useQuickViewLevel } from '@web/components/quick-view/quick-view';
import { errorMessage } from '@web/lib/api-client';
import { useItems } from '../api/get-items';
import { useMembers } from '../api/get-members';
import type { ListQuery } from '../api/keys';
import { itemPathOf } from '../item-paths';
import { ItemEntry } from './item-entry';
import { ItemQuickViewPanel } from './item-quick-view';
import { ItemsEmptyState } from './items-empty-state';
import { ViewModeToggle, useViewMode } from './view-mode-toggle';

export interface ItemListProps {
  workspace: Workspace;
  query: ListQuery;
  /** The saved view's name, or 'All {plural type titles}'. */
  title: string;
  eyebrow?: ReactNode;
  description?: ReactNode;
  /** The Add button, when the user may edit some type. */
  addButton?: ReactNode;
  emptyDescription?: string;
  showSchema?: boolean;
  /** Offer the "Near" filter (schemas with an address). */
  offerNear?: boolean;
}

/**
 * Spec §2 Item list: title, list and cards toggle, Add, pages of 12 with 'Load More', 'None so far'.
 * Clicking an entry opens a quick view when the list is already inside a modal, else the item's screen.
 */
export function ItemList({
  workspace,
  query,
  title,
  eyebrow,
  description,
  addButton,
  emptyDescription,
  showSchema,
  offerNear,
}: ItemListProps) {
  const navigate = useNavigate();
  const level = useQuickViewLevel();
  const [mode, setMode] = useViewMode();
  const [peek, setPeek] = useState<Item | null>(null);
  const [searchText, setSearchText] = useState('');
  const [q] = useDebouncedValue(searchText.trim(), 300);
  const [near, setNear] = useState<NearValue | null>(null);
  const nearQuery = near
    ? { near: `${near.center.latitude},${near.center.longitude}`, radiusKm: near.radiusKm }
    : {};
  const items = useItems(workspace.id, { ...query, ...(q ? { q } : {}), ...nearQuery });
  const members = useMembers(workspace.id);
  const all = items.data?.pages.flatMap((page) => page.items) ?? [];

  const handleOpen = (item: Item) => {
    if (level > 0) setPeek(item);
    else navigate(itemPathOf(workspace.id, item.schema, item.id));
  };

  const entries = all.map((item) => (
    <ItemEntry
      key={`${item.schema}/${item.id}`}
      item={item}
      workspace={workspace}
      members={members.data?.members}
      mode={mode}
      showSchema={showSchema}
      nearCenter={near?.center}
      onOpen={handleOpen}
      onQuickView={level === 0 ? setPeek : undefined}
    />
  ));

  return (
    <>
      <PageHeader
        eyebrow={eyebrow}
        title={title}
        description={description}
        actions={
          <>
            <TextInput
              type="search"
              aria-label="Search items"
              placeholder="Search by name"
              w={{ base: '100%', xs: 220 }}
              value={searchText}
              onChange={(event) => setSearchText(event.currentTarget.value)}
              leftSection={<IconSearch size={16} />}
              rightSection={
                items.isPlaceholderData ? (
                  <Loader size={14} />
                ) : searchText ? (
                  <CloseButton size="sm" aria-label="Clear search" onClick={() => setSearchText('')} />
                ) : undefined
              }
            />
            {offerNear && <NearFilter workspaceId={workspace.id} value={near} onChange={setNear} />}
            <ViewModeToggle value={mode} onChange={setMode} />
            {addButton}
          </>
        }
      />
      {items.isPending ? (
        <Paper withBorder radius="md" data-testid="items-loading">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} h={56} m="md" w="auto" radius="sm" />
          ))}
        </Paper>
      ) : items.isError ? (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertCircle size={18} />}
          role="alert"
          title="Items could not be loaded"
        >
          {errorMessage(items.error)}
        </Alert>
      ) : all.length === 0 ? (
        <ItemsEmptyState
          description={
            near
              ? `Nothing${q ? ` named “${q}”` : ''} within ${near.radiusKm} km of ${near.center.latitude}, ${near.center.longitude}.`
              : q
                ? `Nothing here has a name or title containing “${q}”.`
                : emptyDescription
          }
        />
      ) : (
        <Stack gap="md">
          {mode === 'cards' ? (
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3, xl: 4 }} data-testid="item-cards">
              {entries}
            </SimpleGrid>
          ) : (
            <Paper withBorder radius="md" style={{ overflow: 'hidden' }} data-testid="item-rows">
              {entries}
            </Paper>
          )}
          {items.hasNextPage && (
            <Center>
              <Button
                variant="default"
                loading={items.isFetchingNextPage}
                onClick={() => void items.fetchNextPage()}
              >
                Load More
              </Button>
            </Center>
          )}
        </Stack>
      )}
      {peek && (
        <ItemQuickViewPanel
          workspace={workspace}
          schema={peek.schema}
          id={peek.id}
          opened={!!peek}
          onClose={() => setPeek(null)}
        />
      )}
    </>
  );
}

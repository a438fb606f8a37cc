import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Alert, Button, Center, Paper, SimpleGrid, Skeleton, Stack } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import type { Item } from '@shared/api/items';
import type { Workspace } from '@shared/api/workspaces';
import { PageHeader } from '@web/components/page-header';
import { NearFilter, type NearValue } from '@web/components/places/near-filter';
import { useQuickViewLevel } from '@web/components/quick-view/quick-view-level';
import { errorMessage } from '@web/lib/api-client';
import { useMembers } from '@web/lib/members';
import type { ListQuery } from '../api/keys';
import { itemPathOf } from '@web/lib/item-paths';
import { ItemEntry } from './item-entry';
import { ItemSearchInput } from './item-search-input';
import { useReleaseSelection } from './release-selection';
import { ItemsEmptyState } from './items-empty-state';
import { useItemListQuery } from './use-item-list-query';
import { ViewModeToggle, useViewMode, type ViewMode } from './view-mode-toggle';

// The quick view panel (a drawer) loads when an item is first peeked at: list screens paint without it.
const ItemQuickViewPanel = lazy(() =>
  import('./item-quick-view').then((m) => ({ default: m.ItemQuickViewPanel })),
);
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

/** Why the list is empty: nothing near the place, nothing matching the search, or nothing at all yet. */
function emptyListDescription(near: NearValue | null, q: string, emptyDescription?: string) {
  if (near)
    return `Nothing${q ? ` named “${q}”` : ''} within ${near.radiusKm} km of ${near.center.latitude}, ${near.center.longitude}.`;
  return q ? `Nothing here has a name or title containing “${q}”.` : emptyDescription;
}

function ItemsLoading() {
  return (
    <Paper withBorder radius="md" data-testid="items-loading">
      {Array.from({ length: 4 }, (_, i) => (
        <Skeleton key={i} h={56} m="md" w="auto" radius="sm" />
      ))}
    </Paper>
  );
}

/** The entries as a grid of cards or a list of rows, with 'Load More' while pages remain. */
function ItemEntries({
  mode,
  children,
  hasMore,
  isLoadingMore,
  onLoadMore,
}: {
  mode: ViewMode;
  children: ReactNode;
  hasMore: boolean;
  isLoadingMore: boolean;
  onLoadMore: () => void;
}) {
  return (
    <Stack gap="md">
      {mode === 'cards' ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3, xl: 4 }} data-testid="item-cards">
          {children}
        </SimpleGrid>
      ) : (
        <Paper withBorder radius="md" style={{ overflow: 'hidden' }} data-testid="item-rows">
          {children}
        </Paper>
      )}
      {hasMore && (
        <Center>
          <Button variant="default" loading={isLoadingMore} onClick={onLoadMore}>
            Load More
          </Button>
        </Center>
      )}
    </Stack>
  );
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
  const { searchText, setSearchText, q, near, setNear, items, all } = useItemListQuery(workspace.id, query);
  const members = useMembers(workspace.id);
  // Releases are made by members who may publish something.
  const selection = useReleaseSelection(workspace, level === 0);

  const handleOpen = (item: Item) => {
    if (level > 0) setPeek(item);
    else navigate(itemPathOf(workspace.id, item.schema, item.id));
  };

  return (
    <>
      <PageHeader
        eyebrow={eyebrow}
        title={title}
        description={description}
        actions={
          <>
            <ItemSearchInput
              value={searchText}
              onChange={setSearchText}
              isSearching={items.isPlaceholderData}
            />
            {offerNear && <NearFilter workspaceId={workspace.id} value={near} onChange={setNear} />}
            <ViewModeToggle value={mode} onChange={setMode} />
            {addButton}
          </>
        }
      />
      {selection.bar}
      {items.isPending ? (
        <ItemsLoading />
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
        <ItemsEmptyState description={emptyListDescription(near, q, emptyDescription)} />
      ) : (
        <ItemEntries
          mode={mode}
          hasMore={items.hasNextPage}
          isLoadingMore={items.isFetchingNextPage}
          onLoadMore={() => void items.fetchNextPage()}
        >
          {all.map((item) => (
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
              selection={selection.of(item)}
            />
          ))}
        </ItemEntries>
      )}
      {selection.dialog}
      {peek && (
        <Suspense fallback={null}>
          <ItemQuickViewPanel
            workspace={workspace}
            schema={peek.schema}
            id={peek.id}
            opened={!!peek}
            onClose={() => setPeek(null)}
          />
        </Suspense>
      )}
    </>
  );
}

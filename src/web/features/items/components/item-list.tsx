import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Alert, Button, Center, NativeSelect, Paper, SimpleGrid, Skeleton, Stack } from '@mantine/core';
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
import { useWorkspaceModel } from '@web/lib/content-model';
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
  /** The locales (other than the default) a 'Missing in' filter offers (a schema with localised fields). */
  missingLocales?: readonly string[];
}

/** Narrows the list to the items with a localised value missing in one locale. */
function MissingLocaleFilter({
  locales,
  value,
  onChange,
}: {
  locales: readonly string[] | undefined;
  value: string;
  onChange: (tag: string) => void;
}) {
  if (!locales?.length) return null;
  return (
    <NativeSelect
      aria-label="Translations"
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      data={[
        { value: '', label: 'Every locale' },
        ...locales.map((tag) => ({ value: tag, label: `Missing in ${tag}` })),
      ]}
    />
  );
}

/** The filters a list offers besides its search: Near (schemas with an address) and Missing in a locale. */
function ListFilters({
  workspaceId,
  offerNear,
  missingLocales,
  list,
}: Pick<ItemListProps, 'offerNear' | 'missingLocales'> & {
  workspaceId: string;
  list: ReturnType<typeof useItemListQuery>;
}) {
  return (
    <>
      {offerNear && <NearFilter workspaceId={workspaceId} value={list.near} onChange={list.setNear} />}
      <MissingLocaleFilter locales={missingLocales} value={list.missing} onChange={list.setMissing} />
    </>
  );
}

/** Why the list is empty: nothing missing a locale, near the place, matching the search, or at all yet. */
function emptyListDescription(
  near: NearValue | null,
  q: string,
  emptyDescription?: string,
  missing?: string,
) {
  if (missing) return `Nothing${q ? ` named “${q}”` : ''} is missing values in ${missing}.`;
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
  missingLocales,
}: ItemListProps) {
  const navigate = useNavigate();
  const level = useQuickViewLevel();
  const [mode, setMode] = useViewMode();
  const [peek, setPeek] = useState<Item | null>(null);
  const listQuery = useItemListQuery(workspace.id, query);
  const { searchText, setSearchText, q, near, items, all } = listQuery;
  const members = useMembers(workspace.id);
  const model = useWorkspaceModel(workspace);
  // Releases are made by members who may publish something.
  const selection = useReleaseSelection(workspace, level === 0);

  const handleOpen = (item: Item) => {
    if (level > 0) setPeek(item);
    else navigate(itemPathOf(model, workspace.id, item.schema, item.id));
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
            <ListFilters workspaceId={workspace.id} {...{ offerNear, missingLocales }} list={listQuery} />
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
        <ItemsEmptyState description={emptyListDescription(near, q, emptyDescription, listQuery.missing)} />
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

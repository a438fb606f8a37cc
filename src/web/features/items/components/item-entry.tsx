import { ActionIcon, Anchor, Group, Text, Tooltip } from '@mantine/core';
import classes from './item-entry.module.css';
import { IconEye, IconMapPin } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Item } from '@shared/api/items';
import type { Member, Workspace } from '@shared/api/workspaces';
import { imageResizeUrl } from '@shared/media/urls';
import { addressLine, itemAddress } from '@shared/geo/address';
import { distanceKm, type Point } from '@shared/geo/geohash';
import type { SchemaType } from '@shared/schemas/types';
import { itemThumbId, itemTitle, userLabel } from '../item-labels';
import { useWorkspaceModel } from '@web/lib/content-model';
import { itemPathOf } from '@web/lib/item-paths';
import { CampaignStatusBadge } from '@web/components/campaigns/campaign-status';
import { ApprovalChips, PublishChips } from './item-chips';
import { UpdatedBy } from './updated-by';
import { ItemEntryCard, ItemEntryRow } from './item-entry-layouts';
import { ItemEntryMeta } from './item-entry-meta';
import type { ViewMode } from './view-mode-toggle';

export interface ItemEntryProps {
  item: Item;
  workspace: Pick<Workspace, 'id' | 'basics' | 'roles' | 'modelVersion'>;
  members: readonly Member[] | undefined;
  mode: ViewMode;
  /** Explore lists mix schemas: each entry names its type. */
  showSchema?: boolean;
  /** Opens the entry: a quick view inside a modal, else the single-item screen. */
  onOpen: (item: Item) => void;
  /** Offered on pages: peek without leaving the list. */
  onQuickView?: (item: Item) => void;
  /** The centre of a near search: the entry shows how far its address is. */
  nearCenter?: Point;
  /** Offered to members who may publish: the entry can be picked for a release. */
  selection?: { isSelected: boolean; onToggle: (item: Item) => void };
}

/** The item's address on one line (schemas with an address), and its distance in a near search. */
function ItemPlace({ schema, item, nearCenter }: { schema?: SchemaType; item: Item; nearCenter?: Point }) {
  const address = schema ? itemAddress(schema, item.data) : null;
  if (!address) return null;
  const line = addressLine(address);
  const hasPoint = typeof address.latitude === 'number' && typeof address.longitude === 'number';
  const distance =
    nearCenter && hasPoint
      ? distanceKm(nearCenter, { latitude: address.latitude!, longitude: address.longitude! })
      : null;
  if (!line && distance === null) return null;
  return (
    <Group gap={4} wrap="nowrap" data-testid="item-address">
      <IconMapPin size={13} color="var(--mantine-color-dimmed)" style={{ flexShrink: 0 }} />
      <Text size="xs" c="dimmed" truncate>
        {[distance !== null && `${distance < 10 ? distance.toFixed(1) : Math.round(distance)} km away`, line]
          .filter(Boolean)
          .join(' · ')}
      </Text>
    </Group>
  );
}

function QuickViewButton({ title, onClick }: { title: string; onClick: () => void }) {
  return (
    <Tooltip label="Quick view">
      <ActionIcon
        variant="subtle"
        color="gray"
        aria-label={`Quick view of ${title}`}
        onClick={(e) => {
          e.stopPropagation();
          onClick();
        }}
      >
        <IconEye size={18} />
      </ActionIcon>
    </Tooltip>
  );
}

/** One entry of an item list (spec §2): title or '-- UNNAMED ITEM --', ID, last update and by whom, thumbnail, chips. */
export function ItemEntry({
  item,
  workspace,
  members,
  mode,
  showSchema,
  onOpen,
  onQuickView,
  nearCenter,
  selection,
}: ItemEntryProps) {
  const model = useWorkspaceModel(workspace);
  const schema = model.schema(item.schema);
  const domain = model.domainOf(item.schema)?.name ?? '_';
  const title = itemTitle(item.data);
  const thumbId = schema ? itemThumbId(schema, item.data) : undefined;
  const thumbSrc = thumbId ? imageResizeUrl(workspace.id, thumbId, { w: 400 }) : undefined;
  const by = userLabel(item.lastWrittenBy, item.lastWrittenByName, members);
  const href = itemPathOf(model, workspace.id, item.schema, item.id);

  const handleOpen = (event: React.MouseEvent) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return; // new tab: let the link work
    event.preventDefault();
    onOpen(item);
  };

  const parts = {
    title: (
      <Anchor
        component={Link}
        to={href}
        onClick={handleOpen}
        fw={600}
        c="var(--mantine-color-text)"
        lineClamp={2}
        data-testid="item-title"
      >
        {title}
      </Anchor>
    ),
    meta: <ItemEntryMeta item={item} schema={schema} showSchema={showSchema} workspaceId={workspace.id} />,
    place: <ItemPlace schema={schema} item={item} nearCenter={nearCenter} />,
    updated: <UpdatedBy at={item.lastWrittenAt} by={by} dateFormat={workspace.basics.dateFormat} />,
    chips: (
      <>
        <PublishChips
          item={item}
          ws={workspace.id}
          domain={domain}
          stages={workspace.basics.stages}
          publishedOnly
        />
        <ApprovalChips item={item} roles={workspace.roles} />
        {item.schema === 'campaign' && (
          <CampaignStatusBadge workspaceId={workspace.id} campaignId={item.id} />
        )}
      </>
    ),
    quickView: onQuickView && <QuickViewButton title={title} onClick={() => onQuickView(item)} />,
    select: selection && (
      // A native checkbox: the list screen's bundle stays small (DESIGN §7).
      <input
        type="checkbox"
        className={classes.select}
        aria-label={`Select ${title}`}
        checked={selection.isSelected}
        onChange={() => selection.onToggle(item)}
        onClick={(e) => e.stopPropagation()}
      />
    ),
  };
  const Layout = mode === 'cards' ? ItemEntryCard : ItemEntryRow;
  return (
    <Layout
      itemId={item.id}
      thumbSrc={thumbSrc}
      icon={schema?.icon ?? ''}
      onOpen={handleOpen}
      parts={parts}
    />
  );
}

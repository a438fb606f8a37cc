import {
  ActionIcon,
  Anchor,
  Badge,
  Box,
  Card,
  Group,
  Image,
  Stack,
  Text,
  ThemeIcon,
  Tooltip,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconEye, IconMapPin } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Item } from '@shared/api/items';
import type { Member, Workspace } from '@shared/api/workspaces';
import { imageResizeUrl } from '@shared/media/urls';
import { addressLine, itemAddress } from '@shared/geo/address';
import { distanceKm, type Point } from '@shared/geo/geohash';
import { domainOfSchema, getSchema } from '@shared/schemas/catalogue';
import type { SchemaType } from '@shared/schemas/types';
import { SchemaIcon } from '@web/components/schema-icon';
import { itemThumbId, itemTitle, userLabel } from '../item-labels';
import { itemPathOf } from '../item-paths';
import { ApprovalChips, PublishChips } from './item-chips';
import { AudienceSizeBadge } from '@web/components/criteria-builder/audience-size-badge';
import { UpdatedBy } from './updated-by';
import type { ViewMode } from './view-mode-toggle';
import classes from './item-entry.module.css';

export interface ItemEntryProps {
  item: Item;
  workspace: Pick<Workspace, 'id' | 'basics' | 'roles'>;
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
}

function Thumbnail({ src, icon, size }: { src?: string; icon: string; size: number | string }) {
  if (src) return <Image src={src} alt="" w={size} h={size} fit="cover" radius="sm" loading="lazy" />;
  return (
    <ThemeIcon variant="light" color="gray" w={size} h={size} radius="sm">
      <SchemaIcon name={icon} size={typeof size === 'number' ? Math.round(size / 2.4) : 36} />
    </ThemeIcon>
  );
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
}: ItemEntryProps) {
  const schema = getSchema(item.schema);
  const domain = domainOfSchema(item.schema)?.name ?? '_';
  const title = itemTitle(item.data);
  const thumbId = schema ? itemThumbId(schema, item.data) : undefined;
  const thumbSrc = thumbId ? imageResizeUrl(workspace.id, thumbId, { w: 400 }) : undefined;
  const by = userLabel(item.lastWrittenBy, item.lastWrittenByName, members);
  const href = itemPathOf(workspace.id, item.schema, item.id);
  // Phones put the status under the title; one copy of the chips either way.
  const isWide = useMediaQuery('(min-width: 48em)', true);

  const handleOpen = (event: React.MouseEvent) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return; // new tab: let the link work
    event.preventDefault();
    onOpen(item);
  };

  const titleLink = (
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
  );
  const place = <ItemPlace schema={schema} item={item} nearCenter={nearCenter} />;
  const meta = (
    <Group gap={8} wrap="wrap">
      {showSchema && schema && (
        <Badge
          variant="light"
          color="indigo"
          size="sm"
          tt="none"
          leftSection={<SchemaIcon name={schema.icon} size={11} />}
        >
          {schema.title}
        </Badge>
      )}
      <Text size="xs" c="dimmed" ff="monospace" data-testid="item-id">
        ID {item.id}
      </Text>
      {item.schema === 'audience' && <AudienceSizeBadge ws={workspace.id} id={item.id} />}
      {item.hasErrors && (
        <Badge
          variant="outline"
          color="yellow"
          size="sm"
          tt="none"
          title="Saved with validation errors: finish editing before publishing"
        >
          Incomplete
        </Badge>
      )}
    </Group>
  );
  const chips = (
    <>
      <PublishChips
        item={item}
        ws={workspace.id}
        domain={domain}
        stages={workspace.basics.stages}
        publishedOnly
      />
      <ApprovalChips item={item} roles={workspace.roles} />
    </>
  );
  const quickView = onQuickView && (
    <Tooltip label="Quick view">
      <ActionIcon
        variant="subtle"
        color="gray"
        aria-label={`Quick view of ${title}`}
        onClick={(e) => {
          e.stopPropagation();
          onQuickView(item);
        }}
      >
        <IconEye size={18} />
      </ActionIcon>
    </Tooltip>
  );

  if (mode === 'cards') {
    return (
      <Card
        withBorder
        padding="md"
        radius="md"
        data-testid="item-entry"
        data-item-id={item.id}
        className={classes.card}
        onClick={handleOpen}
      >
        <Card.Section>
          {thumbSrc ? (
            <Image src={thumbSrc} alt="" h={150} fit="cover" loading="lazy" />
          ) : (
            <Box
              h={96}
              bg="var(--mantine-color-gray-light)"
              style={{ display: 'grid', placeItems: 'center' }}
            >
              <SchemaIcon name={schema?.icon ?? ''} size={32} />
            </Box>
          )}
        </Card.Section>
        <Stack gap={6} mt="sm">
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            {titleLink}
            {quickView}
          </Group>
          {meta}
          {place}
          <UpdatedBy at={item.lastWrittenAt} by={by} dateFormat={workspace.basics.dateFormat} />
          <Group gap={6}>{chips}</Group>
        </Stack>
      </Card>
    );
  }

  return (
    <Group
      wrap="nowrap"
      gap="md"
      px="md"
      py="sm"
      data-testid="item-entry"
      data-item-id={item.id}
      onClick={handleOpen}
      className={classes.row}
    >
      <Thumbnail src={thumbSrc} icon={schema?.icon ?? ''} size={48} />
      <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
        {titleLink}
        {meta}
        {place}
        {!isWide && (
          <Stack gap={4} mt={2}>
            <UpdatedBy at={item.lastWrittenAt} by={by} dateFormat={workspace.basics.dateFormat} />
            <Group gap={6}>{chips}</Group>
          </Stack>
        )}
      </Stack>
      {isWide && (
        <Stack gap={4} align="flex-end" style={{ flexShrink: 0, maxWidth: '45%' }}>
          <Group gap={6} justify="flex-end">
            {chips}
          </Group>
          <UpdatedBy at={item.lastWrittenAt} by={by} dateFormat={workspace.basics.dateFormat} />
        </Stack>
      )}
      {quickView}
    </Group>
  );
}

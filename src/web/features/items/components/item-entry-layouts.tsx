import type { MouseEvent, ReactNode } from 'react';
import { Box, Card, Group, Image, Stack, ThemeIcon } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { SchemaIcon } from '@web/components/schema-icon';
import classes from './item-entry.module.css';

/** The parts of an entry that both layouts place, each built once by the entry. */
interface ItemEntryParts {
  title: ReactNode;
  meta: ReactNode;
  place: ReactNode;
  updated: ReactNode;
  chips: ReactNode;
  quickView: ReactNode;
  /** The selection checkbox, when the list offers one. */
  select: ReactNode;
}

interface ItemEntryLayoutProps {
  itemId: string;
  thumbSrc?: string;
  icon: string;
  onOpen: (event: MouseEvent) => void;
  parts: ItemEntryParts;
}

function Thumbnail({ src, icon, size }: { src?: string; icon: string; size: number | string }) {
  if (src) return <Image src={src} alt="" w={size} h={size} fit="cover" radius="sm" loading="lazy" />;
  return (
    <ThemeIcon variant="light" color="gray" w={size} h={size} radius="sm">
      <SchemaIcon name={icon} size={typeof size === 'number' ? Math.round(size / 2.4) : 36} />
    </ThemeIcon>
  );
}

/** The entry as a card in a grid: a cover image (or the schema's icon) above the text. */
export function ItemEntryCard({ itemId, thumbSrc, icon, onOpen, parts }: ItemEntryLayoutProps) {
  return (
    <Card
      withBorder
      padding="md"
      radius="md"
      data-testid="item-entry"
      data-item-id={itemId}
      className={classes.card}
      onClick={onOpen}
    >
      <Card.Section>
        {thumbSrc ? (
          <Image src={thumbSrc} alt="" h={150} fit="cover" loading="lazy" />
        ) : (
          <Box h={96} bg="var(--mantine-color-gray-light)" style={{ display: 'grid', placeItems: 'center' }}>
            <SchemaIcon name={icon} size={32} />
          </Box>
        )}
      </Card.Section>
      <Stack gap={6} mt="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Group gap="xs" wrap="nowrap" align="flex-start" style={{ minWidth: 0 }}>
            {parts.select}
            {parts.title}
          </Group>
          {parts.quickView}
        </Group>
        {parts.meta}
        {parts.place}
        {parts.updated}
        <Group gap={6}>{parts.chips}</Group>
      </Stack>
    </Card>
  );
}

/** The entry as a row of a list: a small thumbnail, the text, and the status on the right (under the title on phones). */
export function ItemEntryRow({ itemId, thumbSrc, icon, onOpen, parts }: ItemEntryLayoutProps) {
  // Phones put the status under the title; one copy of the chips either way.
  const isWide = useMediaQuery('(min-width: 48em)', true);
  return (
    <Group
      wrap="nowrap"
      gap="md"
      px="md"
      py="sm"
      data-testid="item-entry"
      data-item-id={itemId}
      onClick={onOpen}
      className={classes.row}
    >
      {parts.select}
      <Thumbnail src={thumbSrc} icon={icon} size={48} />
      <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
        {parts.title}
        {parts.meta}
        {parts.place}
        {!isWide && (
          <Stack gap={4} mt={2}>
            {parts.updated}
            <Group gap={6}>{parts.chips}</Group>
          </Stack>
        )}
      </Stack>
      {isWide && (
        <Stack gap={4} align="flex-end" style={{ flexShrink: 0, maxWidth: '45%' }}>
          <Group gap={6} justify="flex-end">
            {parts.chips}
          </Group>
          {parts.updated}
        </Stack>
      )}
      {parts.quickView}
    </Group>
  );
}

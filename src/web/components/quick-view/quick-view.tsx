import { useState, type ReactNode } from 'react';
import { Anchor, Box, Button, Drawer, Group, Kbd, Stack, Text } from '@mantine/core';
import { IconArrowUpRight, IconLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { QuickViewLevelProvider, useQuickViewLevel } from './quick-view-level';
import { CLOSE_WHILE_EDITING_MESSAGE, quickViewWidth } from './quick-view-width';

export interface QuickViewProps {
  opened: boolean;
  onClose: () => void;
  title: ReactNode;
  /** While true the panel refuses to close and says why. */
  isEditing?: boolean;
  /** The full page of what is shown; offered as 'Details' when the panel is nested in another modal. */
  detailsHref?: string;
  children: ReactNode;
}

/**
 * Spec §2 Quick view panel: a right-side panel over the page, 75% wide plus 5% per nesting level up to
 * 100%. It cannot close while its content is being edited; it has a Done button and an Esc hint, and a
 * Details link to the full page when it is nested.
 */
export function QuickView({
  opened,
  onClose,
  title,
  isEditing = false,
  detailsHref,
  children,
}: QuickViewProps) {
  const parentLevel = useQuickViewLevel();
  const level = parentLevel; // this panel's nesting level: 0 when opened from a page
  const [refused, setRefused] = useState(false);

  const handleClose = () => {
    if (isEditing) {
      setRefused(true);
      return;
    }
    setRefused(false);
    onClose();
  };

  return (
    <Drawer
      opened={opened}
      onClose={handleClose}
      position="right"
      size={`${quickViewWidth(level)}%`}
      zIndex={300 + level * 10}
      padding={0}
      withCloseButton={false}
      overlayProps={{ backgroundOpacity: 0.35, blur: 1 }}
      data-quick-view-level={level}
    >
      <Stack gap={0} h="100vh" data-testid={`quick-view-${level}`} role="region" aria-label="Quick view">
        <Group
          justify="space-between"
          wrap="nowrap"
          px="lg"
          py="sm"
          style={{ borderBottom: '1px solid var(--mantine-color-default-border)', flexShrink: 0 }}
        >
          <Box style={{ minWidth: 0, flex: 1 }}>{title}</Box>
          <Group gap="sm" wrap="nowrap">
            {level > 0 && detailsHref && (
              <Anchor component={Link} to={detailsHref} size="sm" onClick={() => !isEditing && onClose()}>
                <Group gap={4} wrap="nowrap">
                  Details <IconArrowUpRight size={14} />
                </Group>
              </Anchor>
            )}
            <Text size="xs" c="dimmed" visibleFrom="sm">
              <Kbd size="xs">Esc</Kbd> to close
            </Text>
            <Button
              onClick={handleClose}
              variant={isEditing ? 'default' : 'filled'}
              leftSection={isEditing ? <IconLock size={14} /> : undefined}
            >
              Done
            </Button>
          </Group>
        </Group>
        {refused && isEditing && (
          <Text size="sm" c="orange.8" bg="orange.0" px="lg" py={6} role="alert">
            {CLOSE_WHILE_EDITING_MESSAGE}
          </Text>
        )}
        <Box p="lg" style={{ overflowY: 'auto', flex: 1 }}>
          <QuickViewLevelProvider level={level + 1}>{children}</QuickViewLevelProvider>
        </Box>
      </Stack>
    </Drawer>
  );
}

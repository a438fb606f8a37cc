import { useState, type ComponentType } from 'react';
import { Anchor, Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import type { Item } from '@shared/api/items';
import type { Workspace } from '@shared/api/workspaces';
import { UNNAMED_ITEM } from '@shared/validation/messages';
import { useQuickViewLevel } from '@web/components/quick-view/quick-view-level';
import { SchemaIcon } from '@web/components/schema-icon';
import { useWorkspaceModel } from '@web/lib/content-model';
import { itemPathOf } from '@web/lib/item-paths';

/** The quick view panel of one item, handed in because that panel shows these references in turn. */
export interface QuickViewPanelProps {
  workspace: Workspace;
  schema: string;
  id: string;
  opened: boolean;
  onClose: () => void;
}

/**
 * The items this item references (its `_references`), as a small list whose entries open a quick view
 * when shown inside one (nested panels widen by 5% each) and the item's screen otherwise.
 */
export function ItemReferences({
  workspace,
  item,
  QuickViewPanel,
}: {
  workspace: Workspace;
  item: Item;
  QuickViewPanel: ComponentType<QuickViewPanelProps>;
}) {
  const level = useQuickViewLevel();
  const navigate = useNavigate();
  const model = useWorkspaceModel(workspace);
  const [open, setOpen] = useState<{ schema: string; id: string } | null>(null);
  const entries = Object.entries(item._references);
  if (!entries.length) return null;

  return (
    <Stack gap={6} data-testid="item-references">
      <Text size="xs" fw={600} c="dimmed" tt="uppercase" style={{ letterSpacing: '0.04em' }}>
        References
      </Text>
      <Paper withBorder radius="md">
        {entries.map(([id, ref]) => {
          const schema = model.schema(ref.schemaType);
          const href = itemPathOf(model, workspace.id, ref.schemaType, id);
          return (
            <Group key={id} gap="sm" px="sm" py={8} wrap="nowrap">
              <ThemeIcon variant="light" color="gray" size="md">
                <SchemaIcon name={schema?.icon ?? ''} size={14} />
              </ThemeIcon>
              <Anchor
                component={Link}
                to={href}
                size="sm"
                onClick={(event: React.MouseEvent) => {
                  if (event.metaKey || event.ctrlKey) return;
                  event.preventDefault();
                  if (level > 0) setOpen({ schema: ref.schemaType, id });
                  else navigate(href);
                }}
              >
                {ref.label?.trim() || UNNAMED_ITEM}
              </Anchor>
              <Text size="xs" c="dimmed">
                {schema?.title ?? ref.schemaType}
              </Text>
            </Group>
          );
        })}
      </Paper>
      {open && (
        <QuickViewPanel
          workspace={workspace}
          schema={open.schema}
          id={open.id}
          opened
          onClose={() => setOpen(null)}
        />
      )}
    </Stack>
  );
}

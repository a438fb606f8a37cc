import { useState, type ComponentType } from 'react';
import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import type { Item } from '@shared/api/items';
import type { Workspace } from '@shared/api/workspaces';
import { ItemForm, type ItemFormMode } from '@web/components/item-form/item-form';
import { useQuickViewLevel } from '@web/components/quick-view/quick-view-level';
import { useWorkspaceModel } from '@web/lib/content-model';
import { useMembers } from '@web/lib/members';
import { userLabel } from '../item-labels';
import { ItemConflictAlert } from './conflict-alert';
import { ApprovalChips, PublishChips } from './item-chips';
import { ItemReferences, type QuickViewPanelProps } from './item-references';
import { UpdatedBy } from './updated-by';
import { useItemFormEnvironment } from './use-item-form-environment';
import { useItemSave } from './use-item-save';

/**
 * The quick view's content: the item's metadata and its form. A chunk of its own (loaded by
 * item-quick-view.tsx when a panel first opens) so list screens do not carry the form engine.
 */
export function ItemQuickViewBody({
  workspace,
  item,
  onEditingChange,
  onReload,
  QuickViewPanel,
}: {
  workspace: Workspace;
  item: Item;
  onEditingChange: (editing: boolean) => void;
  onReload: () => void;
  QuickViewPanel: ComponentType<QuickViewPanelProps>;
}) {
  const model = useWorkspaceModel(workspace);
  const schema = model.schema(item.schema)!;
  const domain = model.domainOf(item.schema)?.name ?? '_';
  const level = useQuickViewLevel();
  const members = useMembers(workspace.id);
  const environment = useItemFormEnvironment(workspace);
  const [formKey, setFormKey] = useState(0);
  const { handleSave, conflict, clearConflict } = useItemSave(
    workspace.id,
    item.schema,
    item.id,
    item.version,
  );

  const handleModeChange = (mode: ItemFormMode) => onEditingChange(mode === 'edit');
  const handleReload = () => {
    clearConflict();
    onEditingChange(false);
    setFormKey((k) => k + 1);
    onReload();
  };

  return (
    <Stack gap="md" data-testid="quick-view-item" data-level={level}>
      <Paper withBorder radius="md" p="md">
        <Stack gap={8}>
          <Group gap="xs">
            <Badge variant="light" color="indigo" tt="none">
              {schema.title}
            </Badge>
            <Text size="xs" c="dimmed" ff="monospace">
              ID {item.id}
            </Text>
            <Text size="xs" c="dimmed">
              Version {item.version}
            </Text>
          </Group>
          <UpdatedBy
            at={item.lastWrittenAt}
            by={userLabel(item.lastWrittenBy, item.lastWrittenByName, members.data?.members)}
            dateFormat={workspace.basics.dateFormat}
          />
          <Group gap={6}>
            <PublishChips item={item} ws={workspace.id} domain={domain} stages={workspace.basics.stages} />
            <ApprovalChips item={item} roles={workspace.roles} />
          </Group>
        </Stack>
      </Paper>
      {conflict && <ItemConflictAlert onReload={handleReload} />}
      <ItemForm
        key={formKey}
        schema={schema}
        value={item.data}
        hasBeenPublished={Object.keys(item.published).length > 0}
        mode="view"
        canEdit={item.abilities.canEdit}
        onSave={handleSave}
        onModeChange={handleModeChange}
        {...environment}
      />
      <ItemReferences workspace={workspace} item={item} QuickViewPanel={QuickViewPanel} />
    </Stack>
  );
}

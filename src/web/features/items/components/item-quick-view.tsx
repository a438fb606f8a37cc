import { useState } from 'react';
import { Alert, Badge, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { Item } from '@shared/api/items';
import type { Workspace } from '@shared/api/workspaces';
import { domainOfSchema, getSchema } from '@shared/schemas/catalogue';
import { ItemForm, type ItemFormMode } from '@web/components/item-form/item-form';
import { QuickView, useQuickViewLevel } from '@web/components/quick-view/quick-view';
import { SchemaIcon } from '@web/components/schema-icon';
import { errorMessage } from '@web/lib/api-client';
import { useItem } from '../api/get-item';
import { useMembers } from '../api/get-members';
import { itemTitle, userLabel } from '../item-labels';
import { itemPathOf } from '../item-paths';
import { ItemConflictAlert } from './conflict-alert';
import { ApprovalChips, PublishChips } from './item-chips';
import { ItemReferences } from './item-references';
import { UpdatedBy } from './updated-by';
import { useItemFormEnvironment } from './use-item-form-environment';
import { useItemSave } from './use-item-save';

interface PanelProps {
  workspace: Workspace;
  schema: string;
  id: string;
  opened: boolean;
  onClose: () => void;
}

/** Spec §2 Quick view panel of one item: its metadata and the item form. */
export function ItemQuickViewPanel({ workspace, schema: schemaName, id, opened, onClose }: PanelProps) {
  const [isEditing, setEditing] = useState(false);
  const item = useItem(workspace.id, schemaName, id);
  const schema = getSchema(schemaName);
  const title = item.data && schema ? itemTitle(schema, item.data.data) : 'Item';
  return (
    <QuickView
      opened={opened}
      onClose={onClose}
      isEditing={isEditing}
      detailsHref={itemPathOf(workspace.id, schemaName, id)}
      title={
        <Group gap="xs" wrap="nowrap">
          {schema && <SchemaIcon name={schema.icon} size={18} />}
          <Title order={4} lineClamp={1}>
            {title}
          </Title>
        </Group>
      }
    >
      {item.isPending ? (
        <Group justify="center" p="xl">
          <Loader size="sm" />
        </Group>
      ) : item.isError || !schema ? (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} title="Item not found" role="alert">
          {item.error ? errorMessage(item.error) : 'Instance not found'}
        </Alert>
      ) : (
        <QuickViewBody workspace={workspace} item={item.data} onEditingChange={setEditing} onReload={() => void item.refetch()} />
      )}
    </QuickView>
  );
}

function QuickViewBody({
  workspace,
  item,
  onEditingChange,
  onReload,
}: {
  workspace: Workspace;
  item: Item;
  onEditingChange: (editing: boolean) => void;
  onReload: () => void;
}) {
  const schema = getSchema(item.schema)!;
  const domain = domainOfSchema(item.schema)?.name ?? '_';
  const level = useQuickViewLevel();
  const members = useMembers(workspace.id);
  const environment = useItemFormEnvironment(workspace);
  const [formKey, setFormKey] = useState(0);
  const { handleSave, conflict, clearConflict } = useItemSave(workspace.id, item.schema, item.id, item.version);

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
        mode="view"
        canEdit={item.abilities.canEdit}
        onSave={handleSave}
        onModeChange={handleModeChange}
        {...environment}
      />
      <ItemReferences workspace={workspace} item={item} />
    </Stack>
  );
}

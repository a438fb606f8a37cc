import { lazy, Suspense, useEffect, useState } from 'react';
import { Alert, Group, Loader, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { QuickView } from '@web/components/quick-view/quick-view';
import { SchemaIcon } from '@web/components/schema-icon';
import { errorMessage } from '@web/lib/api-client';
import { useItem } from '../api/get-item';
import { itemTitle } from '../item-labels';
import { useWorkspaceModel } from '@web/lib/content-model';
import { itemPathOf } from '@web/lib/item-paths';
import type { QuickViewPanelProps } from './item-references';

// The form engine, field editors and save logic load with the first panel opened (DESIGN §7).
const loadBody = () => import('./item-quick-view-body');
const ItemQuickViewBody = lazy(() => loadBody().then((m) => ({ default: m.ItemQuickViewBody })));

const loading = (
  <Group justify="center" p="xl">
    <Loader size="sm" />
  </Group>
);

/** Spec §2 Quick view panel of one item: its metadata and the item form. */
export function ItemQuickViewPanel({
  workspace,
  schema: schemaName,
  id,
  opened,
  onClose,
}: QuickViewPanelProps) {
  const [isEditing, setEditing] = useState(false);
  const item = useItem(workspace.id, schemaName, id);
  const model = useWorkspaceModel(workspace);
  const schema = model.schema(schemaName);
  const title = item.data ? itemTitle(item.data.data) : 'Item';
  // Fetch the body's chunk alongside the item rather than after it.
  useEffect(() => void loadBody(), []);
  return (
    <QuickView
      opened={opened}
      onClose={onClose}
      isEditing={isEditing}
      detailsHref={itemPathOf(model, workspace.id, schemaName, id)}
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
        loading
      ) : item.isError || !schema ? (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertCircle size={18} />}
          title="Item not found"
          role="alert"
        >
          {item.error ? errorMessage(item.error) : 'Instance not found'}
        </Alert>
      ) : (
        <Suspense fallback={loading}>
          <ItemQuickViewBody
            workspace={workspace}
            item={item.data}
            onEditingChange={setEditing}
            onReload={() => void item.refetch()}
            QuickViewPanel={ItemQuickViewPanel}
          />
        </Suspense>
      )}
    </QuickView>
  );
}

import { Alert, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconTrash } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { deleteRefusal } from '@shared/permissions/permissions';
import { errorMessage } from '@web/lib/api-client';
import { useDeleteItem } from './api/delete-item';
import { ItemSubScreen, type ItemScreenContext } from './components/item-sub-screen';
import { itemTitle, publishChips } from './item-labels';
import { itemScreenPath, schemaListPath } from '@web/lib/item-paths';
import { showToast } from '@web/lib/toast';

/** /{workspace}/{domain}/{schema}/{id}/delete: asks, then deletes the item and its stage copies; the change log stays. */
export default function DeleteItemRoute() {
  return <ItemSubScreen section="Delete">{(context) => <DeleteScreen {...context} />}</ItemSubScreen>;
}

function DeleteScreen({ workspace, domain, schema, item }: ItemScreenContext) {
  const navigate = useNavigate();
  const remove = useDeleteItem();
  const title = itemTitle(item.data);
  const published = publishChips(item.publishStatus, workspace.basics.stages, { publishedOnly: true });

  const handleDelete = () =>
    remove.mutate(
      { ws: workspace.id, schema: schema.name, id: item.id },
      {
        onSuccess: () => {
          showToast({ color: 'teal', message: `Deleted “${title}”. Its change log is kept.` });
          navigate(schemaListPath(workspace.id, domain.name, schema.name), { replace: true });
        },
      },
    );

  if (!item.abilities.canDelete) {
    const refusal = deleteRefusal(workspace.__permissions, schema, published.length > 0);
    return (
      <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
        {refusal ?? `You do not have permission to delete ${schema.pluralTitle}`}.
      </Alert>
    );
  }

  return (
    <Paper withBorder radius="md" p="lg">
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <IconAlertTriangle size={22} color="var(--mantine-color-red-6)" style={{ flexShrink: 0 }} />
          <Stack gap={6}>
            <Text fw={600}>Delete “{title}”?</Text>
            <Text size="sm">
              The item is removed from every list
              {published.length > 0
                ? ` and its published copies in ${published.map((c) => c.stageLabel).join(', ')} are removed`
                : ''}
              . Its change log of {item.version} version(s) is kept.
            </Text>
          </Stack>
        </Group>
        {remove.isError && (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(remove.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button
            component={Link}
            to={itemScreenPath(workspace.id, domain.name, schema.name, item.id)}
            variant="default"
          >
            Cancel
          </Button>
          <Button
            color="red"
            leftSection={<IconTrash size={16} />}
            onClick={handleDelete}
            loading={remove.isPending}
          >
            Delete
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

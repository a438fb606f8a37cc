import { Badge, Group, Text } from '@mantine/core';
import type { Item } from '@shared/api/items';
import type { SchemaType } from '@shared/schemas/types';
import { AudienceSizeBadge } from '@web/components/criteria-builder/audience-size-badge';
import { SchemaIcon } from '@web/components/schema-icon';

/** The line under an entry's title: its type (in mixed lists), ID, audience size, and whether it is incomplete. */
export function ItemEntryMeta({
  item,
  schema,
  showSchema,
  workspaceId,
}: {
  item: Item;
  schema?: SchemaType;
  showSchema?: boolean;
  workspaceId: string;
}) {
  return (
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
      {item.schema === 'audience' && <AudienceSizeBadge ws={workspaceId} id={item.id} />}
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
}

import { Alert, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { Item } from '@shared/api/items';
import type { SchemaType } from '@shared/schemas/types';
import { slugChanges, urlChangeMessage } from '@shared/validation/name-slug';
import { useVersion } from '../api/get-history';

/**
 * Warns that publishing moves the item's URL in the stage: a slug differs from the one published there.
 * The stage copy holds the data of the version it names, so that version's history entry tells its slugs.
 */
export function UrlChangeWarning({
  workspaceId,
  schema,
  item,
  stage,
}: {
  workspaceId: string;
  schema: SchemaType;
  item: Item;
  stage: string;
}) {
  const copy = Object.hasOwn(item.published, stage) ? item.published[stage] : undefined;
  const older = copy && copy.version !== item.version ? copy.version : undefined;
  const published = useVersion(workspaceId, schema.name, item.id, older);
  const changes = older && published.data ? slugChanges(schema.fields, published.data.data, item.data) : [];
  if (changes.length === 0) return null;
  return (
    <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} data-testid="url-change">
      {changes.map((change) => (
        <Text key={change.key} size="sm">
          {urlChangeMessage(change.from, change.to)}
        </Text>
      ))}
    </Alert>
  );
}

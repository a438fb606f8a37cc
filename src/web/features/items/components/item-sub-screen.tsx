import type { ReactNode } from 'react';
import { Box } from '@mantine/core';
import type { Item } from '@shared/api/items';
import type { Workspace } from '@shared/api/workspaces';
import type { Domain, SchemaType } from '@shared/schemas/types';
import { NotFoundPage } from '@web/components/not-found-page';
import { useTellPresence } from '@web/lib/live';
import { useItem } from '../api/get-item';
import { useItemRoute } from '../use-item-route';
import { DomainDisabled } from './domain-unavailable';
import { ItemHeader } from './item-header';

export interface ItemScreenContext {
  workspace: Workspace;
  domain: Domain;
  schema: SchemaType;
  item: Item;
}

/** Members on the item's screen see who is on its other screens too. */
function ItemPresence({ ws, item }: { ws: string; item: Item }) {
  useTellPresence(ws, { item: { schema: item.schema, id: item.id }, field: null });
  return null;
}

/** The frame of the screens about one item (change log, approvals, publish, unpublish, delete). */
export function ItemSubScreen({
  section,
  maxWidth = 760,
  children,
}: {
  section: string;
  maxWidth?: number;
  children: (context: ItemScreenContext) => ReactNode;
}) {
  const route = useItemRoute();
  const ok = route.status === 'ok';
  const item = useItem(ok ? route.ws : '', ok ? route.schema.name : '', ok ? route.id : '', ok);
  if (route.status === 'not-found') return <NotFoundPage />;
  if (route.status === 'disabled') return <DomainDisabled />;
  if (!item.data) return null; // the guard loaded it; gone meanwhile
  const context = { workspace: route.workspace, domain: route.domain, schema: route.schema, item: item.data };
  return (
    <Box maw={maxWidth}>
      <ItemPresence ws={route.ws} item={item.data} />
      <ItemHeader {...context} section={section} />
      {children(context)}
    </Box>
  );
}

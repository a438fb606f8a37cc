import { lazy, Suspense } from 'react';
import { Anchor, Breadcrumbs, Group } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { hasAddressField } from '@shared/geo/address';
import { localizedSchema } from '@shared/locales/locales';
import { NotFoundPage } from '@web/components/not-found-page';
import { useContentModel } from '@web/lib/content-model';
import { visibleDomains } from '@web/lib/workspace-content';
import { useCurrentWorkspace } from '@web/lib/workspace';
import { AddItemButton } from './components/add-item-button';
import { DomainUnavailable } from './components/domain-unavailable';
import { ItemList } from './components/item-list';
import { listTitle } from './item-labels';

/** Presence loads after the list: it keeps the list screen's first load small. */
const ListPresence = lazy(() => import('./components/list-presence'));

/** /{workspace}/{domain}/{schema}: the items of one schema. */
export default function ListItemsRoute() {
  const { workspace: workspaceId = '', domain: domainName, schema: schemaName } = useParams();
  const workspace = useCurrentWorkspace();
  const model = useContentModel();
  const known = model.domain(domainName ?? '');
  const schema = known?.schemas.find((s) => s.name === schemaName);
  if (!known || !schema) return <NotFoundPage />;
  const domain = visibleDomains(workspace, model).find((d) => d.name === known.name);
  if (!domain) return <DomainUnavailable domain={known.name} />;
  const { locales } = workspace.basics;

  return (
    <>
      <Breadcrumbs mb="xs" fz="sm">
        <Anchor component={Link} to={`/${workspaceId}/${domain.name}`} c="dimmed">
          {domain.title}
        </Anchor>
        <span>{schema.pluralTitle}</span>
      </Breadcrumbs>
      <ItemList
        key={schema.name}
        workspace={workspace}
        query={{ schema: schema.name, view: 'all' }}
        title={listTitle(undefined, [schema])}
        addButton={
          <Group gap="sm" wrap="nowrap">
            <Suspense fallback={null}>
              <ListPresence ws={workspace.id} schema={schema.name} />
            </Suspense>
            <AddItemButton workspace={workspace} schema={{ domain: domain.name, name: schema.name }} />
          </Group>
        }
        emptyDescription={`${schema.pluralTitle} created in this workspace will show up here.`}
        offerNear={hasAddressField(schema)}
        missingLocales={locales && localizedSchema(schema, locales).locales?.others}
      />
    </>
  );
}

import { Alert, Anchor, Breadcrumbs } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { getDomain } from '@shared/schemas/catalogue';
import { NotFoundPage } from '@web/components/not-found-page';
import { PageHeader } from '@web/components/page-header';
import { useCurrentWorkspace } from '@web/lib/workspace';
import { ItemsEmptyState } from './components/items-empty-state';
import { ViewModeToggle, useViewMode } from './components/view-mode-toggle';
import { visibleDomains } from './workspace-content';

/** /{workspace}/{domain}/{schema}: the list of a schema's items. */
export default function ListItemsRoute() {
  const { workspace: workspaceId, domain: domainName, schema: schemaName } = useParams();
  const workspace = useCurrentWorkspace();
  const [mode, setMode] = useViewMode();
  const known = getDomain(domainName ?? '');
  const schema = known?.schemas.find((s) => s.name === schemaName);
  if (!known || !schema) return <NotFoundPage />;

  const domain = visibleDomains(workspace).find((d) => d.name === known.name);
  if (!domain) {
    return (
      <Alert color="orange" variant="light" icon={<IconAlertCircle size={18} />} role="alert" title="Not available">
        {`Domain "${known.name}" not available`}
      </Alert>
    );
  }

  return (
    <>
      <Breadcrumbs mb="xs" fz="sm">
        <Anchor component={Link} to={`/${workspaceId}/${domain.name}`} c="dimmed">
          {domain.title}
        </Anchor>
        <span>{schema.pluralTitle}</span>
      </Breadcrumbs>
      <PageHeader
        title={`All ${schema.pluralTitle}`}
        actions={<ViewModeToggle value={mode} onChange={setMode} />}
      />
      <ItemsEmptyState description={`${schema.pluralTitle} created in this workspace will show up here.`} />
    </>
  );
}

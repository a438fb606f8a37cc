import { useEffect } from 'react';
import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { Navigate, useParams } from 'react-router';
import { settingsPath } from '@web/app/guards';
import { useContentModel } from '@web/lib/content-model';
import { visibleDomains } from '@web/lib/workspace-content';
import { useCurrentWorkspace } from '@web/lib/workspace';
import DomainChooser from './components/domain-chooser';
import { showToast } from '@web/lib/toast';

const NO_DOMAINS = 'No domains available';

/** /{workspace}/_domains: skips to basics with no domains, to the domain when there is exactly one. */
export default function DomainsRoute() {
  const { workspace: workspaceId = '' } = useParams();
  const workspace = useCurrentWorkspace();
  const domains = visibleDomains(workspace, useContentModel());
  const isManager = workspace.__permissions.canManageWorkspace;
  const skipToBasics = domains.length === 0 && isManager;

  useEffect(() => {
    if (skipToBasics) showToast({ color: 'orange', message: NO_DOMAINS, id: 'no-domains' });
  }, [skipToBasics]);

  if (skipToBasics) return <Navigate to={settingsPath(workspaceId, 'basics')} replace />;
  if (domains.length === 0) {
    return (
      <Alert
        color="orange"
        variant="light"
        icon={<IconAlertCircle size={18} />}
        role="alert"
        title="Nothing to show"
      >
        {NO_DOMAINS}
      </Alert>
    );
  }
  if (domains.length === 1) return <Navigate to={`/${workspaceId}/${domains[0].name}`} replace />;
  return <DomainChooser workspaceId={workspaceId} domains={domains} />;
}

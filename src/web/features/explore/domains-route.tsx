import { Navigate, useParams } from 'react-router';
import { settingsPath } from '@web/app/guards';
import { useCurrentWorkspace } from '@web/lib/workspace';
import DomainChooser from './components/domain-chooser';
import { visibleDomains } from './workspace-content';

/** /{workspace}/_domains: skips to basics with no domains, to the domain when there is exactly one. */
export default function DomainsRoute() {
  const { workspace: workspaceId = '' } = useParams();
  const workspace = useCurrentWorkspace();
  const domains = visibleDomains(workspace);
  if (domains.length === 0) return <Navigate to={settingsPath(workspaceId, 'basics')} replace />;
  if (domains.length === 1) return <Navigate to={`/${workspaceId}/${domains[0].name}`} replace />;
  return <DomainChooser workspaceId={workspaceId} domains={domains} />;
}

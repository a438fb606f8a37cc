import { Alert, Card, Group, SimpleGrid, Text, ThemeIcon } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { Link, Navigate, useParams } from 'react-router';
import { NotFoundPage } from '@web/components/not-found-page';
import { PageHeader } from '@web/components/page-header';
import { SchemaIcon } from '@web/components/schema-icon';
import { useContentModel } from '@web/lib/content-model';
import { useCurrentWorkspace } from '@web/lib/workspace';
import { visibleDomains } from '@web/lib/workspace-content';

/** /{workspace}/{domain}: jumps to the landing schema's list when one is set, else lists its schemas. */
export default function DomainRoute() {
  const { workspace: workspaceId, domain: domainName } = useParams();
  const workspace = useCurrentWorkspace();
  const model = useContentModel();
  const known = model.domain(domainName ?? '');
  if (!known) return <NotFoundPage />;
  const domain = visibleDomains(workspace, model).find((d) => d.name === known.name);
  if (!domain) {
    return (
      <Alert
        color="orange"
        variant="light"
        icon={<IconAlertCircle size={18} />}
        role="alert"
        title="Not available"
      >
        {`Domain "${known.name}" not available`}
      </Alert>
    );
  }
  if (domain.landingSchema)
    return <Navigate to={`/${workspaceId}/${domain.name}/${domain.landingSchema}`} replace />;

  return (
    <>
      <PageHeader title={domain.title} />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {domain.schemas.map((schema) => (
          <Card
            key={schema.name}
            component={Link}
            to={`/${workspaceId}/${domain.name}/${schema.name}`}
            p="lg"
          >
            <Group>
              <ThemeIcon variant="light" size={36}>
                <SchemaIcon name={schema.icon} />
              </ThemeIcon>
              <Text fw={600}>{schema.pluralTitle}</Text>
            </Group>
          </Card>
        ))}
      </SimpleGrid>
    </>
  );
}

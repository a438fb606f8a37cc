import { Card, Group, SimpleGrid, Stack, Text, ThemeIcon } from '@mantine/core';
import { Link } from 'react-router';
import type { Domain } from '@shared/schemas/types';
import { PageHeader } from '@web/components/page-header';
import { DomainIcon } from '@web/components/schema-icon';

export default function DomainChooser({ workspaceId, domains }: { workspaceId: string; domains: Domain[] }) {
  return (
    <>
      <PageHeader title="Domains" description="Choose the kind of content to work on." />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {domains.map((domain) => (
          <Card key={domain.name} component={Link} to={`/${workspaceId}/${domain.name}`} p="lg">
            <Group wrap="nowrap">
              <ThemeIcon variant="light" size={40}>
                <DomainIcon name={domain.name} size={22} />
              </ThemeIcon>
              <Stack gap={2}>
                <Text fw={600}>{domain.title}</Text>
                <Text size="xs" c="dimmed">
                  {domain.schemas.map((s) => s.pluralTitle).join(' · ')}
                </Text>
              </Stack>
            </Group>
          </Card>
        ))}
      </SimpleGrid>
    </>
  );
}

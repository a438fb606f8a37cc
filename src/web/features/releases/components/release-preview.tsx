import { Anchor, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { Release } from '@shared/api/releases';
import type { Workspace } from '@shared/api/workspaces';
import { CopyTextButton } from '@web/components/copy-text-button';

/** The delivery URL a site reads the release's content from before it is published. */
const releasePreviewUrl = (
  origin: string,
  ws: string,
  release: Pick<Release, 'id' | 'stage'>,
  schema: string,
) =>
  `${origin}/delivery/v1/${encodeURIComponent(ws)}/${encodeURIComponent(release.stage)}/items/${schema}?release=${encodeURIComponent(release.id)}`;

/** How a website previews the release: its delivery URL per item type, and the key it needs. */
export function ReleasePreview({ workspace, release }: { workspace: Workspace; release: Release }) {
  const schemas = [...new Set(release.entries.map((e) => e.schema))];
  const urls = (schemas.length ? schemas : ['{schema}']).map((schema) => ({
    schema,
    url: releasePreviewUrl(window.location.origin, workspace.id, release, schema),
  }));
  return (
    <Card withBorder p="md" data-testid="release-preview">
      <Title order={2} size="h4" mb={4}>
        Preview
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        A website shows this release as it will be in its stage by adding <Code>?release={release.id}</Code>{' '}
        to its delivery API requests (also on <Code>/{'{id}'}</Code> and <Code>/by-slug/{'{slug}'}</Code>). It
        needs an API key that may preview releases
        {workspace.__permissions.canManageWorkspace ? (
          <>
            {' '}
            (
            <Anchor component={Link} to={`/${workspace.id}/_settings/api-keys`} size="sm" underline="always">
              API keys
            </Anchor>
            )
          </>
        ) : null}
        .
      </Text>
      <Stack gap={6}>
        {urls.map(({ schema, url }) => (
          <Group key={url} gap="xs" wrap="nowrap" align="center">
            <Code style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>{url}</Code>
            <CopyTextButton value={url} label={`Copy the preview URL of ${schema}`} />
          </Group>
        ))}
      </Stack>
    </Card>
  );
}

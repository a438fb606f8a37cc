import { useState } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconExternalLink } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Item } from '@shared/api/items';
import type { Workspace } from '@shared/api/workspaces';
import type { SchemaType } from '@shared/schemas/types';
import { FormError } from '@web/components/form-error';
import { usePreviewOrigins, usePreviewToken } from '@web/lib/preview';
import { useReleases } from '@web/lib/releases';
import type { FormFeed } from './form-feed';
import { previewTargets, type PreviewTarget } from './preview-targets';
import { usePreviewChannel } from './use-preview-channel';

type Device = 'desktop' | 'tablet' | 'phone';
const DEVICE_WIDTHS: Record<Device, string> = { desktop: '100%', tablet: '768px', phone: '375px' };
const DRAFTS = 'drafts';

interface PreviewPaneProps {
  workspace: Workspace;
  schema: SchemaType;
  /** The stored item: its values fill the URL (the page exists under its saved slug). */
  item: Item;
  /** The form's unsaved values and saves. */
  feed: FormFeed;
  locale: string | undefined;
  onLocaleChange: (locale: string) => void;
  /** The release the page shows the item in; none for the working versions. */
  releaseId: string | undefined;
  onReleaseChange: (releaseId: string | undefined) => void;
  /** The page asked to edit a field path of this item. */
  onEdit: (path: string) => void;
}

/**
 * The website beside the form: the item's page at one of its schema's preview URLs (on the workspace's
 * preview origins only) in a frame, with a preview token, showing the form's values as they are typed;
 * at desktop, tablet or phone width, in a locale, in a release.
 */
export function PreviewPane(props: PreviewPaneProps) {
  const { workspace, schema, item, locale, releaseId } = props;
  const origins = usePreviewOrigins(workspace.id);
  const targetsWith = (token?: string) =>
    previewTargets(schema.previewUrls ?? [], origins.data?.origins ?? [], item, {
      locale,
      locales: workspace.basics.locales,
      token,
    });
  // No page of an origin the workspace does not list is offered, nor a token made for it.
  const isOffered = targetsWith().length > 0;
  const token = usePreviewToken(
    workspace.id,
    { schema: schema.name, itemId: item.id, ...(releaseId ? { releaseId } : {}) },
    isOffered,
  );
  if (origins.isError) return <FormError error={origins.error} />;
  if (!origins.data) return <Skeleton h={480} radius="md" />;
  if (!isOffered)
    return <NoPreviewTarget workspace={workspace} schema={schema} hasUrls={!!schema.previewUrls?.length} />;
  if (token.isError) return <FormError error={token.error} />;
  if (!token.data) return <Skeleton h={480} radius="md" />;
  return <PreviewFrame {...props} targets={targetsWith(token.data.token)} />;
}

function NoPreviewTarget({
  workspace,
  schema,
  hasUrls,
}: {
  workspace: Workspace;
  schema: SchemaType;
  hasUrls: boolean;
}) {
  const isManager = workspace.__permissions.canManageWorkspace;
  return (
    <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title="Nothing to preview">
      {hasUrls
        ? `None of the preview URLs of ${schema.pluralTitle} is on an origin the workspace lists for previews.`
        : `${schema.pluralTitle} have no preview URL.`}{' '}
      {isManager ? (
        <Anchor
          component={Link}
          to={`/${workspace.id}/_settings/${hasUrls ? 'preview' : 'content-model'}`}
          size="sm"
          underline="always"
        >
          {hasUrls ? 'Preview origins' : 'Content model'}
        </Anchor>
      ) : (
        'A workspace manager can set them.'
      )}
    </Alert>
  );
}

function PreviewFrame({
  workspace,
  schema,
  item,
  feed,
  locale,
  onLocaleChange,
  releaseId,
  onReleaseChange,
  onEdit,
  targets,
}: PreviewPaneProps & { targets: PreviewTarget[] }) {
  const [device, setDevice] = useState<Device>('desktop');
  const [template, setTemplate] = useState(targets[0].template);
  const target = targets.find((t) => t.template === template) ?? targets[0];
  const { frameRef, error } = usePreviewChannel({
    ws: workspace.id,
    schema: schema.name,
    id: item.id,
    feed,
    stored: item.data,
    locale,
    releaseId,
    origin: target.origin,
    onEdit,
  });
  return (
    <Paper withBorder radius="md" p="sm" data-testid="preview-pane">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h5">
            Preview
          </Title>
          <Button
            component="a"
            href={target.url}
            target="_blank"
            rel="noopener noreferrer"
            size="xs"
            variant="subtle"
            rightSection={<IconExternalLink size={14} />}
          >
            Open in a new tab
          </Button>
        </Group>
        <PreviewToolbar
          workspace={workspace}
          targets={targets}
          template={target.template}
          onTemplateChange={setTemplate}
          device={device}
          onDeviceChange={setDevice}
          locale={locale}
          onLocaleChange={onLocaleChange}
          releaseId={releaseId}
          onReleaseChange={onReleaseChange}
        />
        {error && (
          <Text size="xs" c="orange" role="status">
            The page shows the last values that could be rendered: {error}
          </Text>
        )}
        <div style={{ overflow: 'auto', background: 'var(--mantine-color-gray-1)', borderRadius: 6 }}>
          <iframe
            key={target.url}
            ref={frameRef}
            title={`Preview of ${schema.title} on the website`}
            src={target.url}
            // The site runs as itself on its own origin; it may not navigate the app.
            sandbox="allow-scripts allow-same-origin allow-forms allow-popups"
            style={{
              display: 'block',
              width: DEVICE_WIDTHS[device],
              // A tablet's width may be more than the pane's: the page keeps it and scrolls sideways.
              maxWidth: device === 'desktop' ? '100%' : undefined,
              height: 'calc(100vh - 250px)',
              minHeight: 420,
              border: 0,
              margin: '0 auto',
              background: 'white',
            }}
          />
        </div>
      </Stack>
    </Paper>
  );
}

function PreviewToolbar({
  workspace,
  targets,
  template,
  onTemplateChange,
  device,
  onDeviceChange,
  locale,
  onLocaleChange,
  releaseId,
  onReleaseChange,
}: {
  workspace: Workspace;
  targets: PreviewTarget[];
  template: string;
  onTemplateChange: (template: string) => void;
  device: Device;
  onDeviceChange: (device: Device) => void;
  locale: string | undefined;
  onLocaleChange: (locale: string) => void;
  releaseId: string | undefined;
  onReleaseChange: (releaseId: string | undefined) => void;
}) {
  const locales = workspace.basics.locales;
  const releases = useReleases(workspace.id);
  const openReleases = (releases.data?.releases ?? []).filter(
    (release) => release.state === 'draft' || release.id === releaseId,
  );
  return (
    <Group gap="xs" align="flex-end" wrap="wrap">
      {targets.length > 1 && (
        <Select
          size="xs"
          label="Page URL"
          data={targets.map((t) => ({ value: t.template, label: t.template }))}
          value={template}
          onChange={(value) => value && onTemplateChange(value)}
          allowDeselect={false}
          style={{ flex: '1 1 14rem' }}
        />
      )}
      {locales && (
        <Select
          size="xs"
          label="Page locale"
          data={locales.tags.map((tag) => ({
            value: tag,
            label: tag === locales.default ? `${tag} (default)` : tag,
          }))}
          value={locale ?? locales.default}
          onChange={(value) => value && onLocaleChange(value)}
          allowDeselect={false}
          w={150}
        />
      )}
      {openReleases.length > 0 && (
        <Select
          size="xs"
          label="Versions shown"
          data={[
            { value: DRAFTS, label: 'Working versions' },
            ...openReleases.map((release) => ({ value: release.id, label: `Release: ${release.name}` })),
          ]}
          value={releaseId ?? DRAFTS}
          onChange={(value) => onReleaseChange(value && value !== DRAFTS ? value : undefined)}
          allowDeselect={false}
          w={200}
        />
      )}
      <SegmentedControl
        size="xs"
        aria-label="Preview width"
        value={device}
        onChange={(next) => onDeviceChange(next as Device)}
        data={[
          { value: 'desktop', label: 'Desktop' },
          { value: 'tablet', label: 'Tablet' },
          { value: 'phone', label: 'Phone' },
        ]}
      />
    </Group>
  );
}

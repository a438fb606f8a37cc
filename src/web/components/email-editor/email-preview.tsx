import { useState } from 'react';
import { Group, Paper, SegmentedControl, Stack, Switch, Text } from '@mantine/core';
import { emailDocument } from '@shared/email/email-document';
import { fillMergeTags, mergeTagsIn } from '@shared/email/merge-tags';
import { useMediaWorkspace } from '../media/media-workspace';
import { PreviewValuesForm, usePreviewValues } from './preview-profile-values';

export type PreviewDevice = 'desktop' | 'phone';
export const DEVICE_WIDTHS: Record<PreviewDevice, number> = { desktop: 640, phone: 375 };

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The markup an email shows: combinedMarkup (CSS inlined, built by the server), else the HTML and CSS. */
function emailMarkup(template: unknown): string {
  const value = (template && typeof template === 'object' ? template : {}) as Record<string, unknown>;
  const combined = text(value.combinedMarkup);
  if (combined.trim()) return combined;
  const html = text(value['gjs-nl-html']);
  return html.trim() ? `<style>${text(value['gjs-nl-css'])}</style>${html}` : '';
}

/** Desktop or phone: the width an email is shown at. */
export function DeviceToggle({
  value,
  onChange,
  label = 'Preview size',
}: {
  value: PreviewDevice;
  onChange: (device: PreviewDevice) => void;
  label?: string;
}) {
  return (
    <SegmentedControl
      size="xs"
      aria-label={label}
      value={value}
      onChange={(next) => onChange(next as PreviewDevice)}
      data={[
        { value: 'desktop', label: 'Desktop' },
        { value: 'phone', label: 'Phone' },
      ]}
    />
  );
}

/** A whole email document in a frame that runs no script, at the device's width. */
export function EmailDocumentFrame({
  title,
  document,
  device,
  height = 480,
  isStale = false,
}: {
  title: string;
  document: string;
  device: PreviewDevice;
  height?: number;
  /** Shown faded while the next document loads. */
  isStale?: boolean;
}) {
  return (
    <Paper
      withBorder
      radius="md"
      p={0}
      style={{ overflow: 'auto', background: 'var(--mantine-color-gray-1)' }}
    >
      <iframe
        title={title}
        // No scripts ever; same origin only so the workspace's own images load with the session.
        sandbox="allow-same-origin"
        srcDoc={document}
        style={{
          display: 'block',
          width: DEVICE_WIDTHS[device],
          maxWidth: '100%',
          height,
          border: 0,
          margin: '0 auto',
          background: 'white',
          opacity: isStale ? 0.6 : 1,
        }}
      />
    </Paper>
  );
}

/**
 * A rendered email in a sandboxed frame (no script can run), at desktop or phone width, with its merge
 * tags shown as written or filled for one customer profile: a stored profile's attribute values (loaded
 * by its id) or values typed here, else the tags' defaults (the same filling the server does on a test
 * send).
 */
export function EmailPreview({ template, label }: { template: unknown; label: string }) {
  const [device, setDevice] = useState<PreviewDevice>('desktop');
  const [isFilled, setFilled] = useState(false);
  const { workspaceId } = useMediaWorkspace();
  const preview = usePreviewValues(workspaceId);
  const markup = emailMarkup(template);
  const tags = mergeTagsIn(markup);
  if (!markup)
    return (
      <Text size="sm" c="dimmed">
        {template ? 'Template has no content yet' : 'No template yet'}
      </Text>
    );
  const body = isFilled ? fillMergeTags(markup, preview.values, { html: true }) : markup;

  return (
    <Stack gap={6}>
      <Group gap="sm">
        <DeviceToggle value={device} onChange={setDevice} label={`${label} preview size`} />
        <Switch
          size="xs"
          label="Preview for a profile"
          disabled={tags.length === 0}
          checked={isFilled}
          onChange={(event) => setFilled(event.currentTarget.checked)}
        />
      </Group>
      {isFilled && <PreviewValuesForm tags={tags} preview={preview} />}
      {/* The document a recipient gets: at phone width its columns stack as they will there. */}
      <EmailDocumentFrame title={`${label} preview`} document={emailDocument(body)} device={device} />
    </Stack>
  );
}

import { useState } from 'react';
import {
  Button,
  Group,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { fillMergeTags, mergeTagsIn } from '@shared/email/merge-tags';
import { useMediaWorkspace } from '../media/media-workspace';
import { getProfile } from './api/get-profile';

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

/**
 * A rendered email in a sandboxed frame (no script can run), at desktop or phone width, with its merge
 * tags shown as written or filled for one customer profile: a stored profile's attribute values (loaded
 * by its id) or values typed here, else the tags' defaults (the same filling the server does on a test
 * send).
 */
export function EmailPreview({ template, label }: { template: unknown; label: string }) {
  const [device, setDevice] = useState<PreviewDevice>('desktop');
  const [isFilled, setFilled] = useState(false);
  const [attributes, setAttributes] = useState<Record<string, string>>({});
  const [profileId, setProfileId] = useState('');
  const [profileError, setProfileError] = useState<string | null>(null);
  const [isLoadingProfile, setLoadingProfile] = useState(false);
  const { workspaceId } = useMediaWorkspace();
  const markup = emailMarkup(template);
  const tags = mergeTagsIn(markup);
  if (!markup)
    return (
      <Text size="sm" c="dimmed">
        {template ? 'Template has no content yet' : 'No template yet'}
      </Text>
    );
  const body = isFilled ? fillMergeTags(markup, attributes, { html: true }) : markup;

  async function handleLoadProfile() {
    setLoadingProfile(true);
    setProfileError(null);
    try {
      const { profile } = await getProfile(workspaceId, profileId.trim());
      const values: Record<string, string> = {};
      for (const tag of tags) {
        const value = Object.hasOwn(profile.attributes, tag.key) ? profile.attributes[tag.key] : undefined;
        if (value === null || value === undefined || typeof value === 'object') {
          if (Array.isArray(value)) values[tag.key] = value.join(', ');
          continue;
        }
        values[tag.key] = String(value);
      }
      setAttributes(values);
    } catch (err) {
      setProfileError(err instanceof Error ? err.message : String(err));
    } finally {
      setLoadingProfile(false);
    }
  }

  return (
    <Stack gap={6}>
      <Group gap="sm">
        <SegmentedControl
          size="xs"
          aria-label={`${label} preview size`}
          value={device}
          onChange={(next) => setDevice(next as PreviewDevice)}
          data={[
            { value: 'desktop', label: 'Desktop' },
            { value: 'phone', label: 'Phone' },
          ]}
        />
        <Switch
          size="xs"
          label="Preview for a profile"
          disabled={tags.length === 0}
          checked={isFilled}
          onChange={(event) => setFilled(event.currentTarget.checked)}
        />
      </Group>
      {isFilled && (
        <Group gap="xs" align="flex-end">
          <TextInput
            size="xs"
            label="Customer profile id"
            placeholder="Load a stored profile's values"
            value={profileId}
            error={profileError}
            onChange={(event) => setProfileId(event.currentTarget.value)}
          />
          <Button
            size="xs"
            variant="light"
            disabled={!profileId.trim() || !workspaceId}
            loading={isLoadingProfile}
            onClick={handleLoadProfile}
          >
            Load profile
          </Button>
        </Group>
      )}
      {isFilled && (
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
          {tags.map((tag) => (
            <TextInput
              key={tag.key}
              size="xs"
              label={tag.key}
              placeholder={tag.defaultValue ?? '(empty)'}
              value={attributes[tag.key] ?? ''}
              onChange={(event) => {
                const next = event.currentTarget.value;
                setAttributes((current) => ({ ...current, [tag.key]: next }));
              }}
            />
          ))}
        </SimpleGrid>
      )}
      <Paper
        withBorder
        radius="md"
        p={0}
        style={{ overflow: 'auto', background: 'var(--mantine-color-gray-1)' }}
      >
        <iframe
          title={`${label} preview`}
          // No scripts ever; same origin only so the workspace's own images load with the session.
          sandbox="allow-same-origin"
          srcDoc={`<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"></head><body style="margin:0">${body}</body></html>`}
          style={{
            display: 'block',
            width: DEVICE_WIDTHS[device],
            maxWidth: '100%',
            height: 480,
            border: 0,
            margin: '0 auto',
            background: 'white',
          }}
        />
      </Paper>
    </Stack>
  );
}

import { useState } from 'react';
import { Button, Group, SimpleGrid, TextInput } from '@mantine/core';
import type { MergeTag } from '@shared/email/merge-tags';
import { useCanCustomerData } from '@web/lib/workspace';
import { getProfile } from './api/get-profile';

/** A stored profile's values for the merge tags, as text: lists joined with commas, other objects skipped. */
function profileTagValues(attributes: Record<string, unknown>, tags: readonly MergeTag[]) {
  const values: Record<string, string> = {};
  for (const tag of tags) {
    const value = Object.hasOwn(attributes, tag.key) ? attributes[tag.key] : undefined;
    if (value === null || value === undefined || typeof value === 'object') {
      if (Array.isArray(value)) values[tag.key] = value.join(', ');
      continue;
    }
    values[tag.key] = String(value);
  }
  return values;
}

/** The values the preview fills its merge tags with: typed here, or loaded from a stored profile by id. */
export function usePreviewValues(workspaceId: string) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [profileId, setProfileId] = useState('');
  const [profileError, setProfileError] = useState<string | null>(null);
  const [isLoadingProfile, setLoadingProfile] = useState(false);

  async function loadProfile(tags: readonly MergeTag[]) {
    setLoadingProfile(true);
    setProfileError(null);
    try {
      const { profile } = await getProfile(workspaceId, profileId.trim());
      setValues(profileTagValues(profile.attributes, tags));
    } catch (err) {
      setProfileError(err instanceof Error ? err.message : String(err));
    } finally {
      setLoadingProfile(false);
    }
  }

  const setValue = (key: string, value: string) => setValues((current) => ({ ...current, [key]: value }));

  return {
    workspaceId,
    values,
    setValue,
    profileId,
    setProfileId,
    profileError,
    isLoadingProfile,
    loadProfile,
  };
}

/**
 * The customer profile to load (for members who may read customer data), and an input per merge tag
 * holding the value it is filled with.
 */
export function PreviewValuesForm({
  tags,
  preview,
}: {
  tags: readonly MergeTag[];
  preview: ReturnType<typeof usePreviewValues>;
}) {
  const { workspaceId, values, setValue, profileId, setProfileId, profileError, isLoadingProfile } = preview;
  const canReadProfiles = useCanCustomerData(workspaceId, 'read');
  return (
    <>
      {canReadProfiles && (
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
            onClick={() => preview.loadProfile(tags)}
          >
            Load profile
          </Button>
        </Group>
      )}
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
        {tags.map((tag) => (
          <TextInput
            key={tag.key}
            size="xs"
            label={tag.key}
            placeholder={tag.defaultValue ?? '(empty)'}
            value={values[tag.key] ?? ''}
            onChange={(event) => setValue(tag.key, event.currentTarget.value)}
          />
        ))}
      </SimpleGrid>
    </>
  );
}

import { Group, Select, Stack, Switch, Text } from '@mantine/core';
import type { CampaignReadiness } from '@shared/api/campaigns';
import { FormError } from '@web/components/form-error';
import { useSaveRecipients } from './api/save-recipients';

/**
 * Who the workspace's campaigns go to, beside whom this one reaches: the attribute addresses are read
 * from and whether unknown consent is mailed. A manager changes them here (a workspace setting, the
 * same for every campaign); anyone else reads them.
 */
export function RecipientRules({
  workspaceId,
  readiness,
}: {
  workspaceId: string;
  readiness: CampaignReadiness;
}) {
  const save = useSaveRecipients(workspaceId);
  const { emailAttribute, mailUnknownConsent } = readiness;
  if (!readiness.canChangeRecipients) {
    return (
      <Text size="sm" c="dimmed" data-testid="recipient-rules">
        Addresses are read from the attribute “{emailAttribute}”.{' '}
        {mailUnknownConsent
          ? 'Profiles whose consent is unknown are mailed.'
          : 'Only profiles that subscribed are mailed; consent unknown is left out.'}{' '}
        A workspace manager can change this.
      </Text>
    );
  }
  const choices = readiness.addressAttributes.map((a) => ({
    value: a.key,
    label: a.label === a.key ? a.key : `${a.label} (${a.key})`,
  }));
  if (!choices.some((c) => c.value === emailAttribute)) {
    choices.unshift({ value: emailAttribute, label: emailAttribute });
  }
  return (
    <Stack gap={6} data-testid="recipient-rules">
      <Group gap="md" align="flex-end" wrap="wrap">
        <Select
          label="Addresses are read from"
          aria-label="Addresses are read from"
          description="For every campaign of the workspace"
          size="xs"
          w={260}
          data={choices}
          value={emailAttribute}
          allowDeselect={false}
          disabled={save.isPending}
          onChange={(value) => value && value !== emailAttribute && save.mutate({ emailAttribute: value })}
        />
        <Switch
          size="sm"
          label="Also mail profiles whose consent is unknown"
          aria-label="Also mail profiles whose consent is unknown"
          checked={mailUnknownConsent}
          disabled={save.isPending}
          onChange={(event) => save.mutate({ mailUnknownConsent: event.currentTarget.checked })}
        />
      </Group>
      <FormError error={save.error} />
    </Stack>
  );
}

import { Anchor, Select, Skeleton, Stack, Text } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { CAMPAIGN_MESSAGES } from '@shared/api/campaigns';
import { settingsPath } from '@web/app/guards';
import { useSending } from '@web/lib/senders';
import { FormError } from '../form-error';
import { SenderDisplay, senderLabel, UnverifiedBadge, verifiedDomains } from '../fields/sender-display';
import type { FieldProps } from '../fields/types';
import { INPUT_ORDER } from '../fields/view-value';

/** No sender to choose: where to add one. */
function NoSenders({ workspaceId }: { workspaceId: string }) {
  return (
    <Text size="sm" c="dimmed" data-testid="no-senders">
      No senders yet.{' '}
      <Anchor component={Link} to={settingsPath(workspaceId, 'sending')} size="sm">
        Add one in Settings › Sending
      </Anchor>
    </Text>
  );
}

/**
 * The campaign's sender (the `sender` field type): one of the workspace's senders from Settings › Sending,
 * those of unverified domains marked, since their mail likely lands in spam.
 */
export function SenderField(props: FieldProps) {
  const { field, value, onChange, readOnly, error, inputId, compact } = props;
  const { workspace = '' } = useParams();
  const sending = useSending(workspace, !readOnly);
  if (readOnly) return <SenderDisplay {...props} />;
  if (sending.error) return <FormError error={sending.error} />;
  if (!sending.data) return <Skeleton h={36} radius="sm" aria-label={`Loading ${field.label}`} />;

  const { senders } = sending.data;
  const verified = verifiedDomains(sending.data);
  const chosen = typeof value === 'string' ? value : null;
  const chosenSender = senders.find((sender) => sender.id === chosen);
  if (senders.length === 0 && !chosen) return <NoSenders workspaceId={workspace} />;
  const isUnverified = (id: string) => {
    const sender = senders.find((entry) => entry.id === id);
    return !!sender && !verified.has(sender.domain);
  };
  const data = senders.map((sender) => ({ value: sender.id, label: senderLabel(sender) }));
  // A sender deleted since it was chosen stays visible until another is picked.
  if (chosen && !chosenSender) data.push({ value: chosen, label: 'This sender no longer exists' });
  const unverifiedChosen = chosen !== null && isUnverified(chosen);

  return (
    <Select
      id={inputId}
      aria-label={field.label}
      data={data}
      value={chosen}
      onChange={(next) => onChange(next ?? '')}
      placeholder="Choose a sender"
      allowDeselect={false}
      error={error ?? (chosen && !chosenSender ? CAMPAIGN_MESSAGES.senderGone : undefined)}
      description={
        compact
          ? undefined
          : unverifiedChosen
            ? `Not verified: ${CAMPAIGN_MESSAGES.likelySpam}`
            : field.description
      }
      inputWrapperOrder={INPUT_ORDER}
      size={compact ? 'xs' : 'sm'}
      renderOption={({ option }) => (
        <Stack gap={2} align="flex-start">
          <Text size="sm">{option.label}</Text>
          {isUnverified(option.value) && <UnverifiedBadge />}
        </Stack>
      )}
    />
  );
}

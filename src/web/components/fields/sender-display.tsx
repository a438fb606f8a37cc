import { Badge, Group, Text } from '@mantine/core';
import { useParams } from 'react-router';
import type { Sender, SendingSettings } from '@shared/api/senders';
import { useSending } from '@web/lib/senders';
import type { FieldProps } from './types';
import { ViewValue } from './view-value';

/** Mail clients show a sender this way: `Acme News <news@acme.io>`. */
export const senderLabel = (sender: Pick<Sender, 'fromName' | 'fromAddress'>) =>
  `${sender.fromName} <${sender.fromAddress}>`;

/** The domains of the workspace's senders whose SPF and DKIM records were found. */
export const verifiedDomains = (settings: SendingSettings) =>
  new Set(settings.domains.filter((domain) => domain.verified).map((domain) => domain.domain));

/** Marks a sender whose domain is not verified yet: its mail likely lands in spam. */
export function UnverifiedBadge() {
  return (
    <Badge size="sm" variant="light" color="orange" tt="none">
      not verified: likely spam
    </Badge>
  );
}

/** One sender as read: its name and address, marked when its domain is not verified. */
function SenderSummary({ settings, senderId }: { settings: SendingSettings; senderId: string }) {
  const sender = settings.senders.find((entry) => entry.id === senderId);
  if (!sender)
    return (
      <Text size="sm" c="orange.9">
        This sender no longer exists
      </Text>
    );
  return (
    <Group gap="xs">
      <Text size="sm">{senderLabel(sender)}</Text>
      {!verifiedDomains(settings).has(sender.domain) && <UnverifiedBadge />}
    </Group>
  );
}

/**
 * A sender field in view and compare modes: the sender of the workspace in the URL it names, loaded from
 * Settings › Sending; its id until that answers, and the id alone outside a workspace.
 */
export function SenderDisplay({ value }: FieldProps) {
  const { workspace = '' } = useParams();
  const id = typeof value === 'string' ? value : '';
  const sending = useSending(workspace, !!workspace && !!id);
  if (!id) return <ViewValue />;
  if (!sending.data) return <ViewValue>{id}</ViewValue>;
  return <SenderSummary settings={sending.data} senderId={id} />;
}

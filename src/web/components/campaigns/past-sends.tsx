import { Badge, Button, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { CampaignSend } from '@shared/api/campaigns';
import { formatDateTime } from '@web/lib/dates';
import { formatCount, recipientsText } from './format';
import { STATE_COLORS } from './send-progress';

export const resendLabel = (count: number) => `Resend the ${formatCount(count)} unconfirmed`;

/** The confirmation of a resend to a send's unconfirmed recipients, with its risk. */
function confirmResend(send: CampaignSend, onConfirm: () => void) {
  const who = recipientsText(send.counts.unconfirmed);
  modals.openConfirmModal({
    title: `Resend to ${who}?`,
    children: (
      <Text size="sm">
        {`The mail server never confirmed it took these messages, but it may have: some of the ${who} may get the campaign twice.`}
      </Text>
    ),
    labels: { confirm: 'Resend', cancel: 'Cancel' },
    confirmProps: { color: 'orange' },
    onConfirm,
  });
}

function SendState({ send }: { send: CampaignSend }) {
  return (
    <>
      <Badge
        size="sm"
        variant="light"
        color={STATE_COLORS[send.state]}
        styles={{ label: { overflow: 'visible' } }}
      >
        {send.state}
      </Badge>
      {send.error && (
        <Text size="xs" c="red">
          {send.error}
        </Text>
      )}
    </>
  );
}

/** Whom a send went to: an A/B test's variant share or the rest, or the members it was sent to. */
const sendAudience = (send: CampaignSend) =>
  send.experiment
    ? send.experiment.variant === 'winner'
      ? 'Winner, to the rest'
      : `Variant ${send.experiment.variant} test`
    : send.everyone
      ? 'Everyone'
      : 'New members';

const total = (sends: readonly CampaignSend[], count: 'sent' | 'recipients') =>
  sends.reduce((sum, send) => sum + send.counts[count], 0);

/** The campaign's sends, newest first, each with a button that shows its results; then their total. */
export function PastSends({
  sends,
  selectedId,
  onSelect,
  onResend,
}: {
  sends: readonly CampaignSend[];
  selectedId: string | null;
  onSelect: (sendId: string) => void;
  /** Resends a finished send's unconfirmed recipients; none: the caller may not send. */
  onResend?: (sendId: string) => void;
}) {
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table verticalSpacing={6} fz="sm" aria-label="Sends">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Started</Table.Th>
            <Table.Th>By</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th>To</Table.Th>
            <Table.Th ta="right">Sent</Table.Th>
            <Table.Th>
              <VisuallyHidden>Results</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {sends.map((send) => {
            const isSelected = send.id === selectedId;
            const when = formatDateTime(send.startedAt ?? send.createdAt);
            return (
              <Table.Tr key={send.id} bg={isSelected ? 'var(--mantine-primary-color-light)' : undefined}>
                <Table.Td>{when}</Table.Td>
                <Table.Td>{send.createdByName}</Table.Td>
                <Table.Td>
                  <SendState send={send} />
                </Table.Td>
                <Table.Td>{sendAudience(send)}</Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {formatCount(send.counts.sent)} / {formatCount(send.counts.recipients)}
                  {send.counts.unconfirmed > 0 && (
                    <Text size="xs" c="orange">
                      {formatCount(send.counts.unconfirmed)} unconfirmed
                    </Text>
                  )}
                </Table.Td>
                <Table.Td ta="right">
                  <Stack gap={4} align="flex-end">
                    {onResend && send.state === 'done' && send.counts.unconfirmed > 0 && (
                      <Button
                        size="compact-xs"
                        variant="light"
                        color="orange"
                        onClick={() => confirmResend(send, () => onResend(send.id))}
                      >
                        {resendLabel(send.counts.unconfirmed)}
                      </Button>
                    )}
                    <Button
                      size="compact-xs"
                      variant={isSelected ? 'light' : 'subtle'}
                      aria-pressed={isSelected}
                      disabled={send.startedAt === null}
                      aria-label={`Results of the send of ${when}${send.experiment ? ` (${sendAudience(send)})` : ''}`}
                      onClick={() => onSelect(send.id)}
                    >
                      Results
                    </Button>
                  </Stack>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
        {sends.length > 1 && (
          <Table.Tfoot>
            <Table.Tr fw={600}>
              <Table.Td colSpan={4}>Total of {formatCount(sends.length)} sends</Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }} data-testid="sends-total">
                {formatCount(total(sends, 'sent'))} / {formatCount(total(sends, 'recipients'))}
              </Table.Td>
              <Table.Td />
            </Table.Tr>
          </Table.Tfoot>
        )}
      </Table>
    </Table.ScrollContainer>
  );
}

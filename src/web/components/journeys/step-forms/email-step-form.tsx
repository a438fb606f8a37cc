import { Select, Stack, TextInput } from '@mantine/core';
import { useSending } from '@web/lib/senders';
import { senderLabel } from '../../fields/sender-display';
import { DurationInput } from '../duration-input';
import { ItemSelect, withValue } from '../pickers';
import type { StepFormProps } from './types';

const DAY = 24 * 3600;

/** Email: a template and a sender of the workspace, a subject (empty: the template's), and how long a held-back message may wait. */
export function EmailStepForm({ step, onChange, readOnly, workspaceId }: StepFormProps) {
  const sending = useSending(workspaceId);
  const sender = typeof step.sender === 'string' && step.sender ? step.sender : null;
  const senderOptions = (sending.data?.senders ?? []).map((each) => ({
    value: each.id,
    label: senderLabel(each),
  }));
  return (
    <Stack gap="xs">
      <ItemSelect
        schema="email"
        label="Email template"
        placeholder="Choose a template"
        nothingFound="No email templates"
        value={step.email}
        readOnly={readOnly}
        onChange={(email) => onChange({ ...step, email })}
      />
      <Select
        size="xs"
        label="Sender"
        placeholder="Choose a sender"
        data={withValue(senderOptions, sender)}
        value={sender}
        readOnly={readOnly}
        nothingFoundMessage="No senders: add one in Settings › Sending"
        onChange={(value) => onChange({ ...step, sender: value ?? undefined })}
      />
      <TextInput
        size="xs"
        label="Subject"
        description="Empty: the template's subject"
        value={typeof step.subject === 'string' ? step.subject : ''}
        readOnly={readOnly}
        onChange={(event) => onChange({ ...step, subject: event.currentTarget.value || undefined })}
      />
      <DurationInput
        label="Held back at most"
        description="A message the caps or quiet hours hold back expires after this long (default a day)"
        seconds={step.deferLimitSeconds ?? DAY}
        readOnly={readOnly}
        onChange={(deferLimitSeconds) => onChange({ ...step, deferLimitSeconds })}
      />
    </Stack>
  );
}

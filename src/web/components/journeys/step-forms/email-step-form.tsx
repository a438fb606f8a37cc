import { useEffect, useState } from 'react';
import { Select, Stack, TextInput } from '@mantine/core';
import type { Reference } from '@shared/schemas/types';
import { useSending } from '@web/lib/senders';
import { useFieldEnvironment } from '../../fields/field-environment';
import { senderLabel } from '../../fields/sender-display';
import type { StepFormProps } from './types';

const EMAIL_SCHEMA = 'email';

/** The workspace's email templates, through the form's reference search. */
function useEmailTemplates() {
  const { referenceSearch } = useFieldEnvironment();
  const [templates, setTemplates] = useState<Reference[]>([]);
  useEffect(() => {
    let isCurrent = true;
    void referenceSearch?.([EMAIL_SCHEMA], '').then((found) => isCurrent && setTemplates(found));
    return () => {
      isCurrent = false;
    };
  }, [referenceSearch]);
  return templates;
}

/** Email: a template and a sender of the workspace, and a subject (empty: the template's). */
export function EmailStepForm({ step, onChange, readOnly, workspaceId }: StepFormProps) {
  const templates = useEmailTemplates();
  const sending = useSending(workspaceId);
  const template = typeof step.email === 'string' && step.email ? step.email : null;
  const sender = typeof step.sender === 'string' && step.sender ? step.sender : null;
  const templateOptions = templates.map((each) => ({ value: each.id, label: each.label ?? each.id }));
  if (template && !templateOptions.some((option) => option.value === template))
    templateOptions.push({ value: template, label: template });
  const senderOptions = (sending.data?.senders ?? []).map((each) => ({
    value: each.id,
    label: senderLabel(each),
  }));
  if (sender && !senderOptions.some((option) => option.value === sender))
    senderOptions.push({ value: sender, label: sender });
  return (
    <Stack gap="xs">
      <Select
        size="xs"
        label="Email template"
        placeholder="Choose a template"
        data={templateOptions}
        value={template}
        searchable
        readOnly={readOnly}
        nothingFoundMessage="No email templates"
        onChange={(value) => onChange({ ...step, email: value ?? undefined })}
      />
      <Select
        size="xs"
        label="Sender"
        placeholder="Choose a sender"
        data={senderOptions}
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
    </Stack>
  );
}

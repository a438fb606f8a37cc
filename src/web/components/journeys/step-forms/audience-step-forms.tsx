import { NumberInput, Stack, TextInput } from '@mantine/core';
import { AudienceSelect } from '../pickers';
import type { StepFormProps } from './types';
import { EventFields } from './wait-step-forms';

/** Audience branch: members of the audience leave by "yes", the others by "no". */
export function AudienceBranchStepForm({ step, onChange, readOnly }: StepFormProps) {
  return (
    <AudienceSelect
      label="Members of this audience take “yes”"
      value={step.audience}
      readOnly={readOnly}
      onChange={(audience) => onChange({ ...step, audience })}
    />
  );
}

/** Event branch: profiles with the event in the last days take "yes", the others "no". */
export function EventBranchStepForm({ step, onChange, readOnly }: StepFormProps) {
  return (
    <Stack gap="xs">
      <EventFields step={step} onChange={onChange} readOnly={readOnly} />
      <NumberInput
        size="xs"
        label="Within the last days"
        min={1}
        max={3650}
        allowDecimal={false}
        value={typeof step.withinDays === 'number' ? step.withinDays : 30}
        readOnly={readOnly}
        onChange={(days) => onChange({ ...step, withinDays: Number(days) || 1 })}
      />
    </Stack>
  );
}

/** Webhook: the URL the profile is POSTed to; a failed call leaves by "failed". */
export function WebhookStepForm({ step, onChange, readOnly }: StepFormProps) {
  return (
    <TextInput
      size="xs"
      label="URL"
      description="Profile and journey are POSTed here, signed; a failed call takes “failed”"
      placeholder="https://"
      value={typeof step.url === 'string' ? step.url : ''}
      readOnly={readOnly}
      onChange={(event) => onChange({ ...step, url: event.currentTarget.value || undefined })}
    />
  );
}

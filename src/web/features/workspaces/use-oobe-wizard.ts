import { useState } from 'react';
import { useForm } from '@mantine/form';
import { useNavigate } from 'react-router';
import { Basics, type Workspace } from '@shared/api/workspaces';
import { normaliseStages } from '@shared/publishing/stages';
import { explorePath } from '@web/app/guards';
import { useUpdateWorkspace } from '@web/lib/workspace';
import { showToast } from '@web/lib/toast';

const OOBE_STEPS = ['Name', 'Domains', 'Stages', 'Time zones'] as const;

/**
 * The onboarding form one step at a time: each step checks its own fields before the next, and the
 * last saves the basics and marks onboarding done.
 */
export function useOobeWizard(workspace: Workspace) {
  const update = useUpdateWorkspace(workspace.id);
  const navigate = useNavigate();
  const [active, setActive] = useState(0);
  const form = useForm({
    mode: 'controlled',
    initialValues: {
      name: workspace.basics.name || workspace.name,
      domains: [...workspace.basics.domains],
      stages: normaliseStages(workspace.basics.stages),
      timezones: [...workspace.basics.timezones],
    },
    validate: {
      name: (value) => (Basics.shape.name.safeParse(value).success ? null : 'Name is required'),
      domains: (value) => (value.length ? null : 'Choose at least one domain'),
      timezones: (value) => (value.length ? null : 'Choose at least one time zone'),
    },
  });

  const stepFields: Record<number, (keyof typeof form.values)[]> = {
    0: ['name'],
    1: ['domains'],
    3: ['timezones'],
  };

  const handleNext = () => {
    const fields = stepFields[active] ?? [];
    const hasErrors = fields.map((field) => form.validateField(field).hasError).some(Boolean);
    if (!hasErrors) setActive((step) => Math.min(step + 1, OOBE_STEPS.length - 1));
  };

  const handleBack = () => setActive((s) => Math.max(0, s - 1));

  const handleFinish = form.onSubmit((values) =>
    update.mutate(
      {
        basics: {
          name: values.name.trim(),
          domains: values.domains,
          stages: normaliseStages(values.stages),
          timezones: values.timezones,
        },
        oobe: { done: true },
        baseVersion: workspace.version,
      },
      {
        onSuccess: (saved) => {
          showToast({ color: 'teal', title: 'All set', message: `${saved.basics.name} is ready.` });
          navigate(explorePath(saved.id), { replace: true });
        },
      },
    ),
  );

  const isLast = active === OOBE_STEPS.length - 1;

  return { form, update, active, setActive, isLast, handleNext, handleBack, handleFinish };
}

export type OobeForm = ReturnType<typeof useOobeWizard>['form'];

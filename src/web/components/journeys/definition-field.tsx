import { lazy, Suspense } from 'react';
import { Skeleton } from '@mantine/core';
import type { CodeField as CodeFieldDef } from '@shared/schemas/types';
import { CodeField } from '../fields/code-field';
import { useFieldEnvironment } from '../fields/field-environment';
import type { FieldProps } from '../fields/types';

const JOURNEY_SCHEMA = 'journey';
const DEFINITION_FIELD = 'definition';

/** Only journey screens load the canvas. */
const JourneyField = lazy(() => import('./journey-field'));

/** The code field, except a journey's definition, which is drawn on the journey canvas. */
export function CodeOrJourneyField(props: FieldProps) {
  const { schema } = useFieldEnvironment();
  const field = props as FieldProps<CodeFieldDef>;
  if (schema.name !== JOURNEY_SCHEMA || props.field.key !== DEFINITION_FIELD) return <CodeField {...field} />;
  return (
    <Suspense fallback={<Skeleton h={560} radius="md" />}>
      <JourneyField {...field} />
    </Suspense>
  );
}

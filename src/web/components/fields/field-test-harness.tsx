/** Renders one field in a stateful scope, for the field components' tests. */
import { useState } from 'react';
import type { FieldDef } from '@shared/schemas/types';
import { BUILT_IN_MODEL } from '@shared/model/registry';
import { clientTask } from '@shared/schemas/admin';
import { workspaceTimezones } from '@shared/time/format';
import type { ValidationErrors } from '@shared/validation/validate-item';
import { renderUi } from '../item-form/test-utils';
import { DEFAULT_SCHEMA_OPTIONS, FieldEnvironmentContext } from './field-environment';
import { FieldInput } from './field-input';
import type { FieldEnvironment, ItemData } from './types';

export interface Harness {
  /** The scope as it is now. */
  scope: () => ItemData;
  /** Every patch the field sent, in order. */
  patches: ItemData[];
}

export async function renderField(
  field: FieldDef,
  initial: ItemData = {},
  options: { readOnly?: boolean; environment?: Partial<FieldEnvironment>; errors?: ValidationErrors } = {},
): Promise<Harness> {
  const harness: Harness = { scope: () => current, patches: [] };
  let current = initial;
  const environment: FieldEnvironment = {
    schema: clientTask,
    model: BUILT_IN_MODEL,
    timezones: workspaceTimezones(),
    schemaOptions: DEFAULT_SCHEMA_OPTIONS,
    loadedDefaults: new Set(),
    fieldEditors: {},
    ...options.environment,
  };
  function Host() {
    const [scope, setScope] = useState<ItemData>(initial);
    return (
      <FieldEnvironmentContext.Provider value={environment}>
        <FieldInput
          field={field}
          scope={scope}
          readOnly={options.readOnly ?? false}
          errors={options.errors ?? {}}
          onPatch={(patch) => {
            harness.patches.push(patch);
            setScope((previous) => {
              current = { ...previous, ...patch };
              return current;
            });
          }}
        />
      </FieldEnvironmentContext.Provider>
    );
  }
  await renderUi(<Host />);
  return harness;
}

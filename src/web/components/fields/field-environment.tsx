import { createContext, useContext } from 'react';
import { BUILT_IN_DOMAINS } from '@shared/schemas/catalogue';
import { clientTask } from '@shared/schemas/admin';
import { workspaceTimezones } from '@shared/time/format';
import type { FieldEnvironment } from './types';

export const DEFAULT_SCHEMA_OPTIONS = BUILT_IN_DOMAINS.flatMap((domain) =>
  domain.schemas.map((schema) => ({ value: schema.name, label: `${schema.title} (${domain.title})` })),
);

const fallback: FieldEnvironment = {
  schema: clientTask,
  timezones: workspaceTimezones(),
  schemaOptions: DEFAULT_SCHEMA_OPTIONS,
  loadedDefaults: new Set(),
  fieldEditors: {},
};

export const FieldEnvironmentContext = createContext<FieldEnvironment>(fallback);

export const useFieldEnvironment = () => useContext(FieldEnvironmentContext);

import { createContext, useContext } from 'react';
import { BUILT_IN_MODEL, type ContentModel } from '@shared/model/registry';
import { clientTask } from '@shared/schemas/admin';
import { workspaceTimezones } from '@shared/time/format';
import type { FieldEnvironment } from './types';

/**
 * A schema selector's choices: the schemas of the named domains (of every domain when none are named),
 * each labelled with its domain.
 */
export function schemaOptionsOf(model: ContentModel, domainNames?: readonly string[]) {
  const domains = domainNames
    ? [...new Set(domainNames)].flatMap((name) => model.domain(name) ?? [])
    : model.domains;
  return domains.flatMap((domain) =>
    domain.schemas.map((schema) => ({ value: schema.name, label: `${schema.title} (${domain.title})` })),
  );
}

export const DEFAULT_SCHEMA_OPTIONS = schemaOptionsOf(BUILT_IN_MODEL);

const fallback: FieldEnvironment = {
  schema: clientTask,
  model: BUILT_IN_MODEL,
  timezones: workspaceTimezones(),
  schemaOptions: DEFAULT_SCHEMA_OPTIONS,
  loadedDefaults: new Set(),
  fieldEditors: {},
};

export const FieldEnvironmentContext = createContext<FieldEnvironment>(fallback);

export const useFieldEnvironment = () => useContext(FieldEnvironmentContext);

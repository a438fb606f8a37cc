import type { Domain, SchemaType } from './types';

export type SchemaTypeInput = Omit<SchemaType, 'pluralTitle'> & { pluralTitle?: string };

/** A schema type with its defaults filled: pluralTitle is title + 's' unless given (spec §3). */
export function defineSchema(input: SchemaTypeInput): SchemaType {
  return { ...input, pluralTitle: input.pluralTitle ?? `${input.title}s` };
}

export type DomainInput = Omit<Domain, 'schemaRefs' | 'admin' | 'disabled'> & {
  admin?: boolean;
  disabled?: boolean;
};

/** A domain whose schemaRefs are the names of its schemas. */
export function defineDomain(input: DomainInput): Domain {
  return {
    ...input,
    schemaRefs: input.schemas.map((schema) => schema.name),
    admin: input.admin ?? false,
    disabled: input.disabled ?? false,
  };
}

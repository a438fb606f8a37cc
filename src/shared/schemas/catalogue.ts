import { admin } from './admin';
import { assets } from './assets';
import { blogging } from './blogging';
import { marketing } from './marketing';
import type { Domain, SchemaType } from './types';

/** Built-in domains (DESIGN §4), in display order. */
export const BUILT_IN_DOMAINS: readonly Domain[] = [marketing, assets, blogging, admin];

/** Spec §3: the default domain list contains blogging. */
export const DEFAULT_DOMAINS: readonly string[] = ['blogging'];

const domainsByName = new Map(BUILT_IN_DOMAINS.map((domain) => [domain.name, domain]));
const schemasByName = new Map(
  BUILT_IN_DOMAINS.flatMap((domain) => domain.schemas.map((schema) => [schema.name, schema] as const)),
);
const domainBySchema = new Map(
  BUILT_IN_DOMAINS.flatMap((domain) => domain.schemas.map((schema) => [schema.name, domain] as const)),
);

export const getDomain = (name: string): Domain | undefined => domainsByName.get(name);

export const getSchema = (name: string): SchemaType | undefined => schemasByName.get(name);

/** The domain a schema belongs to. */
export const domainOfSchema = (schemaName: string): Domain | undefined => domainBySchema.get(schemaName);

/** The schemas of the named domains, in the given order; unknown and disabled domains give none. */
export function schemasOfDomains(
  domainNames: readonly string[],
  domains: readonly Domain[] = BUILT_IN_DOMAINS,
): SchemaType[] {
  return [...new Set(domainNames)].flatMap((name) => {
    const domain = domains.find((candidate) => candidate.name === name);
    return domain && !domain.disabled ? [...domain.schemas] : [];
  });
}

export const allSchemaNames = (): string[] => [...schemasByName.keys()];

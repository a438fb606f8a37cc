import type { AttributeType, PropertyType } from './operators';

/** What a criteria tree refers to in one workspace: attribute, event and audience items by id. */
export interface CriteriaCatalog {
  attributes: Map<string, { key: string; type: AttributeType; label: string; options: string[] }>;
  events: Map<string, { key: string; label: string; properties: Map<string, PropertyType> }>;
  audiences: Map<string, { label: string; criteria: unknown }>;
}

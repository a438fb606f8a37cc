import { BUILT_IN_DOMAINS } from '../schemas/catalogue';
import type { BlockType, Domain, SchemaType } from '../schemas/types';
import type { ContentModelDoc, RenamedField } from './types';

/**
 * One workspace's content model at one version, as the code reads it: every lookup of a schema, a
 * domain or a block type goes through here. Built once per model version and shared, so it holds
 * nothing that depends on the caller.
 */
export class ContentModel {
  readonly domains: readonly Domain[];
  private readonly schemasByName = new Map<string, SchemaType>();
  private readonly domainBySchema = new Map<string, Domain>();
  private readonly blockTypesByName: Readonly<Record<string, BlockType>>;

  constructor(
    readonly version: number,
    readonly doc: ContentModelDoc,
    /** Fields renamed lately, whose old names delivery still answers. */
    readonly renamed: readonly RenamedField[] = [],
  ) {
    this.blockTypesByName = Object.freeze(
      Object.fromEntries(doc.blockTypes.map((blockType) => [blockType.name, blockType])),
    );
    const withBlocks = doc.blockTypes.length > 0;
    this.domains = doc.domains.map((domain) => {
      const schemas = domain.schemas.map((schema) =>
        withBlocks ? { ...schema, blockTypes: this.blockTypesByName } : schema,
      );
      const built: Domain = {
        name: domain.name,
        title: domain.title,
        schemaRefs: schemas.map((schema) => schema.name),
        schemas,
        admin: domain.admin ?? false,
        disabled: false,
        ...(domain.landingSchema ? { landingSchema: domain.landingSchema } : {}),
      };
      for (const schema of schemas) {
        this.schemasByName.set(schema.name, schema);
        this.domainBySchema.set(schema.name, built);
      }
      return built;
    });
  }

  schema(name: string): SchemaType | undefined {
    return this.schemasByName.get(name);
  }

  domain(name: string): Domain | undefined {
    return this.domains.find((domain) => domain.name === name);
  }

  /** The domain a schema belongs to. */
  domainOf(schemaName: string): Domain | undefined {
    return this.domainBySchema.get(schemaName);
  }

  /** The schemas of the named domains, in the given order; unknown domains give none. */
  schemasOfDomains(domainNames: readonly string[]): SchemaType[] {
    return [...new Set(domainNames)].flatMap((name) => [...(this.domain(name)?.schemas ?? [])]);
  }

  schemaNames(): string[] {
    return [...this.schemasByName.keys()];
  }

  blockType(name: string): BlockType | undefined {
    return this.blockTypesByName[name];
  }

  /** The schema's fields renamed lately whose old names are still answered at `at`. */
  aliasesOf(schemaName: string, at: Date): RenamedField[] {
    const now = at.toISOString();
    return this.renamed.filter((alias) => alias.schema === schemaName && alias.until > now);
  }
}

/** The built-in domains and schemas as a model document (plain JSON): the template every workspace starts from. */
export function builtInModelDoc(): ContentModelDoc {
  return structuredClone({
    domains: BUILT_IN_DOMAINS.map((domain) => ({
      name: domain.name,
      title: domain.title,
      ...(domain.admin ? { admin: true } : {}),
      ...(domain.landingSchema ? { landingSchema: domain.landingSchema } : {}),
      schemas: [...domain.schemas],
    })),
    blockTypes: [],
  });
}

/** Version 0: a workspace whose manager has not changed its model has the built-in one. */
export const BUILT_IN_MODEL = new ContentModel(0, builtInModelDoc());

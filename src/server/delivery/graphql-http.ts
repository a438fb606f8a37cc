import crypto from 'node:crypto';
import {
  execute,
  GraphQLError,
  Kind,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type TypeNode,
} from 'graphql';
import { LRUCache } from 'lru-cache';
import { costOf, type QueryCost } from '@shared/graphql/cost';
import type { SchemaType } from '@shared/schemas/types';
import type { AppContext } from '../context';
import { AppError } from '../http/errors';
import { deliveryCacheOf, type Rendered } from './cache';
import { graphqlContext, type DeliveryStage, type GraphqlContext } from './graphql-data';
import { planQuery, type QueryPlan } from './graphql-plan';
import { buildDeliverySchema } from './graphql-schema';
import { renderedText } from './service';

/** A query longer than this is refused before it is parsed. */
const MAX_QUERY_CHARS = 32_000;
/** Tokens a query may hold (an alias and its field are three): parsing stops beyond. */
const MAX_TOKENS = 4_000;
/** Validation stops after this many errors. */
const MAX_ERRORS = 20;
/** Workspace schemas kept built per process, least recently used out. */
const MAX_SCHEMAS = 100;
/** Parsed and validated queries kept per schema. */
const MAX_DOCUMENTS = 500;
/** Characters of persisted queries kept per process (by their sha256), least recently used out. */
const PERSISTED_CHARS = 8_000_000;

/** A GraphQL request as sent: GET's parameters still text, POST's body parsed. */
export interface GraphqlParams {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
  extensions?: unknown;
}

/** An answer: its status, and for a 200 its body, ETag and the CDN keys it depends on. */
export interface GraphqlAnswer extends Rendered {
  status: number;
  /** An answer no CDN or browser may keep (refusals, PersistedQueryNotFound). */
  uncacheable?: boolean;
}

type Cost = { requested: number; limit: number };

function refusal(status: number, code: string, message: string, cost?: Cost): GraphqlAnswer {
  const body = JSON.stringify({
    errors: [{ message, extensions: { code } }],
    ...(cost && { extensions: { cost } }),
  });
  return { status, body, etag: '', keys: [], uncacheable: true };
}

/** A parameter of GET's query string that holds JSON (variables, extensions), parsed. */
function jsonParam(value: unknown, name: string): Record<string, unknown> | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new AppError('invalid_request', `${name} is not JSON`);
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new AppError('invalid_request', `${name} must be a JSON object`);
  return parsed as Record<string, unknown>;
}

const persisted = new LRUCache<string, string>({
  maxSize: PERSISTED_CHARS,
  sizeCalculation: (query, hash) => query.length + hash.length,
});

const sha256 = (text: string) => crypto.hash('sha256', text, 'hex');

/**
 * The query text of a request: as sent, or by the sha256 of Apollo's automatic persisted queries (a
 * query sent with its hash is kept under it). A string: an answer to send instead.
 */
function queryOf(
  params: GraphqlParams,
  extensions: Record<string, unknown> | undefined,
): string | GraphqlAnswer {
  const apq = extensions?.persistedQuery as { sha256Hash?: unknown } | undefined;
  const hash = typeof apq?.sha256Hash === 'string' ? apq.sha256Hash.toLowerCase() : undefined;
  if (apq !== undefined && (hash === undefined || !/^[0-9a-f]{64}$/.test(hash)))
    return refusal(400, 'BAD_REQUEST', 'extensions.persistedQuery.sha256Hash must be a sha256 in hex');
  const { query } = params;
  if (query !== undefined && query !== null && typeof query !== 'string')
    return refusal(400, 'BAD_REQUEST', 'query must be a string');
  if (typeof query === 'string' && query.length > MAX_QUERY_CHARS)
    return refusal(413, 'QUERY_TOO_LARGE', `A query is at most ${MAX_QUERY_CHARS} characters`);
  if (hash === undefined) {
    if (!query) return refusal(400, 'BAD_REQUEST', 'Send a query (or a persisted query’s hash)');
    return query;
  }
  if (!query) {
    const kept = persisted.get(hash);
    if (kept !== undefined) return kept;
    // As Apollo's clients expect it: they send the query with its hash next.
    return { ...refusal(200, 'PERSISTED_QUERY_NOT_FOUND', 'PersistedQueryNotFound'), status: 200 };
  }
  if (sha256(query) !== hash)
    return refusal(400, 'PERSISTED_QUERY_HASH_MISMATCH', 'provided sha does not match query');
  persisted.set(hash, query);
  return query;
}

const schemas = new LRUCache<string, GraphQLSchema>({ max: MAX_SCHEMAS });

/** The delivered schemas of a model, each once. */
function deliveredSchemas(stage: DeliveryStage): SchemaType[] {
  const byName = new Map<string, SchemaType>();
  for (const domain of stage.model.domains)
    if (!domain.admin) for (const schema of domain.schemas) byName.set(schema.name, schema);
  return [...byName.values()];
}

/**
 * The workspace's GraphQL schema at its model's version, built once per process and version (and set
 * of renamed fields still answered under their old names): a model change moves the next request on.
 */
function schemaOf(stage: DeliveryStage, now = new Date()): GraphQLSchema {
  const { renamed } = stage.model;
  let key = `${stage.workspaceId}\n${stage.model.version}`;
  if (renamed.length > 0) {
    const iso = now.toISOString();
    key += `\n${renamed
      .filter((alias) => alias.until > iso)
      .map((alias) => `${alias.schema}.${alias.from}`)
      .join(',')}`;
  }
  let schema = schemas.get(key);
  if (!schema) schemas.set(key, (schema = buildDeliverySchema(stage.model, deliveredSchemas(stage), now)));
  return schema;
}

/** A query parsed and validated against a schema, its digest, and its plans by operation name. */
interface PreparedQuery {
  document: DocumentNode;
  /** The sha256 of the query text: where its answers are kept. */
  digest: string;
  plans: Map<string, QueryPlan | undefined>;
}

const documents = new WeakMap<GraphQLSchema, LRUCache<string, PreparedQuery | GraphqlAnswer>>();

/**
 * The query parsed and validated against the schema, or the 400 that refuses it: kept per schema
 * object, so a model change (a new schema) or another workspace's schema never reuses it.
 */
function preparedQueryOf(schema: GraphQLSchema, query: string): PreparedQuery | GraphqlAnswer {
  let kept = documents.get(schema);
  if (!kept) documents.set(schema, (kept = new LRUCache({ max: MAX_DOCUMENTS })));
  let prepared = kept.get(query);
  if (prepared) return prepared;
  try {
    const parsed = parse(query, { maxTokens: MAX_TOKENS, noLocation: false });
    const errors = validate(schema, parsed, specifiedRules, { maxErrors: MAX_ERRORS });
    prepared =
      errors.length > 0
        ? failed(400, 'GRAPHQL_VALIDATION_FAILED', errors)
        : { document: parsed, digest: sha256(query), plans: new Map() };
  } catch (err) {
    if (!(err instanceof GraphQLError)) throw err;
    prepared = failed(400, 'GRAPHQL_PARSE_FAILED', [err]);
  }
  kept.set(query, prepared);
  return prepared;
}

/** The plan of the query's operation, made once per prepared query and operation name. */
function planOf(schema: GraphQLSchema, prepared: PreparedQuery, operationName: string | undefined) {
  const name = operationName ?? '';
  if (!prepared.plans.has(name))
    prepared.plans.set(name, planQuery(schema, prepared.document, operationName));
  return prepared.plans.get(name);
}

/** Variables longer than this are kept under their digest in an answer's id. */
const MAX_VARIABLES_IN_ID = 500;

/** Where an answer is kept: its stage first (cache.ts drops by it), model version, query, operation, variables. */
function answerIdOf(
  stage: DeliveryStage,
  prepared: PreparedQuery,
  operationName: string | undefined,
  variables: object,
) {
  const asked = JSON.stringify([operationName ?? null, variables]);
  const named = asked.length > MAX_VARIABLES_IN_ID ? sha256(asked) : asked;
  return `${stage.workspaceId}\t${stage.stage}\t\tgraphql/${stage.model.version}/${prepared.digest}/${named}`;
}

/** The operation's result: by its plan where it has one and no error arises, else by graphql-js. */
async function executed(
  ctx: AppContext,
  stage: DeliveryStage,
  schema: GraphQLSchema,
  prepared: PreparedQuery,
  options: { operationName?: string; variables: Record<string, unknown> },
): Promise<{ result: ExecutionResult; context: GraphqlContext }> {
  const plan = planOf(schema, prepared, options.operationName);
  if (plan) {
    const context = graphqlContext(ctx, stage);
    const data = await plan.run(context, options.variables);
    if (data) return { result: { data }, context };
  }
  // A fresh context: nothing the plan read (CDN keys, loaded references) carries over.
  const context = graphqlContext(ctx, stage);
  const result = await execute({
    schema,
    document: prepared.document,
    contextValue: context,
    variableValues: options.variables,
    operationName: options.operationName,
  });
  return { result, context };
}

function failed(status: number, code: string, errors: readonly GraphQLError[]): GraphqlAnswer {
  const body = JSON.stringify({
    errors: errors.map((error) => ({
      message: error.message,
      locations: error.locations,
      extensions: { code },
    })),
  });
  return { status, body, etag: '', keys: [], uncacheable: true };
}

const CODE_OF_APP_ERROR: Record<string, string> = {
  invalid_request: 'BAD_USER_INPUT',
  not_found: 'NOT_FOUND',
  forbidden: 'FORBIDDEN',
  unauthorized: 'UNAUTHENTICATED',
};

/** An answer that must not be kept: an error the client did not cause. */
class Unkept extends Error {
  constructor(readonly answer: GraphqlAnswer) {
    super('unkept answer');
  }
}

/** The errors of an execution as the spec has them, each with its code; a fault of ours is logged, not shown. */
function errorsOf(ctx: AppContext, result: ExecutionResult) {
  let internal = false;
  const errors = result.errors?.map((error) => {
    const original = error.originalError;
    if (original instanceof AppError || !original) {
      const code = original ? (CODE_OF_APP_ERROR[original.code] ?? 'BAD_USER_INPUT') : 'BAD_USER_INPUT';
      return { message: error.message, locations: error.locations, path: error.path, extensions: { code } };
    }
    internal = true;
    ctx.log.error({ err: original, path: error.path }, 'GraphQL delivery resolver failed');
    return { message: 'Internal error', path: error.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  });
  return { errors, internal };
}

/** Costs measured per document, by operation and the values of its Int variables. */
const costs = new WeakMap<DocumentNode, { intVariables: string[]; byValues: LRUCache<string, QueryCost> }>();

/**
 * The cost of a document's operation, measured once per operation and values of its Int variables: a
 * list's `first` is the only argument the cost reads, and only an Int variable can give it.
 */
function measuredCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  options: { operationName?: string; variables: Record<string, unknown> },
) {
  let kept = costs.get(document);
  if (!kept) {
    const intVariables = document.definitions.flatMap((definition) =>
      definition.kind === Kind.OPERATION_DEFINITION
        ? (definition.variableDefinitions ?? [])
            .filter((variable) => typeOfNode(variable.type) === 'Int')
            .map((variable) => variable.variable.name.value)
        : [],
    );
    costs.set(document, (kept = { intVariables, byValues: new LRUCache({ max: MAX_DOCUMENTS }) }));
  }
  const key = JSON.stringify([
    options.operationName,
    ...kept.intVariables.map((name) => options.variables[name]),
  ]);
  let cost = kept.byValues.get(key);
  if (!cost) kept.byValues.set(key, (cost = costOf(schema, document, options)));
  return cost;
}

const typeOfNode = (type: TypeNode): string =>
  type.kind === Kind.NAMED_TYPE ? type.name.value : typeOfNode(type.type);

/** The query's cost against the limits, or (thrown) the 400 that refuses it with its cost. */
function withinLimits(
  ctx: AppContext,
  schema: GraphQLSchema,
  document: DocumentNode,
  options: { operationName?: string; variables: Record<string, unknown> },
): Cost {
  const { maxCost, maxDepth } = ctx.config.graphql;
  const measured = measuredCost(schema, document, options);
  const cost = { requested: measured.requested, limit: maxCost };
  if (measured.depth > maxDepth) {
    const message = `Fields nest ${measured.depth} deep: at most ${maxDepth}`;
    throw new Unkept(refusal(400, 'DEPTH_LIMIT_EXCEEDED', message, cost));
  }
  if (measured.requested > maxCost) {
    const message = `The query costs ${measured.requested}: at most ${maxCost}`;
    throw new Unkept(refusal(400, 'COST_LIMIT_EXCEEDED', message, cost));
  }
  return cost;
}

/** Runs a GraphQL request of the delivery API against the stage: refusals first, then one execution. */
export async function runGraphql(
  ctx: AppContext,
  stage: DeliveryStage,
  params: GraphqlParams,
): Promise<GraphqlAnswer> {
  const extensions = jsonParam(params.extensions, 'extensions');
  const variables = jsonParam(params.variables, 'variables') ?? {};
  const operationName =
    typeof params.operationName === 'string' && params.operationName ? params.operationName : undefined;
  const query = queryOf(params, extensions);
  if (typeof query !== 'string') return query;
  const schema = schemaOf(stage);
  const prepared = preparedQueryOf(schema, query);
  if (!('document' in prepared)) return prepared;
  const id = answerIdOf(stage, prepared, operationName, variables);
  try {
    // Kept like REST's answers, dropped when the stage's published copies change; a kept answer was
    // within the limits when it was made.
    const make = async () => {
      const cost = withinLimits(ctx, schema, prepared.document, { operationName, variables });
      const { result, context } = await executed(ctx, stage, schema, prepared, { operationName, variables });
      const { errors, internal } = errorsOf(ctx, result);
      const body = JSON.stringify({ ...(errors && { errors }), data: result.data, extensions: { cost } });
      // Without data the request itself was refused (variables, operation): GraphQL over HTTP's 400.
      const answer: GraphqlAnswer = {
        status: result.data === undefined ? 400 : 200,
        ...renderedText(body, context.keys),
      };
      if (internal || answer.status !== 200) throw new Unkept(answer);
      return answer;
    };
    // Drafts are never kept.
    return (await (stage.fromDrafts ? make() : deliveryCacheOf(ctx.db).answer(id, make))) as GraphqlAnswer;
  } catch (err) {
    if (err instanceof Unkept) return err.answer;
    throw err;
  }
}

import {
  getArgumentValues,
  getVariableValues,
  isAbstractType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
  type VariableValues,
} from 'graphql';

/**
 * A query of the delivery schema executed without graphql-js's executor, which spends more per answer
 * than the resolvers of a single item do (resolve infos, paths, an AbortController a request). It
 * calls the schema's own resolvers and completes their values as graphql-js does, for the answers
 * that have no error: anything else (an error, a directive, introspection) makes `run` give up, and the
 * caller runs graphql-js for the answer with its errors. No resolver of the delivery schema reads
 * `info`: the one given names the field only.
 */
export interface QueryPlan {
  /** The answer's data, or undefined where graphql-js must answer (its errors say why). */
  run(context: unknown, variables: Record<string, unknown>): Promise<Record<string, unknown> | undefined>;
}

/** Thrown where a value is not one the plan completes: this request is answered by graphql-js. */
class NotPlanned extends Error {}
/** Thrown where the query is not one the plan runs: every request of it is answered by graphql-js. */
class Unplannable extends Error {}

type MaybePromise<T> = T | Promise<T>;

const isPromise = (value: unknown): value is Promise<unknown> =>
  typeof (value as { then?: unknown } | null)?.then === 'function';

interface FieldPlan {
  responseName: string;
  /** __typename: the parent type's name. */
  isTypename: boolean;
  def: GraphQLField<unknown, unknown>;
  node: FieldNode;
  info: GraphQLResolveInfo;
  /** The arguments when no variable gives one (computed once); undefined when variables do. */
  constantArgs?: Record<string, unknown>;
  usesVariables: boolean;
  subselection: Subselection;
}

/** The fields a selection asks of each object type it meets, collected once per type. */
class Subselection {
  private readonly byType = new Map<GraphQLObjectType, FieldPlan[]>();
  constructor(
    private readonly plan: Planner,
    private readonly nodes: readonly FieldNode[],
  ) {}

  fieldsOf(type: GraphQLObjectType) {
    let fields = this.byType.get(type);
    if (!fields) {
      const sets = this.nodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
      this.byType.set(type, (fields = this.plan.fieldsOf(type, sets)));
    }
    return fields;
  }
}

const hasVariable = (value: ValueNode): boolean =>
  value.kind === Kind.VARIABLE ||
  (value.kind === Kind.LIST && value.values.some(hasVariable)) ||
  (value.kind === Kind.OBJECT && value.fields.some((field) => hasVariable(field.value)));

class Planner {
  constructor(
    readonly schema: GraphQLSchema,
    private readonly fragments: Map<string, FragmentDefinitionNode>,
  ) {}

  /** The fields of `type` the selection sets ask for, grouped by response name as graphql-js's collectFields groups them. */
  fieldsOf(type: GraphQLObjectType, sets: readonly SelectionSetNode[]): FieldPlan[] {
    const grouped = new Map<string, FieldNode[]>();
    const visited = new Set<string>();
    const collect = (set: SelectionSetNode) => {
      for (const selection of set.selections) {
        if (selection.directives?.length) throw new Unplannable();
        if (selection.kind === Kind.FIELD) {
          const name = selection.alias?.value ?? selection.name.value;
          const nodes = grouped.get(name);
          if (nodes) nodes.push(selection);
          else grouped.set(name, [selection]);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          if (this.applies(selection.typeCondition?.name.value, type)) collect(selection.selectionSet);
        } else {
          if (selection.arguments?.length) throw new Unplannable();
          const name = selection.name.value;
          if (visited.has(name)) continue;
          visited.add(name);
          const fragment = this.fragments.get(name);
          if (fragment && this.applies(fragment.typeCondition.name.value, type))
            collect(fragment.selectionSet);
        }
      }
    };
    for (const set of sets) collect(set);
    return [...grouped].map(([responseName, nodes]) => this.field(type, responseName, nodes));
  }

  private applies(condition: string | undefined, type: GraphQLObjectType) {
    if (condition === undefined || condition === type.name) return true;
    const conditionType = this.schema.getType(condition);
    return (
      conditionType !== undefined &&
      isAbstractType(conditionType) &&
      this.schema.isSubType(conditionType, type)
    );
  }

  private field(parentType: GraphQLObjectType, responseName: string, nodes: FieldNode[]): FieldPlan {
    if (responseName === '__proto__') throw new Unplannable();
    const node = nodes[0];
    const fieldName = node.name.value;
    const isTypename = fieldName === '__typename';
    if (fieldName.startsWith('__') && !isTypename) throw new Unplannable();
    const def = isTypename ? undefined : parentType.getFields()[fieldName];
    if (!isTypename && !def) throw new Unplannable();
    const info = {
      fieldName,
      fieldNodes: nodes,
      parentType,
      schema: this.schema,
    } as unknown as GraphQLResolveInfo;
    return {
      responseName,
      isTypename,
      def: def!,
      node,
      info,
      usesVariables: (node.arguments ?? []).some((argument) => hasVariable(argument.value)),
      subselection: new Subselection(this, nodes),
    };
  }
}

/** One execution: its context, coerced variables and the resolvers' values completed. */
class Execution {
  constructor(
    private readonly schema: GraphQLSchema,
    private readonly context: unknown,
    private readonly variables: VariableValues,
  ) {}

  fields(type: GraphQLObjectType, source: unknown, fields: readonly FieldPlan[]): MaybePromise<object> {
    // A literal, not Object.create(null) as graphql-js makes them: V8 keeps that one a dictionary,
    // slower to fill and to serialise (the planner leaves a __proto__ alias to graphql-js).
    const result: Record<string, unknown> = {};
    let pending: Promise<void>[] | undefined;
    for (const field of fields) {
      const value = this.field(type, source, field);
      if (isPromise(value)) {
        // The key now, so the answer keeps the order of the query.
        result[field.responseName] = null;
        (pending ??= []).push(
          quiet(
            value.then((resolved) => {
              result[field.responseName] = resolved;
            }),
          ),
        );
      } else result[field.responseName] = value;
    }
    return pending ? Promise.all(pending).then(() => result) : result;
  }

  private field(type: GraphQLObjectType, source: unknown, field: FieldPlan): unknown {
    if (field.isTypename) return type.name;
    const args = field.usesVariables
      ? getArgumentValues(field.def, field.node, this.variables)
      : (field.constantArgs ??= getArgumentValues(field.def, field.node));
    const value = field.def.resolve
      ? field.def.resolve(source, args, this.context, field.info)
      : defaultValueOf(source, field, args, this.context);
    return isPromise(value)
      ? value.then((resolved) => this.complete(field.def.type, resolved, field))
      : this.complete(field.def.type, value, field);
  }

  private complete(type: GraphQLOutputType, value: unknown, field: FieldPlan): unknown {
    if (value instanceof Error) throw new NotPlanned();
    if (isNonNullType(type)) {
      const completed = this.complete(type.ofType, value, field);
      if (isPromise(completed))
        return completed.then((resolved) => (resolved === null ? notPlanned() : resolved));
      return completed === null ? notPlanned() : completed;
    }
    if (value === null || value === undefined) return null;
    if (isListType(type)) {
      if (!Array.isArray(value)) throw new NotPlanned();
      let hasPromise = false;
      const items = value.map((item) => {
        const completed = isPromise(item)
          ? item.then((resolved) => this.complete(type.ofType, resolved, field))
          : this.complete(type.ofType, item, field);
        if (!isPromise(completed)) return completed;
        hasPromise = true;
        return quiet(completed);
      });
      return hasPromise ? Promise.all(items) : items;
    }
    if (isLeafType(type)) {
      const coerced: unknown = type.coerceOutputValue(value);
      return coerced === null || coerced === undefined ? notPlanned() : coerced;
    }
    let objectType: GraphQLObjectType;
    if (isAbstractType(type)) {
      const name = type.resolveType?.(value, this.context, field.info, type);
      const resolved = typeof name === 'string' ? this.schema.getType(name) : undefined;
      if (!resolved || !isObjectType(resolved) || !this.schema.isSubType(type, resolved))
        throw new NotPlanned();
      objectType = resolved;
    } else if (isObjectType(type) && !type.isTypeOf) objectType = type;
    else throw new Unplannable();
    return this.fields(objectType, value, field.subselection.fieldsOf(objectType));
  }
}

/**
 * The promise, marked as handled: when a sibling throws first, the answer goes to graphql-js and no one
 * awaits this one, whose rejection must not end the process as unhandled.
 */
function quiet<T>(promise: Promise<T>) {
  promise.catch(() => {});
  return promise;
}

const notPlanned = (): never => {
  throw new NotPlanned();
};

/** graphql-js's default resolver: the source's property of the field's name, called when a function. */
function defaultValueOf(source: unknown, field: FieldPlan, args: object, context: unknown) {
  if (typeof source !== 'object' || source === null) return undefined;
  const property = (source as Record<string, unknown>)[field.info.fieldName];
  return typeof property === 'function'
    ? (property as (...a: unknown[]) => unknown).call(source, args, context, field.info)
    : property;
}

/** The operation graphql-js would run: the one named, or the only one. */
function operationOf(document: DocumentNode, operationName: string | undefined) {
  const operations = document.definitions.filter(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );
  if (operationName === undefined) return operations.length === 1 ? operations[0] : undefined;
  return operations.find((operation) => operation.name?.value === operationName);
}

/**
 * The plan of a validated document's operation (by name, or the only one) against the schema, or
 * undefined where graphql-js must run it: not a query, directives on it, fragment variables.
 */
export function planQuery(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
): QueryPlan | undefined {
  const operation = operationOf(document, operationName);
  const queryType = schema.getQueryType();
  if (!operation || operation.operation !== 'query' || operation.directives?.length || !queryType)
    return undefined;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.FRAGMENT_DEFINITION) continue;
    if (definition.variableDefinitions?.length) return undefined;
    fragments.set(definition.name.value, definition);
  }
  const planner = new Planner(schema, fragments);
  let root: FieldPlan[] | undefined;
  let isPlannable = true;
  return {
    async run(context, variables) {
      if (!isPlannable) return undefined;
      const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
      if (coerced.errors) return undefined;
      try {
        root ??= planner.fieldsOf(queryType, [operation.selectionSet]);
        const execution = new Execution(schema, context, coerced.variableValues);
        return (await execution.fields(queryType, undefined, root)) as Record<string, unknown>;
      } catch (err) {
        if (err instanceof Unplannable) isPlannable = false;
        // Any error, the resolvers' too: graphql-js answers with it in place.
        return undefined;
      }
    },
  };
}

// What a GraphQL query of the delivery API costs, from the schema and the query alone: the server
// refuses a query over its limits before reading anything, and `npx marquee graphql cost` computes the
// same numbers offline (Node runs this file as it is: it imports nothing but graphql, types aside).
import {
  getNamedType,
  isCompositeType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  valueFromAST,
} from 'graphql';
import type {
  DocumentNode,
  FieldNode,
  FragmentDefinitionNode,
  GraphQLCompositeType,
  GraphQLField,
  GraphQLOutputType,
  GraphQLSchema,
  OperationDefinitionNode,
  SelectionSetNode,
} from 'graphql';

/** Cost a query may reach unless GRAPHQL_MAX_COST says otherwise. */
export const DEFAULT_MAX_COST = 5000;
/** Fields nested at most this deep unless GRAPHQL_MAX_DEPTH says otherwise. */
export const DEFAULT_MAX_DEPTH = 10;
/** How many entries a list without a `first` argument (reference lists, blocks) is counted for. */
const LIST_SIZE = 10;

export interface QueryCost {
  /**
   * Every object read counts 1 (an item, a referenced item, a block, an image), times the entries its
   * lists may hold: a page's `first` (or its default) for its items, LIST_SIZE for other lists. Values
   * (text, numbers, JSON) and introspection count nothing.
   */
  requested: number;
  /** The deepest field's level: a field of the query is at level 1. */
  depth: number;
}

const isList = (type: GraphQLOutputType): boolean =>
  isNonNullType(type) ? isList(type.ofType) : isListType(type);

interface Walk {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  /** The fragments being spread on the way here: a cycle counts nothing (validation refuses it). */
  spreading: Set<string>;
}

/** A field's `first` argument as asked (or its default); undefined when it has none. */
function firstOf(walk: Walk, field: GraphQLField<unknown, unknown>, node: FieldNode) {
  const first = field.args.find((arg) => arg.name === 'first');
  if (!first) return undefined;
  const asked = node.arguments?.find((arg) => arg.name.value === 'first');
  // Built from SDL or introspection, a default is a literal; built in code, a value.
  const value = asked
    ? valueFromAST(asked.value, first.type, walk.variables)
    : first.default?.literal
      ? valueFromAST(first.default.literal, first.type)
      : (first.default?.value ?? first.defaultValue);
  return typeof value === 'number' && value >= 0 ? value : LIST_SIZE;
}

const fieldOf = (type: GraphQLCompositeType, name: string) =>
  isObjectType(type) || isInterfaceType(type) ? type.getFields()[name] : undefined;

/** The cost and depth of a selection set on `type`, whose fields are at `level`. */
function costOfSelections(
  walk: Walk,
  type: GraphQLCompositeType,
  set: SelectionSetNode,
  level: number,
  pageSize?: number,
): QueryCost {
  let requested = 0;
  let depth = 0;
  const add = (part: QueryCost) => {
    requested += part.requested;
    depth = Math.max(depth, part.depth);
  };
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      const name = selection.name.value;
      if (name.startsWith('__')) continue;
      const field = fieldOf(type, name);
      depth = Math.max(depth, level);
      if (!field || !selection.selectionSet) continue;
      const named = getNamedType(field.type);
      if (!isCompositeType(named)) continue;
      // A page's `first` counts the entries of its list (`items`), or of the field itself when a list.
      const first = firstOf(walk, field, selection);
      const list = isList(field.type);
      const entries = list ? (first ?? pageSize ?? LIST_SIZE) : 1;
      const inner = costOfSelections(
        walk,
        named,
        selection.selectionSet,
        level + 1,
        list ? undefined : first,
      );
      requested += entries * (1 + inner.requested);
      depth = Math.max(depth, inner.depth);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const on = selection.typeCondition && walk.schema.getType(selection.typeCondition.name.value);
      add(
        costOfSelections(
          walk,
          on && isCompositeType(on) ? on : type,
          selection.selectionSet,
          level,
          pageSize,
        ),
      );
    } else {
      const name = selection.name.value;
      const fragment = walk.fragments.get(name);
      if (!fragment || walk.spreading.has(name)) continue;
      const on = walk.schema.getType(fragment.typeCondition.name.value);
      walk.spreading.add(name);
      add(
        costOfSelections(walk, on && isCompositeType(on) ? on : type, fragment.selectionSet, level, pageSize),
      );
      walk.spreading.delete(name);
    }
  }
  return { requested, depth };
}

/**
 * The cost of the operation a request runs (the only one, or the one named): what the delivery API
 * answers in `extensions.cost.requested` and holds against its limit. On a union, each member's
 * fragment counts as if every entry were of that member (an upper bound).
 */
export function costOf(
  schema: GraphQLSchema,
  document: DocumentNode,
  options: { operationName?: string | null; variables?: Record<string, unknown> | null } = {},
): QueryCost {
  const operations = document.definitions.filter(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );
  const operation = options.operationName
    ? operations.find((op) => op.name?.value === options.operationName)
    : operations.length === 1
      ? operations[0]
      : undefined;
  const root = operation && schema.getRootType(operation.operation);
  if (!operation || !root) return { requested: 0, depth: 0 };
  const fragments = new Map(
    document.definitions
      .filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION)
      .map((fragment) => [fragment.name.value, fragment]),
  );
  const walk: Walk = { schema, fragments, variables: options.variables ?? {}, spreading: new Set() };
  return costOfSelections(walk, root, operation.selectionSet, 1);
}

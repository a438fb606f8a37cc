import {
  execute,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  GraphQLUnionType,
  parse,
  validate,
} from 'graphql';
import { planQuery } from './graphql-plan';

interface Post {
  id: string;
  title: unknown;
  rank?: unknown;
  tags?: unknown;
  related?: string[];
}

const posts: Record<string, Post> = {
  p1: { id: 'p1', title: 'First', rank: 1.5, tags: ['a', 'b'], related: ['p2', 'a1'] },
  p2: { id: 'p2', title: 'Second', tags: null, related: [] },
  p3: { id: 'p3', title: { not: 'a string' } },
  p4: { id: 'p4', title: null, related: ['p1', 'p4'] },
};
const authors: Record<string, { id: string; name: string }> = { a1: { id: 'a1', name: 'Ada' } };

/** What a resolver saw: the order the answer's CDN keys are gathered in. */
let seen: string[] = [];

const Node = new GraphQLInterfaceType({
  name: 'Node',
  fields: { id: { type: new GraphQLNonNull(GraphQLID) } },
  resolveType: (source: { id: string }) => (source.id.startsWith('p') ? 'Post' : 'Author'),
});
const Author = new GraphQLObjectType({
  name: 'Author',
  interfaces: [Node],
  fields: { id: { type: new GraphQLNonNull(GraphQLID) }, name: { type: GraphQLString } },
});
const Post: GraphQLObjectType = new GraphQLObjectType({
  name: 'Post',
  interfaces: [Node],
  fields: () => ({
    id: { type: new GraphQLNonNull(GraphQLID) },
    title: { type: new GraphQLNonNull(GraphQLString) },
    rank: { type: GraphQLFloat },
    tags: { type: new GraphQLList(GraphQLString) },
    shout: {
      type: GraphQLString,
      args: { times: { type: GraphQLInt, defaultValue: 1 } },
      resolve: (source: Post, args: { times: number }) => `${String(source.title)}!`.repeat(args.times),
    },
    related: {
      type: new GraphQLList(Related),
      // A promise a reference, as the delivery schema's references load.
      resolve: (source: Post) =>
        (source.related ?? []).map(async (id) => {
          seen.push(id);
          await Promise.resolve();
          return posts[id] ?? authors[id];
        }),
    },
  }),
});
const Related = new GraphQLUnionType({
  name: 'Related',
  types: [Post, Author],
  resolveType: (source: { id: string }) => (source.id.startsWith('p') ? 'Post' : 'Author'),
});

const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      post: {
        type: Post,
        args: { id: { type: GraphQLID } },
        resolve: async (_root, args: { id: string }) => {
          seen.push(`post ${args.id}`);
          return posts[args.id] ?? null;
        },
      },
      node: { type: Node, args: { id: { type: GraphQLID } }, resolve: (_root, args) => posts[args.id] },
      posts: {
        type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(Post))),
        resolve: () => [posts.p1, posts.p2],
      },
      later: {
        type: GraphQLString,
        resolve: async () => {
          await new Promise((resolve) => setImmediate(resolve));
          throw new Error('later');
        },
      },
      fails: {
        type: GraphQLString,
        resolve: () => {
          throw new Error('no');
        },
      },
    },
  }),
});

/** The plan's data and what its resolvers saw, beside graphql-js's answer to the same request. */
async function both(query: string, variables: Record<string, unknown> = {}, operationName?: string) {
  const document = parse(query);
  expect(validate(schema, document)).toEqual([]);
  seen = [];
  const expected = await execute({ schema, document, variableValues: variables, operationName });
  const seenByGraphqlJs = seen;
  seen = [];
  const planned = await planQuery(schema, document, operationName)?.run(undefined, variables);
  return { planned, expected, seen, seenByGraphqlJs };
}

const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe('a planned query', () => {
  it.each([
    ['fields, aliases and __typename', '{ post(id: "p1") { __typename id t: title title rank tags } }'],
    ['a list of non-null items', '{ posts { id tags rank } }'],
    ['arguments by default and by value', '{ post(id: "p1") { shout two: shout(times: 2) } }'],
    ['a missing item', '{ post(id: "nope") { id } }'],
    [
      'references through a union, fragments and type conditions',
      `{ post(id: "p1") { ...F related { __typename ... on Post { title } ... on Author { name } ...N } } }
       fragment F on Post { id rank }
       fragment N on Node { id }`,
    ],
    ['an interface', '{ node(id: "p2") { id ... on Post { title } } }'],
    [
      'merged selections',
      '{ post(id: "p1") { related { ... on Post { id } } related { ... on Post { title } } } }',
    ],
  ])('answers %s as graphql-js does', async (_name, query) => {
    const { planned, expected, seen, seenByGraphqlJs } = await both(query);
    expect(expected.errors).toBeUndefined();
    expect(plain(planned)).toEqual(plain(expected.data));
    expect(JSON.stringify(planned)).toBe(JSON.stringify(expected.data));
    expect(seen).toEqual(seenByGraphqlJs);
  });

  it('reads variables, the operation named and its defaults', async () => {
    const query = `query A($id: ID, $times: Int = 3) { post(id: $id) { shout(times: $times) } }
                   query B { posts { id } }`;
    const a = await both(query, { id: 'p2' }, 'A');
    expect(a.planned).toEqual({ post: { shout: 'Second!Second!Second!' } });
    expect(plain(a.planned)).toEqual(plain(a.expected.data));
    const b = await both(query, {}, 'B');
    expect(plain(b.planned)).toEqual(plain(b.expected.data));
  });

  it.each([
    ['a resolver that throws', '{ fails post(id: "p1") { id } }', {}],
    ['a resolver that throws while another one is under way', '{ later fails }', {}],
    ['a value its type cannot hold', '{ post(id: "p3") { title } }', {}],
    ['a null in a non-null field', '{ post(id: "p4") { related { ... on Post { title } } } }', {}],
    ['variables of the wrong type', 'query ($id: ID) { post(id: $id) { id } }', { id: { no: 1 } }],
  ])('leaves %s to graphql-js, whose answer has the error', async (_name, query, variables) => {
    const { planned, expected } = await both(query, variables);
    expect(planned).toBeUndefined();
    // What was still under way settles, unawaited (an unhandled rejection fails the run).
    await new Promise((resolve) => setImmediate(resolve));
    expect(expected.errors?.length).toBeGreaterThan(0);
  });

  it('is not made for introspection, directives or an operation that is not there', () => {
    const planOf = (query: string, operationName?: string) =>
      planQuery(schema, parse(query), operationName)?.run(undefined, {});
    return Promise.all([
      expect(planOf('{ __schema { queryType { name } } }')).resolves.toBeUndefined(),
      expect(planOf('{ post(id: "p1") { id @include(if: true) } }')).resolves.toBeUndefined(),
      expect(planOf('{ post(id: "p1") { __proto__: id } }')).resolves.toBeUndefined(),
      expect(planOf('query A { posts { id } }', 'B')).toBeUndefined(),
      expect(planOf('query A { posts { id } } query B { posts { id } }')).toBeUndefined(),
    ]);
  });
});

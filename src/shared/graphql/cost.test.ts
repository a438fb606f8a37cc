import { buildSchema, parse } from 'graphql';
import { costOf } from './cost';

const schema = buildSchema(`
  type Query { postList(first: Int = 20): PostPage! post(id: ID): Post }
  type PostPage { items: [Post!]! }
  type Post { id: ID! title: String cover: Asset author: Person related: [Related] }
  type Person { name: String }
  type Asset { url(w: Int): String }
  union Related = Post | Person
`);

const cost = (query: string, variables?: Record<string, unknown>, operationName?: string) =>
  costOf(schema, parse(query), { variables, operationName });

describe('costOf', () => {
  it('counts each object once per entry a page or list may hold, values nothing', () => {
    expect(cost('{ post(id: "a") { id title } }')).toEqual({ requested: 1, depth: 2 });
    expect(cost('{ post { cover { url(w: 10) } author { name } } }')).toEqual({ requested: 3, depth: 3 });
    // The page, and `first` items of it each with its author.
    expect(cost('{ postList(first: 12) { items { author { name } } } }')).toEqual({
      requested: 1 + 12 * 2,
      depth: 4,
    });
    expect(cost('{ postList { items { id } } }').requested).toBe(1 + 20);
    expect(cost('query ($n: Int) { postList(first: $n) { items { id } } }', { n: 3 }).requested).toBe(4);
    // A list without `first` counts 10 entries; each union member's fragment as if every entry were of it.
    expect(cost('{ post { related { ... on Post { id } ... on Person { name } } } }').requested).toBe(
      1 + 10 * 1,
    );
    expect(cost('{ post { related { ... on Post { author { name } } } } }').requested).toBe(1 + 10 * 2);
  });

  it('counts aliases and fragments, skips introspection and fragment cycles', () => {
    expect(cost('{ a: post { id } b: post { id } }').requested).toBe(2);
    expect(cost('{ post { ...F } } fragment F on Post { author { name } }')).toEqual({
      requested: 2,
      depth: 3,
    });
    expect(cost('{ __schema { types { fields { name } } } }')).toEqual({ requested: 0, depth: 0 });
    expect(
      cost('{ post { ...A } } fragment A on Post { ...B } fragment B on Post { ...A author { name } }')
        .requested,
    ).toBe(2);
  });

  it('costs the operation named, or nothing when none is chosen', () => {
    const two = 'query A { post { id } } query B { postList { items { id } } }';
    expect(cost(two, {}, 'B').requested).toBe(21);
    expect(cost(two)).toEqual({ requested: 0, depth: 0 });
  });
});

import fc from 'fast-check';
import { itemDataLimitError, LIMIT_MESSAGES, MAX_FIELD_DEPTH, nestsDeeperThan } from './value-limits';

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? { a: value } : [value];
  return value;
};

describe('value limits', () => {
  it('measures depth without recursion, even 100,000 levels deep', () => {
    expect(nestsDeeperThan(1, 0)).toBe(false);
    expect(nestsDeeperThan([1], 0)).toBe(true);
    expect(nestsDeeperThan(nested(MAX_FIELD_DEPTH), MAX_FIELD_DEPTH)).toBe(false);
    expect(nestsDeeperThan(nested(MAX_FIELD_DEPTH + 1), MAX_FIELD_DEPTH)).toBe(true);
    expect(nestsDeeperThan(nested(100_000), MAX_FIELD_DEPTH)).toBe(true);
  });

  it('agrees with a recursive depth on arbitrary JSON', () => {
    const depth = (v: unknown): number =>
      typeof v === 'object' && v !== null ? 1 + Math.max(0, ...Object.values(v).map(depth)) : 0;
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.nat(8), (value, limit) => {
        expect(nestsDeeperThan(value, limit)).toBe(depth(value) > limit);
      }),
    );
  });

  it('names the field that is too deep or too large, and the item when all fields are', () => {
    expect(itemDataLimitError({ name: 'ok', cover: { sanityResults: nested(40) } })).toEqual({
      field: 'cover',
      message: LIMIT_MESSAGES.tooDeep,
    });
    expect(itemDataLimitError({ body: 'x'.repeat(300 * 1024) })).toEqual({
      field: 'body',
      message: LIMIT_MESSAGES.fieldTooLarge,
    });
    const fields = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`f${i}`, 'é'.repeat(120 * 1024)]));
    expect(itemDataLimitError(fields)).toEqual({ message: LIMIT_MESSAGES.itemTooLarge });
    expect(itemDataLimitError({ name: 'Hello', tags: ['a', 'b'] })).toBeUndefined();
  });
});

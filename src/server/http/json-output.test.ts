import { clampDepth, MAX_OUTPUT_DEPTH, stringifyStored } from './json-output';

const nested = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = i % 2 ? { a: value } : [value];
  return value;
};

describe('stringifyStored', () => {
  it('writes ordinary values exactly like JSON.stringify', () => {
    const value = { items: [{ id: 'a', data: { name: 'x', tags: ['a'], n: 1, no: null } }] };
    expect(stringifyStored(value)).toBe(JSON.stringify(value));
  });

  it('cuts data nested past what JSON.stringify can walk instead of throwing', () => {
    const deep = { items: [{ id: 'a', data: { sanity: nested(200_000) } }, { id: 'b' }] };
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    let clamped = 0;
    const parsed = JSON.parse(stringifyStored(deep, () => clamped++));
    expect(clamped).toBe(1);
    expect(parsed.items.map((i: { id: string }) => i.id)).toEqual(['a', 'b']);
  });

  it('keeps everything above the limit', () => {
    expect(clampDepth(nested(10), MAX_OUTPUT_DEPTH)).toEqual(nested(10));
    expect(clampDepth({ a: [[1]] }, 2)).toEqual({ a: [null] });
  });
});

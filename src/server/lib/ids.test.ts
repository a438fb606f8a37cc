import { randomId } from './ids';

describe('randomId', () => {
  it('answers ids of the asked length in base62, different each time, across refills of the pool', () => {
    const ids = Array.from({ length: 1000 }, () => randomId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-zA-Z]{20}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(randomId(64)).toHaveLength(64);
  });

  it('draws every character about equally often', () => {
    const counts = new Map<string, number>();
    for (const char of Array.from({ length: 2000 }, () => randomId()).join(''))
      counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 40,000 characters over 62: about 645 each; a biased draw (e.g. without rejection) strays far more.
    for (const count of counts.values()) expect(Math.abs(count - 645)).toBeLessThan(150);
  });
});

import { shareOf, splitDraw } from './split';

describe('splitDraw and shareOf', () => {
  it('draws the same for the same unit and salt, and differently for another salt', () => {
    expect(splitDraw('p-1', 'exp1')).toBe(splitDraw('p-1', 'exp1'));
    // The first 32 bits of SHA-256("p-1\nexp1"), as PostgreSQL computes them too.
    expect(splitDraw('p-1', 'exp1')).toBeCloseTo(0.3714644087012857, 15);
    expect(splitDraw('p-1', 'exp2')).not.toBe(splitDraw('p-1', 'exp1'));
  });

  it('takes the share a draw falls in, in order, and -1 past them all', () => {
    expect(shareOf([10, 20, 20], 0.05)).toBe(0);
    expect(shareOf([10, 20, 20], 0.1)).toBe(1);
    expect(shareOf([10, 20, 20], 0.49)).toBe(2);
    expect(shareOf([10, 20, 20], 0.5)).toBe(-1);
    expect(shareOf([0, 50], 0)).toBe(1);
  });

  it('shares out draws near their percentages', () => {
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 20_000; i++) counts[shareOf([25, 25, 25], splitDraw(`p-${i}`, 'salt')) + 1]++;
    for (const count of counts) expect(Math.abs(count - 5000)).toBeLessThan(300);
  });
});

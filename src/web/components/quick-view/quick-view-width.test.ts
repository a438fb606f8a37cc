import { CLOSE_WHILE_EDITING_MESSAGE, quickViewWidth } from './quick-view-width';

describe('quickViewWidth', () => {
  it('starts at 75 percent and adds 5 per nesting level', () => {
    expect([0, 1, 2, 3].map(quickViewWidth)).toEqual([75, 80, 85, 90]);
  });

  it('stops at 100 percent', () => {
    expect(quickViewWidth(5)).toBe(100);
    expect(quickViewWidth(12)).toBe(100);
  });

  it('treats odd levels as the first', () => {
    expect(quickViewWidth(-2)).toBe(75);
    expect(quickViewWidth(Number.NaN)).toBe(75);
    expect(quickViewWidth(1.7)).toBe(80);
  });

  it("says the spec's words when closing is refused", () => {
    expect(CLOSE_WHILE_EDITING_MESSAGE).toBe('Save or cancel to be able to close.');
  });
});

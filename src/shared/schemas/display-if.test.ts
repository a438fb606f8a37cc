import { conditionHolds, isFieldVisible } from './display-if';

describe('display conditions', () => {
  it('equals compares with the value, or any entry of a list', () => {
    expect(conditionHolds({ field: 'kind', equals: 'a' }, { kind: 'a' })).toBe(true);
    expect(conditionHolds({ field: 'kind', equals: 'a' }, { kind: 'b' })).toBe(false);
    expect(conditionHolds({ field: 'kind', equals: 'a' }, { kind: ['b', 'a'] })).toBe(true);
    expect(conditionHolds({ field: 'flag', equals: true }, { flag: true })).toBe(true);
    expect(conditionHolds({ field: 'flag', equals: null }, {})).toBe(true);
  });

  it('in accepts any listed value', () => {
    const condition = { field: 'kind', in: ['categorical', 'array'] };
    expect(conditionHolds(condition, { kind: 'array' })).toBe(true);
    expect(conditionHolds(condition, { kind: 'number' })).toBe(false);
    expect(conditionHolds(condition, {})).toBe(false);
  });

  it('notEmpty holds for anything but an empty string, null, undefined or empty list', () => {
    const condition = { field: 'x', notEmpty: true as const };
    expect(conditionHolds(condition, { x: 0 })).toBe(true);
    expect(conditionHolds(condition, { x: '' })).toBe(false);
    expect(conditionHolds(condition, { x: [] })).toBe(false);
    expect(conditionHolds(condition, {})).toBe(false);
  });

  it('shows fields without a condition', () => {
    expect(isFieldVisible({ key: 'a', label: 'A', type: 'text' }, {})).toBe(true);
    expect(
      isFieldVisible({ key: 'a', label: 'A', type: 'text', displayIf: { field: 'b', notEmpty: true } }, {}),
    ).toBe(false);
  });
});

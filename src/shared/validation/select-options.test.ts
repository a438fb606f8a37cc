import { selectDisplayOptions, selectOptionLabel } from './select-options';

describe('select options', () => {
  const options = [
    { value: 'a', label: 'Alpha' },
    { value: 'b', label: 'Beta' },
  ];

  it("labels a value no longer among the options '--Old Value--{value}'", () => {
    expect(selectOptionLabel(options, 'a')).toBe('Alpha');
    expect(selectOptionLabel(options, 'z')).toBe('--Old Value--z');
  });

  it('offers stored old values after the options', () => {
    expect(selectDisplayOptions(options, 'z')).toEqual([...options, { value: 'z', label: '--Old Value--z' }]);
    expect(selectDisplayOptions(options, ['b', 'y', 'y'])).toEqual([
      ...options,
      { value: 'y', label: '--Old Value--y' },
    ]);
    expect(selectDisplayOptions(options, null)).toEqual(options);
    expect(selectDisplayOptions(options, '')).toEqual(options);
  });
});

import { formatStoredDate } from '@web/lib/dates';
import { editedValue, showValue } from './attribute-value';

describe('showValue', () => {
  it("shows a date attribute's day as a date of the user's locale, not as ISO text", () => {
    // A profile showed its birthday attribute as '2024-08-30T00:00:00.000Z'.
    const shown = showValue('2024-08-30T00:00:00.000Z', 'date');
    expect(shown).toBe(formatStoredDate('2024-08-30T00:00:00.000Z'));
    expect(shown).not.toContain('T00');
    expect(shown).toContain('2024');
  });

  it('shows stored instants as dates where the type is not known', () => {
    expect(showValue('2024-08-30T15:45:00.000Z')).toBe(formatStoredDate('2024-08-30T15:45:00.000Z'));
    expect(showValue('2024-08-30')).toBe('2024-08-30');
  });

  it('leaves text of other types, lists and booleans as they read', () => {
    expect(showValue('2024-08-30T00:00:00.000Z', 'string')).toBe('2024-08-30T00:00:00.000Z');
    expect(showValue(['a', 'b'])).toBe('a, b');
    expect(showValue(true)).toBe('yes');
    expect(showValue(null)).toBe('');
    expect(showValue(42, 'number')).toBe('42');
  });
});

describe('editedValue', () => {
  it('edits a day as YYYY-MM-DD, lists with |', () => {
    expect(editedValue('2024-08-30T00:00:00.000Z', 'date')).toBe('2024-08-30');
    expect(editedValue('2024-08-30T15:45:00.000Z', 'date')).toBe('2024-08-30T15:45:00.000Z');
    expect(editedValue(['a', 'b'], 'array')).toBe('a|b');
    expect(editedValue(false, 'boolean')).toBe('no');
  });
});

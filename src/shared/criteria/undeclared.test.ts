import fc from 'fast-check';
import { convertValue } from './convert';
import {
  inferType,
  looseEventKey,
  MAX_UNDECLARED_LIST,
  MAX_UNDECLARED_TEXT,
  nameOfKey,
  undeclaredKeyOf,
  undeclaredValue,
  UNDECLARED_VALUE_MESSAGES,
} from './undeclared';

describe('undeclaredValue', () => {
  it.each([
    [true, 'boolean', true],
    [12.5, 'number', 12.5],
    ['pro', 'string', 'pro'],
    ['12', 'string', '12'],
    ['2026-03-04', 'date', '2026-03-04T00:00:00.000Z'],
    ['2026-03-04T05:06:07+02:00', 'date', '2026-03-04T03:06:07.000Z'],
    ['2026-03-04 is a Wednesday', 'string', '2026-03-04 is a Wednesday'],
    [['news', 'sale'], 'array', ['news', 'sale']],
  ])('%j is kept as %s', (raw, type, value) => {
    expect(undeclaredValue(raw)).toEqual({ ok: true, type, value });
  });

  it.each([
    [{ sku: 'A' }, UNDECLARED_VALUE_MESSAGES.shape],
    [[1, 2], UNDECLARED_VALUE_MESSAGES.shape],
    [Infinity, UNDECLARED_VALUE_MESSAGES.shape],
    ['x'.repeat(MAX_UNDECLARED_TEXT + 1), UNDECLARED_VALUE_MESSAGES.text],
    [Array.from({ length: MAX_UNDECLARED_LIST + 1 }, () => 'a'), UNDECLARED_VALUE_MESSAGES.list],
    [['x'.repeat(MAX_UNDECLARED_TEXT + 1)], UNDECLARED_VALUE_MESSAGES.list],
  ])('refuses %#', (raw, message) => {
    expect(undeclaredValue(raw)).toEqual({ ok: false, message });
  });

  it('keeps each value as the type it is given would store it, so a one-click declaration fits what is stored', () => {
    const value = fc.oneof(
      fc.boolean(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.string({ maxLength: 40 }),
      fc
        .date({ noInvalidDate: true, min: new Date('1900-01-01'), max: new Date('2999-12-31') })
        .map((d) => d.toISOString()),
      fc.array(fc.string({ maxLength: 10 }), { maxLength: 5 }),
    );
    fc.assert(
      fc.property(value, (raw) => {
        const kept = undeclaredValue(raw);
        if (!kept.ok) return;
        const declared = convertValue(kept.type, kept.value);
        expect(declared).toEqual({ ok: true, value: kept.value });
      }),
    );
  });
});

describe('inferType', () => {
  it.each([
    [{}, 'string'],
    [{ number: 3 }, 'number'],
    [{ date: 2, string: 5 }, 'string'],
    [{ date: 9, string: 1 }, 'string'],
    [{ number: 2, string: 1 }, 'number'],
    [{ number: 1, string: 1 }, 'string'],
    [{ boolean: 4, array: 1 }, 'boolean'],
  ] as const)('%j → %s', (seen, type) => {
    expect(inferType(seen)).toBe(type);
  });
});

describe('the naming of undeclared keys', () => {
  it('takes page_view and page-view as one event, and keeps other keys as sent', () => {
    expect(looseEventKey('page_view')).toBe(looseEventKey('page-view'));
    expect(undeclaredKeyOf('page_view', 'event')).toBe('page-view');
    expect(undeclaredKeyOf('page_view', 'property')).toBe('page_view');
    expect(undeclaredKeyOf('firstName', 'attribute')).toBe('firstName');
  });

  it.each([
    ['Signed Up', 'event', 'signed-up'],
    ['Referral Code', 'property', 'referral-code'],
    ['__proto__', 'property', 'proto'],
    ['!!!', 'event', undefined],
    ['42', 'attribute', undefined],
    ['日本', 'property', undefined],
  ] as const)('%s (%s) → %s', (raw, kind, key) => {
    expect(undeclaredKeyOf(raw, kind)).toBe(key);
  });

  it.each([
    ['page-view', 'Page view'],
    ['check_out', 'Check out'],
    ['firstName', 'First name'],
  ])('names %s "%s"', (key, name) => {
    expect(nameOfKey(key)).toBe(name);
  });
});

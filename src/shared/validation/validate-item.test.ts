import fc from 'fast-check';
import type { FieldDef } from '../schemas/types';
import { isEmptyValue } from './empty';
import { formatMessage } from './format-message';
import { isItemValid, validateField, validateItem } from './validate-item';

const name: FieldDef = { key: 'name', label: 'Name', type: 'text', required: true };

describe('isEmptyValue', () => {
  it.each([[''], [null], [undefined], [[]]])('%j is empty', (value) => {
    expect(isEmptyValue(value)).toBe(true);
  });

  it.each([[' '], [0], [false], [{}], [['']], ['x'], [Number.NaN]])('%j is not empty', (value) => {
    expect(isEmptyValue(value)).toBe(false);
  });
});

describe('required (spec §5)', () => {
  it.each([[''], [null], [undefined], [[]]])("%j fails with '%l is required'", (value) => {
    expect(validateField(name, value)).toBe('Name is required');
    expect(validateItem({ fields: [name] }, { name: value })).toEqual({ name: 'Name is required' });
  });

  it('fails exactly for the empty values, over arbitrary values', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const message = validateField(name, value);
        expect(message === 'Name is required').toBe(
          value === '' ||
            value === null ||
            value === undefined ||
            (Array.isArray(value) && value.length === 0),
        );
      }),
    );
  });

  it('never fails an optional field without validators', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        expect(validateField({ key: 'x', label: 'X', type: 'text' }, value)).toBeUndefined();
      }),
    );
  });
});

describe('custom validators', () => {
  const code: FieldDef = {
    key: 'code',
    label: 'Promo code',
    type: 'text',
    validators: [{ expression: '^[A-Z]{3}\\d{2}$', message: '%v is not a valid %l' }],
  };

  it('accepts a matching expression and reports a failing one with %l and %v', () => {
    expect(validateField(code, 'ABC12')).toBeUndefined();
    expect(validateField(code, 'abc')).toBe('abc is not a valid Promo code');
  });

  it('is skipped when the field is optional and empty', () => {
    fc.assert(
      fc.property(fc.constantFrom('', null, undefined, []), (value) => {
        expect(validateField(code, value)).toBeUndefined();
      }),
    );
  });

  it('runs after the required check on a required field', () => {
    const required = { ...code, required: true };
    expect(validateField(required, '')).toBe('Promo code is required');
    expect(validateField(required, 'nope')).toBe('nope is not a valid Promo code');
  });

  it('runs functions with the value and the whole data; a throwing function fails', () => {
    const end: FieldDef = {
      key: 'end',
      label: 'End',
      type: 'number',
      validators: [
        {
          test: (value, data) => (value as number) > (data.start as number),
          message: '%l must follow start',
        },
      ],
    };
    expect(validateField(end, 5, { start: 3 })).toBeUndefined();
    expect(validateField(end, 2, { start: 3 })).toBe('End must follow start');
    const throwing: FieldDef = {
      ...end,
      validators: [
        {
          test: () => {
            throw new Error('boom');
          },
          message: 'bad %l',
        },
      ],
    };
    expect(validateField(throwing, 1)).toBe('bad End');
  });

  it('reports the first failing validator', () => {
    const field: FieldDef = {
      key: 'k',
      label: 'K',
      type: 'text',
      validators: [
        { expression: '^a', message: 'first' },
        { expression: 'z$', message: 'second' },
      ],
    };
    expect(validateField(field, 'bz')).toBe('first');
    expect(validateField(field, 'ab')).toBe('second');
  });
});

describe('formatMessage', () => {
  it('substitutes every %l and %v', () => {
    expect(formatMessage('%l: %v (%l)', 'Tags', ['a', 'b'])).toBe('Tags: a, b (Tags)');
    expect(formatMessage('%v', 'X', null)).toBe('');
    expect(formatMessage('%v', 'X', { a: 1 })).toBe('{"a":1}');
  });

  it('does not substitute inside the substituted label or value', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (label, value) => {
        expect(formatMessage('%l|%v', label, value)).toBe(`${label}|${value}`);
      }),
    );
  });
});

describe('type rules', () => {
  it('checks number and range bounds', () => {
    const age: FieldDef = { key: 'age', label: 'Age', type: 'number', min: 18, max: 99 };
    expect(validateField(age, 18)).toBeUndefined();
    expect(validateField(age, 17)).toBe('Age must be at least 18');
    expect(validateField(age, 100)).toBe('Age must be at most 99');
    const volume: FieldDef = { key: 'v', label: 'Volume', type: 'range', min: 0, max: 10 };
    expect(validateField(volume, 11)).toBe('Volume must be at most 10');
  });

  it('checks date bounds with the picker hint', () => {
    const due: FieldDef = { key: 'due', label: 'Due', type: 'date', min: '2024-01-01' };
    expect(validateField(due, '2024-01-01')).toBeUndefined();
    expect(validateField(due, '2023-12-31')).toBe('Due: Select between 2024-01-01 and End of Time');
  });

  it('checks date-time bounds shown in the companion zone', () => {
    const start: FieldDef = { key: 'start', label: 'Start', type: 'datetime', max: '2024-03-01T17:05:00Z' };
    expect(validateField(start, '2024-03-01T17:05:00Z')).toBeUndefined();
    expect(validateField(start, '2024-03-01T17:06:00Z', { start_tz: 'America/Los_Angeles' })).toBe(
      'Start: Select between Beginning of Time and Fri Mar 1st, 2024 9:05 AM',
    );
  });

  it('guards the fixed blocks of code', () => {
    const code: FieldDef = {
      key: 'code',
      label: 'Code',
      type: 'code',
      language: 'javascript',
      beginBlock: 'function f() {\n',
      endBlock: '\n}',
      defaultCode: '',
    };
    expect(validateField(code, 'function f() {\n  return 1;\n}')).toBeUndefined();
    expect(validateField(code, 'function g() {\n}')).toBe('Beginning block cannot be changed');
  });
});

describe('validateItem', () => {
  it('skips fields hidden by their display condition', () => {
    const fields: FieldDef[] = [
      { key: 'kind', label: 'Kind', type: 'select', options: [{ value: 'list', label: 'List' }] },
      {
        key: 'options',
        label: 'Options',
        type: 'tags',
        required: true,
        displayIf: { field: 'kind', equals: 'list' },
      },
    ];
    expect(validateItem({ fields }, { kind: 'other' })).toEqual({});
    expect(validateItem({ fields }, {})).toEqual({});
    expect(validateItem({ fields }, { kind: 'list', options: [] })).toEqual({
      options: 'Options is required',
    });
  });

  it('validates table cells by path and the maximum row count', () => {
    const fields: FieldDef[] = [
      {
        key: 'rows',
        label: 'Rows',
        type: 'table',
        maxRows: 2,
        columns: [
          { key: 'name', label: 'Name', type: 'text', required: true },
          {
            key: 'note',
            label: 'Note',
            type: 'text',
            required: true,
            displayIf: { field: 'name', notEmpty: true },
          },
        ],
      },
    ];
    expect(
      validateItem(
        { fields },
        {
          rows: [
            { name: 'a', note: 'n' },
            { name: 'b', note: 'x' },
          ],
        },
      ),
    ).toEqual({});
    expect(validateItem({ fields }, { rows: [{ name: 'a' }, {}, { name: 'c', note: 'x' }] })).toEqual({
      rows: 'Rows allows at most 2 rows',
      'rows.0.note': 'Note is required',
      'rows.1.name': 'Name is required',
    });
  });

  it('validates combination rows', () => {
    const fields: FieldDef[] = [{ key: 'combinations', label: 'Combinations', type: 'combinations' }];
    const errors = validateItem(
      { fields },
      {
        combinations: [
          { _slug: 'A', variations: {}, overrides: { text: 'x' } },
          { _slug: 'a', variations: {}, overrides: {} },
        ],
      },
    );
    expect(errors).toEqual({
      'combinations.1._slug': 'Name must be unique',
      'combinations.1.overrides': 'At least one Override is required',
    });
  });

  it('is valid exactly when no field reports a message', () => {
    fc.assert(
      fc.property(fc.record({ name: fc.oneof(fc.string(), fc.constant(null)) }), (data) => {
        expect(isItemValid({ fields: [name] }, data)).toBe(data.name !== '' && data.name !== null);
      }),
    );
  });
});

import type { FieldDef } from '@shared/schemas/types';
import { keysReadBy, sameErrorsAt, sameFieldInput, type FieldInputs } from './same-field-input';

const title: FieldDef = { key: 'title', label: 'Title', type: 'text' };
const starts: FieldDef = { key: 'starts', label: 'Starts', type: 'datetime' };
const slug: FieldDef = { key: 'slug', label: 'Slug', type: 'name-slug', from: 'title' } as FieldDef;

const inputs = (field: FieldDef, scope: Record<string, unknown>, more: Partial<FieldInputs> = {}) => ({
  field,
  scope,
  errors: {},
  path: field.key,
  rest: [false],
  ...more,
});

describe('sameFieldInput', () => {
  it('is the same when only another field of the scope changed', () => {
    expect(
      sameFieldInput(inputs(title, { title: 'A', body: 'x' }), inputs(title, { title: 'A', body: 'y' })),
    ).toBe(true);
  });

  it('differs when the field’s own value changed', () => {
    expect(sameFieldInput(inputs(title, { title: 'A' }), inputs(title, { title: 'B' }))).toBe(false);
  });

  it('follows a date-time’s zone and the name a name-slug is made from', () => {
    expect(keysReadBy(starts)).toEqual(['starts', 'starts_tz']);
    expect(
      sameFieldInput(inputs(starts, { starts_tz: 'UTC' }), inputs(starts, { starts_tz: 'Europe/Paris' })),
    ).toBe(false);
    expect(sameFieldInput(inputs(slug, { title: 'A' }), inputs(slug, { title: 'B' }))).toBe(false);
  });

  it('differs when another prop changed', () => {
    expect(sameFieldInput(inputs(title, {}), inputs(title, {}, { rest: [true] }))).toBe(false);
    expect(sameFieldInput(inputs(title, {}), inputs({ ...title }, {}))).toBe(false);
  });

  it('follows the messages at the field’s path and under it only', () => {
    const before = inputs(title, {}, { errors: { other: 'Required' } });
    expect(sameFieldInput(before, inputs(title, {}, { errors: { other: 'Too long' } }))).toBe(true);
    expect(sameFieldInput(before, inputs(title, {}, { errors: { title: 'Required' } }))).toBe(false);
    expect(sameErrorsAt({ 'title.0.text': 'a' }, { 'title.0.text': 'b' }, 'title')).toBe(false);
    expect(sameErrorsAt({ titles: 'a' }, {}, 'title')).toBe(true);
  });
});

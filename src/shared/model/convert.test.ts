import type { FieldDef } from '../schemas/types';
import { convertValue } from './convert';

const f = (type: string, extra: Record<string, unknown> = {}) =>
  ({ key: 'x', label: 'X', type, ...extra }) as FieldDef;
const text = f('text');
const multiline = f('multiline');
const slug = f('name-slug', { from: 'name' });
const number = f('number');
const range = f('range', { min: 1, max: 10 });
const richText = f('rich-text');
const select = f('select', { options: [{ value: 'a', label: 'A' }] });
const multiSelect = f('select', { options: [{ value: 'a', label: 'A' }], multiple: true });
const tags = f('tags');
const date = f('date');
const dateTime = f('datetime');
const reference = f('reference', { schemaTypes: ['page'] });
const referenceList = f('reference-list', { schemaTypes: ['page'] });
const boolean = f('boolean');
const table = f('table', { columns: [text] });

const converted = (value: unknown, from: FieldDef, to: FieldDef) => convertValue(value, from, to);
const ok = (value: unknown) => ({ ok: true, value });
const fail = (error: string) => ({ ok: false, error });

describe('convertValue', () => {
  it('turns empty values into nothing', () => {
    for (const value of [null, undefined, '', []])
      expect(converted(value, text, number)).toEqual(ok(undefined));
  });

  it('keeps text between text kinds, and slugs it for a name-slug', () => {
    expect(converted('Two\nlines', multiline, text)).toEqual(ok('Two\nlines'));
    expect(converted('Hello World', text, slug)).toEqual(ok('hello-world'));
    expect(converted('hello-world', slug, multiline)).toEqual(ok('hello-world'));
    expect(converted('firstName', text, { ...slug, keepsDataKeys: true } as FieldDef)).toEqual(
      ok('firstName'),
    );
    expect(converted('!!!', text, slug)).toEqual(fail('"!!!" has no letters or digits to make a slug of'));
  });

  it('reads numeric text as a number, and writes a number as text', () => {
    expect(converted(' 12.5 ', text, number)).toEqual(ok(12.5));
    expect(converted('-3e2', multiline, number)).toEqual(ok(-300));
    expect(converted('abc', text, number)).toEqual(fail('"abc" is not a number'));
    expect(converted('12 apples', text, number)).toEqual(fail('"12 apples" is not a number'));
    expect(converted(12.5, number, text)).toEqual(ok('12.5'));
  });

  it('fits numbers into a range only as whole numbers within it', () => {
    expect(converted(4, number, range)).toEqual(ok(4));
    expect(converted(4.5, number, range)).toEqual(fail('4.5 is not a whole number from 1 to 10'));
    expect(converted(11, number, range)).toEqual(fail('11 is not a whole number from 1 to 10'));
    expect(converted(7, range, number)).toEqual(ok(7));
  });

  it('turns text into escaped paragraphs of rich text, and back', () => {
    expect(converted('a < b & c\nnext line\n\n\nNew "paragraph"', multiline, richText)).toEqual(
      ok('<p>a &lt; b &amp; c<br>next line</p><p>New &quot;paragraph&quot;</p>'),
    );
    expect(
      converted(
        '<p>a &lt; b&nbsp;&amp; c<br>next</p><h2>Title</h2><ul><li>one</li><li>two</li></ul>',
        richText,
        multiline,
      ),
    ).toEqual(ok('a < b & c\nnext\n\nTitle\n\none\ntwo'));
    const text = 'First line\nsecond line\n\nThird & <last>';
    const html = convertValue(text, multiline, richText) as { value: string };
    expect(converted(html.value, richText, multiline)).toEqual(ok(text));
  });

  it('turns a single select into tags and a list of one back', () => {
    expect(converted('a', select, tags)).toEqual(ok(['a']));
    expect(converted(['a'], tags, select)).toEqual(ok('a'));
    expect(converted(['a', 'b'], tags, select)).toEqual(
      fail('["a","b"] holds 2 values; the field holds one'),
    );
    expect(converted(['a', 'b'], multiSelect, tags)).toEqual(ok(['a', 'b']));
    expect(converted(['a', 'b'], tags, multiSelect)).toEqual(ok(['a', 'b']));
    expect(converted('a', select, multiSelect)).toEqual(ok(['a']));
    expect(converted(['a'], multiSelect, select)).toEqual(ok('a'));
  });

  it('turns a date into midnight UTC, and a date-time into its UTC date', () => {
    expect(converted('2024-03-05', date, dateTime)).toEqual(ok('2024-03-05T00:00:00.000Z'));
    expect(converted('2024-03-05T23:30:00-02:00', dateTime, date)).toEqual(ok('2024-03-06'));
    expect(converted('soon', date, dateTime)).toEqual(fail('"soon" is not a date'));
    expect(converted('soon', dateTime, date)).toEqual(fail('"soon" is not a date and time'));
  });

  it('turns one reference into a list of one, and a list of one back', () => {
    const ref = { id: 'i1', schemaType: 'page' };
    expect(converted(ref, reference, referenceList)).toEqual(ok([ref]));
    expect(converted([ref], referenceList, reference)).toEqual(ok(ref));
    expect(converted([ref, ref], referenceList, reference)).toMatchObject({ ok: false });
  });

  it("turns booleans into 'true' or 'false', and those back", () => {
    expect(converted(true, boolean, text)).toEqual(ok('true'));
    expect(converted(' False ', text, boolean)).toEqual(ok(false));
    expect(converted('yes', text, boolean)).toEqual(fail('"yes" is not true or false'));
  });

  it('keeps a value retyped to its own type, and refuses anything else, naming the value', () => {
    expect(converted('a', text, text)).toEqual(ok('a'));
    expect(converted('abc', text, table)).toEqual(
      fail('"abc" cannot become a table value (it is a text value)'),
    );
    expect(converted(5, number, tags)).toEqual(fail('5 cannot become a tags value (it is a number value)'));
    expect(converted(5, text, number)).toEqual(fail('5 is not a number'));
    expect(converted('x'.repeat(100), text, table)).toMatchObject({
      error: expect.stringMatching(/^"x{58}… cannot/),
    });
  });
});

import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvRecords, MAX_RECORD_CHARS, type CsvRecord } from './csv-records';

/** The records of `text` fed to a reader in the pieces that end at `cuts`. */
function read(text: string, cuts: number[] = []): CsvRecord[] {
  const reader = new CsvRecords();
  const records: CsvRecord[] = [];
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    records.push(...reader.take(text.slice(from, cut)));
    from = cut;
  }
  records.push(...reader.take(text.slice(from)), ...reader.finish());
  return records;
}

const cellsOf = (records: CsvRecord[]) => records.map((r) => ('cells' in r ? r.cells : r.error));

/** Every way of cutting `text` in two, and in three around its middle. */
function everyCut(text: string) {
  const ways: number[][] = [[]];
  for (let i = 0; i <= text.length; i++) ways.push([i]);
  const middle = Math.floor(text.length / 2);
  for (let i = 0; i <= middle; i++) ways.push([i, middle]);
  return ways;
}

const cell = fc.stringMatching(/^[a-z é,"\n\r\t']{0,6}$/);
const table = fc.array(fc.array(cell, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 });

/** A table as CSV: cells quoted when they must be (and sometimes when they need not be). */
function encode(rows: string[][], quoteAll: boolean[], lineEnd: string) {
  const quote = (value: string, always: boolean) =>
    always || /[",\n\r]/.test(value) || value === '' ? `"${value.replace(/"/g, '""')}"` : value;
  return rows
    .map((row, r) => row.map((value) => quote(value, quoteAll[r % quoteAll.length])).join(','))
    .join(lineEnd);
}

describe('CsvRecords', () => {
  it('reads what csv-parse reads, however the text is cut into pieces', () => {
    fc.assert(
      fc.property(
        table,
        fc.array(fc.boolean(), { minLength: 1, maxLength: 3 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 5 }),
        (rows, quoteAll, lineEnd, trailing, cutSeeds) => {
          const text = encode(rows, quoteAll, lineEnd) + (trailing ? lineEnd : '');
          const expected: string[][] = parse(text, {
            bom: true,
            skip_empty_lines: true,
            relax_column_count: true,
          });
          const cuts = cutSeeds.map((seed) => seed % (text.length + 1));
          expect(cellsOf(read(text, cuts))).toEqual(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('numbers each record by the line it starts on, past quoted line breaks and empty lines', () => {
    const text = '\ufeffid,note\r\n\r\na,"two\r\nlines"\r\nb,"x\ny"\n\nc,plain\rd,"e"';
    for (const cuts of everyCut(text)) {
      expect(read(text, cuts)).toEqual([
        { line: 1, cells: ['id', 'note'] },
        { line: 3, cells: ['a', 'two\r\nlines'] },
        { line: 5, cells: ['b', 'x\ny'] },
        { line: 8, cells: ['c', 'plain'] },
        { line: 9, cells: ['d', 'e'] },
      ]);
    }
  });

  it('refuses a record that breaks the quoting rules and reads on from the next line', () => {
    const text = 'a,b\nx,y"z\n"p"q,r\nok,1\n"never closed,2\nlast,3';
    for (const cuts of everyCut(text)) {
      const records = read(text, cuts);
      expect(records).toEqual([
        { line: 1, cells: ['a', 'b'] },
        { line: 2, error: expect.stringContaining('Invalid Opening Quote') },
        { line: 3, error: expect.stringContaining('Invalid Closing Quote') },
        { line: 4, cells: ['ok', '1'] },
        { line: 5, error: expect.stringContaining('Quote Not Closed') },
      ]);
    }
  });

  it('keeps doubled quotes, commas and empty cells', () => {
    expect(cellsOf(read('"say ""hi""",,"a,b",\n'))).toEqual([['say "hi"', '', 'a,b', '']]);
  });

  it('stops at a record longer than it holds instead of buffering the body', () => {
    const reader = new CsvRecords();
    reader.take('id\n"');
    expect(() => reader.take('x'.repeat(MAX_RECORD_CHARS + 1))).toThrow('line 2 starts a record longer than');
  });

  it('hands over the records before a record too long, and stops at the next piece', () => {
    const reader = new CsvRecords();
    expect(cellsOf(reader.take(`id\na\nb\n"${'x'.repeat(MAX_RECORD_CHARS)}`))).toEqual([
      ['id'],
      ['a'],
      ['b'],
    ]);
    expect(() => reader.take('more')).toThrow('line 4 starts a record longer than');
    expect(() => reader.finish()).toThrow('line 4 starts a record longer than');
  });
});

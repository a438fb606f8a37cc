import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MAX_RECORD_CHARS } from './csv-records';
import { readRecords, type ImportFormat, type RecordLine } from './read-records';

/** Every record of `body` read from the pieces it is cut into at `cuts` (byte offsets). */
async function readAll(body: Buffer, format: ImportFormat, cuts: number[] = []) {
  const pieces: Buffer[] = [];
  let from = 0;
  for (const cut of cuts) {
    pieces.push(body.subarray(from, cut));
    from = cut;
  }
  pieces.push(body.subarray(from));
  const records: RecordLine[] = [];
  for await (const batch of readRecords(Readable.from(pieces), format, () => {})) records.push(...batch);
  return records;
}

describe('readRecords', () => {
  it('splits NDJSON on LF, CRLF and CR, wherever the body is cut (a CRLF or a character too)', async () => {
    const body = Buffer.from('{"a":"é"}\r\n\r\n{"b":2}\r{"c":3}\nnot json\n[1]\n{"d":"\u2603"}');
    const expected = [
      { line: 1, value: { a: 'é' } },
      { line: 3, value: { b: 2 } },
      { line: 4, value: { c: 3 } },
      { line: 5, error: 'not valid JSON' },
      { line: 6, error: 'each line must be a JSON object' },
      { line: 7, value: { d: '\u2603' } },
    ];
    for (let cut = 0; cut <= body.length; cut++)
      expect(await readAll(body, 'ndjson', [cut])).toEqual(expected);
  });

  it('gives CSV rows as cells in header order and refuses a row of another width', async () => {
    const records = await readAll(Buffer.from('id,city\r\nc1,"Lyon, FR"\r\nc2\r\n'), 'csv', [5, 17]);
    expect(records).toEqual([
      { line: 2, cells: ['c1', 'Lyon, FR'] },
      { line: 3, error: 'Invalid Record Length: expect 2, got 1 on line 3' },
    ]);
  });

  it('stops at an NDJSON line longer than it holds instead of buffering the body', async () => {
    const body = Buffer.from(`{"a":1}\n{"b":"${'x'.repeat(MAX_RECORD_CHARS)}`);
    await expect(readAll(body, 'ndjson', [10, 500_000])).rejects.toThrow('line 2 is longer than');
  });

  it('hands over the lines before one too long, in the same piece, then stops', async () => {
    const body = Buffer.from(`{"a":1}\n{"b":2}\n{"c":"${'x'.repeat(MAX_RECORD_CHARS)}`);
    const handed: RecordLine[] = [];
    const reading = (async () => {
      for await (const records of readRecords(Readable.from([body]), 'ndjson', () => {}))
        handed.push(...records);
    })();
    await expect(reading).rejects.toThrow('line 3 is longer than');
    expect(handed).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 2, value: { b: 2 } },
    ]);
  });
});

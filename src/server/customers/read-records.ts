import { StringDecoder } from 'node:string_decoder';
import { CsvRecords, MAX_RECORD_CHARS, type CsvRecord } from './csv-records';

export type ImportFormat = 'csv' | 'ndjson';

/**
 * One line of an import: its cells in header order (CSV), its object (NDJSON), or why it cannot be
 * read. CSV cells stay an array: building an object per row cost more than converting its values.
 */
export type RecordLine =
  | { line: number; cells: string[] }
  | { line: number; value: Record<string, unknown> }
  | { line: number; error: string };

/**
 * The records of a streamed CSV (header row first, passed to `checkHeader`, which refuses a header
 * that cannot be imported) or NDJSON body, as they arrive: the body is never held whole. They come a
 * piece of the body at a time, so a million rows are not a million turns of an async iterator.
 */
export async function* readRecords(
  source: AsyncIterable<Buffer>,
  format: ImportFormat,
  checkHeader: (columns: string[]) => void,
): AsyncGenerator<RecordLine[]> {
  // Invalid UTF-8 becomes U+FFFD, and a character split between two pieces is joined again.
  const decoder = new StringDecoder('utf8');
  const lines = format === 'csv' ? csvLines(checkHeader) : ndjsonLines();
  for await (const piece of source) yield lines.take(decoder.write(piece));
  yield lines.take(decoder.end(), true);
}

interface LineReader {
  take(text: string, ended?: boolean): RecordLine[];
}

function csvLines(checkHeader: (columns: string[]) => void): LineReader {
  const csv = new CsvRecords();
  let width: number | undefined;
  const check = (record: CsvRecord): RecordLine | undefined => {
    if ('error' in record) return record;
    if (width === undefined) {
      const columns = record.cells.map((column) => column.trim());
      checkHeader(columns);
      width = columns.length;
      return undefined;
    }
    if (record.cells.length === width) return record;
    return {
      line: record.line,
      error: `Invalid Record Length: expect ${width}, got ${record.cells.length} on line ${record.line}`,
    };
  };
  return {
    take(text, ended) {
      const records = [...csv.take(text), ...(ended ? csv.finish() : [])];
      const out: RecordLine[] = [];
      for (const record of records) {
        const line = check(record);
        if (line) out.push(line);
      }
      return out;
    },
  };
}

/** NDJSON lines split as `readline` splits them (LF, CRLF or CR); blank lines are skipped. */
function ndjsonLines(): LineReader {
  let rest = '';
  let line = 0;
  // A line found too long after lines that came before it: thrown once those are handed over.
  let failure: Error | undefined;
  return {
    take(text, ended) {
      if (failure) throw failure;
      const joined = rest + text;
      const parts = joined.split(/\r\n|\n|\r/);
      rest = ended ? '' : parts.pop()!;
      // A CR that ends the text so far may be half of a CRLF: its line waits for the next piece.
      if (!ended && joined.endsWith('\r')) rest = `${parts.pop()!}\r`;
      if (rest.length > MAX_RECORD_CHARS) {
        failure = new Error(
          `line ${line + parts.length + 1} is longer than ${MAX_RECORD_CHARS.toLocaleString('en')} characters`,
        );
        if (!parts.length) throw failure;
        rest = '';
      }
      const out: RecordLine[] = [];
      for (const part of parts) {
        line += 1;
        if (!part.trim()) continue;
        try {
          const value: unknown = JSON.parse(part);
          if (typeof value !== 'object' || value === null || Array.isArray(value)) {
            out.push({ line, error: 'each line must be a JSON object' });
          } else out.push({ line, value: value as Record<string, unknown> });
        } catch {
          out.push({ line, error: 'not valid JSON' });
        }
      }
      return out;
    },
  };
}

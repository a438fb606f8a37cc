import { StringDecoder } from 'node:string_decoder';
import { badRequest } from '../http/errors';
import { jsonDepthExceeds, MAX_BODY_DEPTH } from '../http/input-guard';
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
  // A reader that stops throws at its next piece, so the body is read on until then, not answered early.
  for await (const piece of source) yield lines.take(decoder.write(piece));
  yield lines.take(decoder.end(), true);
  const stopped = lines.stopped();
  if (stopped) throw stopped;
}

interface LineReader {
  take(text: string, ended?: boolean): RecordLine[];
  /**
   * Why reading stopped (a 400 naming the line) after the lines last handed over: those are kept, what
   * follows is not read. `take` throws it at once when no line comes before it, else at the next call.
   */
  stopped(): Error | undefined;
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
      const records = csv.take(text);
      if (ended && !csv.stopped) records.push(...csv.finish());
      const out: RecordLine[] = [];
      for (const record of records) {
        const line = check(record);
        if (line) out.push(line);
      }
      return out;
    },
    stopped: () => csv.stopped,
  };
}

const tooLong = (line: number) =>
  badRequest(`line ${line} is longer than ${MAX_RECORD_CHARS.toLocaleString('en')} characters`);

/**
 * NDJSON lines split as `readline` splits them (LF, CRLF or CR); blank lines are skipped. A line longer
 * than MAX_RECORD_CHARS or nested deeper than a request body may be stops the reading: no customer's
 * row is either, and the depth is checked before parsing, since walking such a value overflows the stack.
 */
function ndjsonLines(): LineReader {
  let rest = '';
  let line = 0;
  // A line found too long or too deep after lines that came before it: thrown once those are handed over.
  let failure: Error | undefined;
  const stop = (error: Error, out: RecordLine[]) => {
    failure = error;
    rest = '';
    if (!out.length) throw error;
    return out;
  };
  return {
    take(text, ended) {
      if (failure) throw failure;
      const joined = rest + text;
      const parts = joined.split(/\r\n|\n|\r/);
      rest = ended ? '' : parts.pop()!;
      // A CR that ends the text so far may be half of a CRLF: its line waits for the next piece.
      if (!ended && joined.endsWith('\r')) rest = `${parts.pop()!}\r`;
      const out: RecordLine[] = [];
      for (const part of parts) {
        line += 1;
        if (part.length > MAX_RECORD_CHARS) return stop(tooLong(line), out);
        if (!part.trim()) continue;
        if (jsonDepthExceeds(part, MAX_BODY_DEPTH)) {
          return stop(badRequest(`line ${line} nests deeper than ${MAX_BODY_DEPTH} levels`), out);
        }
        try {
          const value: unknown = JSON.parse(part);
          if (typeof value !== 'object' || value === null || Array.isArray(value)) {
            out.push({ line, error: 'each line must be a JSON object' });
          } else out.push({ line, value: value as Record<string, unknown> });
        } catch {
          out.push({ line, error: 'not valid JSON' });
        }
      }
      if (rest.length > MAX_RECORD_CHARS) return stop(tooLong(line + 1), out);
      return out;
    },
    stopped: () => failure,
  };
}

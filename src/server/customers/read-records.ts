import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { parse, type CsvError } from 'csv-parse';

export type ImportFormat = 'csv' | 'ndjson';

/** One line of an import: its values by column (CSV) or its object (NDJSON), or why it cannot be read. */
export type RecordLine = { line: number; value: Record<string, unknown> } | { line: number; error: string };

/**
 * The records of a streamed CSV (header row first) or NDJSON body, one at a time as they arrive: the
 * body is never held whole. `checkHeader` refuses a CSV header that cannot be imported (the batch fails).
 */
export async function* readRecords(
  source: Readable,
  format: ImportFormat,
  checkHeader: (columns: string[]) => void,
): AsyncGenerator<RecordLine> {
  if (format === 'ndjson') {
    let line = 0;
    for await (const text of createInterface({ input: source, crlfDelay: Infinity })) {
      line += 1;
      if (!text.trim()) continue;
      try {
        const value: unknown = JSON.parse(text);
        if (typeof value !== 'object' || value === null || Array.isArray(value)) {
          yield { line, error: 'each line must be a JSON object' };
        } else yield { line, value: value as Record<string, unknown> };
      } catch {
        yield { line, error: 'not valid JSON' };
      }
    }
    return;
  }
  const skipped: RecordLine[] = [];
  const parser = source.pipe(
    parse({
      bom: true,
      info: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      on_skip: (err: CsvError | undefined) => {
        const lines = typeof err?.lines === 'number' ? err.lines : 0;
        skipped.push({ line: lines, error: err?.message ?? 'unreadable CSV row' });
        return undefined;
      },
    }),
  );
  keepLinesOnly(parser);
  source.on('error', (err) => parser.destroy(err));
  let columns: string[] | undefined;
  for await (const { record, info } of parser as AsyncIterable<{
    record: string[];
    info: { lines: number };
  }>) {
    while (skipped.length) yield skipped.shift()!;
    if (!columns) {
      columns = record.map((column) => column.trim());
      checkHeader(columns);
      continue;
    }
    // No prototype: a column named __proto__ is a key like any other.
    const value: Record<string, unknown> = Object.create(null);
    for (let i = 0; i < columns.length; i++) value[columns[i]] = record[i];
    yield { line: info.lines, value };
  }
  while (skipped.length) yield skipped.shift()!;
}

/**
 * csv-parse's `info` copies its whole state into a new object for every record (and its `columns`
 * option defines each field as a property): together two thirds of the parse time. Rows here need
 * only the line, so the parser's record info is cut down to it (errors keep their `lines` too).
 */
function keepLinesOnly(parser: unknown) {
  const api = (parser as { api?: { info: { lines: number }; __infoRecord?: unknown } }).api;
  if (typeof api?.__infoRecord !== 'function') return;
  api.__infoRecord = function (this: { info: { lines: number } }) {
    return { lines: this.info.lines };
  };
}

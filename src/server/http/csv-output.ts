import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * The one CSV writer of every CSV the app answers (RFC 4180, CRLF line ends). A cell that a spreadsheet
 * would run as a formula (one starting with `=`, `+`, `-`, `@`, a tab or a carriage return) is written
 * with a leading `'`, so it opens as the text it is; a plain number such as `-12.5` stays a number.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

/** One cell: nothing for null, a list joined with `|`, formulas escaped, quoted when it must be. */
function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = Array.isArray(value) ? value.join('|') : String(value);
  const safe = FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One record, with its line end. */
export const csvRow = (cells: readonly unknown[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** Answers CSV text (whole, or as rows produced one piece at a time) as a download named `fileName`. */
export function sendCsv(reply: FastifyReply, fileName: string, csv: string | AsyncIterable<string>) {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName.replace(/[^\w.-]+/g, '_')}"`)
    .send(typeof csv === 'string' ? csv : Readable.from(csv));
}

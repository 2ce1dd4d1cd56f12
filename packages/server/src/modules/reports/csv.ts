import type { Response } from 'express';
import { Reply } from '../../http/route';

const NUMBER = /^-?\d+(\.\d+)?$/;

/** One CSV cell: quoted when needed; text that a spreadsheet would run as a formula is prefixed with a quote. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(text) && !NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** RFC 4180 CSV with a header row (the keys of the rows, or `columns` when there are none). */
export function toCsv(rows: ReadonlyArray<Record<string, unknown>>, columns?: readonly string[]): string {
  const header = columns ?? Object.keys(rows[0] ?? {});
  const lines = [header.map(cell).join(',')];
  for (const row of rows) lines.push(header.map((c) => cell(row[c])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** Sends one section of a report as text/csv (a download named after the report and section). */
export function sendCsv(
  res: Response,
  name: string,
  rows: ReadonlyArray<Record<string, unknown>>,
  columns: readonly string[],
): Reply {
  res
    .status(200)
    .type('text/csv; charset=utf-8')
    .set('Content-Disposition', `attachment; filename="${name}.csv"`)
    .send(toCsv(rows, columns));
  return new Reply(200);
}

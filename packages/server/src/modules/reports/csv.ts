import type { Response } from 'express';
import { Reply } from '../../http/route';
import { toCsv } from '../../lib/csv';

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

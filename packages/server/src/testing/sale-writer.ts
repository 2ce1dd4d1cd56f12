import {
  SYNTHETIC_TABLES,
  type SyntheticSale,
  saleWriter,
  syntheticInsertSql,
  syntheticSaleRows,
} from '../modules/reports/synthetic-sales';
import type { TestServer } from './harness';

/**
 * Synthetic sales (modules/reports/synthetic-sales.ts) for a test server on either dialect: on SQLite through
 * the server's handle (saleWriter), on PostgreSQL the same rows one INSERT after another (a line after its
 * sale) through t.exec. Each write resolves with the sale id once all its rows are stored.
 */
export function testSaleWriter(t: TestServer): (sale: SyntheticSale) => Promise<string> {
  if (t.dialect === 'sqlite') {
    const write = saleWriter(t.sqlite);
    return async (sale) => write(sale);
  }
  let queue: Promise<unknown> = Promise.resolve();
  return (sale) => {
    const rows = syntheticSaleRows(sale);
    const written = queue.then(async () => {
      for (const table of SYNTHETIC_TABLES)
        for (const r of rows[table]) await t.exec(syntheticInsertSql(table), ...r);
      return rows.id;
    });
    queue = written.catch(() => undefined);
    return written;
  };
}

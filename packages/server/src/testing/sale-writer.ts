import type { Sqlite } from '../db/connection';
import { type SyntheticSale, saleWriter } from '../modules/reports/synthetic-sales';
import type { TestServer } from './harness';

/**
 * saleWriter (modules/reports/synthetic-sales.ts) for a test server on either dialect: on SQLite it writes
 * through the server's handle as before; on PostgreSQL the writer's statements run one after another (a line
 * after its sale) through t.exec. Each write resolves with the sale id once all its rows are stored.
 */
export function testSaleWriter(t: TestServer): (sale: SyntheticSale) => Promise<string> {
  if (t.dialect === 'sqlite') {
    const write = saleWriter(t.sqlite);
    return async (sale) => write(sale);
  }
  let queue: Promise<unknown> = Promise.resolve();
  const statements = {
    prepare: (sql: string) => ({
      run: (...params: unknown[]) => {
        queue = queue.then(() => t.exec(sql, ...params));
      },
    }),
  };
  const write = saleWriter(statements as unknown as Sqlite);
  return async (sale) => {
    const id = write(sale);
    await queue;
    return id;
  };
}

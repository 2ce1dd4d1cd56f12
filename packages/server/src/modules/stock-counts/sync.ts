import { StockCountPayload } from '@pharmacy/contracts';
import { recordChange } from '../../db/changes';
import type { Db } from '../../db/connection';
import type { StockCountLinesTable, StockCountsTable } from '../../db/tables/stock-counts';
import { defineEntity, type EntityRegistration } from '../sync/registry';
import { insertRowIfAbsent } from '../sync/row-writes';

/**
 * Replication of stock counts: one change per count, `{...header, lines}`, till-owned, branch scope,
 * insert-once (header and lines). The variances move stock as `count` movements, which replicate on their own
 * as `stock_movement` changes: applying a count never touches quantities.
 */
type StockCountPayloadRow = StockCountsTable & { lines?: StockCountLinesTable[] };

async function writeStockCount(trx: Db, payload: StockCountPayloadRow): Promise<void> {
  const { lines = [], ...header } = payload;
  if (!(await insertRowIfAbsent(trx, 'stock_counts', 'id', header))) return;
  for (const line of lines) await insertRowIfAbsent(trx, 'stock_count_lines', 'id', line);
  await recordChange(trx, {
    entity: 'stock_count',
    entityId: header.id,
    op: 'upsert',
    payload,
    branchId: header.branch_id,
  });
}

const stockCountEntity = defineEntity<StockCountPayloadRow>({
  entity: 'stock_count',
  push: 'till-owned',
  payloadSchema: StockCountPayload,
  owner: 'till',
  scope: 'branch',
  table: 'stock_counts',
  order: 110,
  rest: [{ method: 'post', path: '/stockcount/submit' }],
  children: { lines: 'stock_count_id' },
  references: [{ field: 'batch_id', in: 'lines', table: 'batches' }],
  write: writeStockCount,
});

/** Snapshot only (a count's lines travel inside its change): the lines of the branch's counts. */
const stockCountLineEntity: EntityRegistration = {
  entity: 'stock_count_line',
  push: 'central-only',
  owner: 'till',
  scope: 'branch',
  table: 'stock_count_lines',
  order: 111,
  snapshotWhere: 'stock_count_id IN (SELECT id FROM stock_counts WHERE branch_id = ?)',
};

/** The entities this area replicates, registered once at start-up (modules/index.ts). */
export const stockCountsEntities: readonly EntityRegistration[] = [stockCountEntity, stockCountLineEntity];

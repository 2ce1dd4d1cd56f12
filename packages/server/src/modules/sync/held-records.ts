import fs from 'node:fs';
import path from 'node:path';
import type { HeldRecords, HeldRecordsArchive } from '@pharmacy/contracts';
import { sql } from 'kysely';
import type { AppContext } from '../../app-context';
import { requireSqlite } from '../../db/connection';
import type { Db } from '../../db/connection';
import { commitPending } from '../../db/group-commit';
import { Conflict } from '../../lib/errors';
import { nowIso } from '../../lib/time';
import { getLocalDeviceId } from '../fiscal/device';
import { getMeta, setMeta } from './meta';
import { registeredEntities } from './registry';

/**
 * A till's own business records that head office has not received (issue 28.2): its unsent changes of
 * till-owned entities (sales, returns, cash sessions, ledger rows, stock movements, prescriptions…). The demo
 * catalogue's stock is not one of them: it is never sent (skipDemoChanges).
 *
 * Connecting never loses them. A till that holds head office's data (it was connected, then sold while
 * disconnected) holds records naming head office's catalogue, staff and its branch: they are sent as they are
 * when it connects to that branch, exactly once (central keeps each change's result by client mutation id).
 * A till that never held head office's data sold against its own catalogue and staff, which head office does
 * not know: no exact re-homing exists, so it connects only once they are archived (a copy of its whole
 * database in its data folder), and the connect form says so. docs/ARCHITECTURE.md, "Connecting a till that
 * has sold".
 */

/** A demo catalogue's stock movement: a fresh till's sample data, never head office's business. */
const isDemo = sql<boolean>`coalesce(json_extract(payload, '$.reference_type'), '') = 'demo_catalogue'`;

/** Marks the demo catalogue's unsent stock movements as never to be sent. */
export async function skipDemoChanges(trx: Db): Promise<void> {
  await trx
    .updateTable('change_log')
    .set({ sync_status: 'skipped' })
    .where('from_remote', '=', sql.lit(0))
    .where('sync_status', 'is', null)
    .where('entity', '=', 'stock_movement')
    .where(isDemo)
    .execute();
}

const tillOwned = () =>
  registeredEntities()
    .filter((d) => d.owner === 'till')
    .map((d) => d.entity);

/** The unsent own changes of till-owned entities, the demo catalogue's left out. */
function heldChanges(db: Db) {
  return db
    .selectFrom('change_log')
    .where('from_remote', '=', sql.lit(0))
    .where('sync_status', 'is', null)
    .where('entity', 'in', tillOwned())
    .where((eb) => eb.not(eb.and([eb('entity', '=', 'stock_movement'), isDemo])));
}

export async function heldRecords(app: AppContext): Promise<HeldRecords> {
  requireSqlite(app, "A till's own records");
  const rows = await heldChanges(app.db)
    .select(['entity', 'branch_id', (eb) => eb.fn.count<number>('entity_id').distinct().as('n')])
    .groupBy(['entity', 'branch_id'])
    .execute();
  const count = (entity: string) =>
    rows.filter((r) => r.entity === entity).reduce((sum, r) => sum + Number(r.n), 0);
  const invoices = await app.db
    .selectFrom('sales')
    .select((eb) => [eb.fn.min('invoice_number').as('first'), eb.fn.max('invoice_number').as('last')])
    .where('id', 'in', heldChanges(app.db).select('entity_id').where('entity', '=', 'sale'))
    .executeTakeFirst();
  const bootstrapped = (await getMeta(app.db, 'bootstrapped')) === '1';
  const branches = [...new Set(rows.map((r) => r.branch_id).filter((b): b is string => b !== null))];
  // Held records name head office's data only on a till that holds it; rows naming no branch are the till's.
  const ownBranch = !bootstrapped
    ? null
    : branches.length === 0
      ? await getMeta(app.db, 'branch_id')
      : branches.length === 1
        ? branches[0]!
        : null;
  return {
    total: rows.reduce((sum, r) => sum + Number(r.n), 0),
    sales: count('sale'),
    returns: count('return'),
    cash_sessions: count('cash_session'),
    first_invoice: invoices?.first ?? null,
    last_invoice: invoices?.last ?? null,
    branch_id: ownBranch,
    open_session: await sessionOpenHere(app),
  };
}

/** Whether a cash session of this till (its fiscal identity) is open or on a break. */
export async function sessionOpenHere(app: AppContext): Promise<boolean> {
  const open = await app.db
    .selectFrom('cash_sessions')
    .select('id')
    .where('device_id', '=', await getLocalDeviceId(app.db))
    .where('status', '!=', 'closed')
    .executeTakeFirst();
  return open !== undefined;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What the till holds, in words: "12 sales (MAIN-1096-000001 to MAIN-1096-000012), 1 cash session". */
export function heldInWords(held: HeldRecords): string {
  const parts = [
    held.sales > 0 &&
      `${plural(held.sales, 'sale')}${held.first_invoice ? ` (${held.first_invoice}${held.last_invoice !== held.first_invoice ? ` to ${held.last_invoice}` : ''})` : ''}`,
    held.returns > 0 && plural(held.returns, 'return'),
    held.cash_sessions > 0 && plural(held.cash_sessions, 'cash session'),
  ].filter((p): p is string => Boolean(p));
  const other = held.total - held.sales - held.returns - held.cash_sessions;
  if (other > 0) parts.push(plural(other, parts.length ? 'other record' : 'record'));
  return parts.join(', ');
}

/**
 * Refuses a connect that would strand the till's own records: an open cash session (closed with its Z report
 * first, so every sale is in a session head office receives whole), or records head office could not take as
 * they are (the till never held its data, or they belong to another branch than the one chosen).
 */
export async function assertConnectKeepsRecords(
  app: AppContext,
  branchId: string | undefined,
): Promise<void> {
  const held = await heldRecords(app);
  if (held.open_session)
    throw new Conflict(
      'A cash session is open on this till. Close it (Cash session → Close, with its Z report) before connecting to head office.',
      'SESSION_OPEN',
    );
  if (held.total === 0) return;
  const what = heldInWords(held);
  if (held.branch_id === null)
    throw new Conflict(
      `This till holds ${what} made before it was connected, against its own catalogue and staff, which head office does not know. Archive them first (Archive this till's records: a copy of its whole database stays in its data folder), then connect.`,
      'TILL_HOLDS_RECORDS',
    );
  if (branchId !== held.branch_id)
    throw new Conflict(
      `This till holds ${what} of another branch, made while it was disconnected. Connect it to that branch so they are sent to head office, or archive them first.`,
      'TILL_HOLDS_RECORDS',
    );
}

/** A name for an archive file: the time, without characters a file system may refuse. */
const stamp = () =>
  nowIso()
    .replaceAll(':', '-')
    .replace(/\.\d+Z$/, 'Z');

/**
 * Archives the till's own records before it connects: a consistent copy of its whole database (every sale,
 * return, session, ledger row and the fiscal chain) in DATA_DIR/archives, mode 0600; then marks their unsent
 * changes as not to be sent, so the connect goes ahead. Nothing is marked when the copy fails. A till with no
 * records of its own gets its copy all the same (the till as it was before connecting).
 */
export async function archiveHeldRecords(app: AppContext): Promise<HeldRecordsArchive> {
  const sqlite = requireSqlite(app, "Archiving a till's records");
  const held = await heldRecords(app);
  const dir = path.join(app.config.dataDir, 'archives');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `before-head-office-${stamp()}.db`);
  await commitPending(app.db);
  await sqlite.backup(file);
  fs.chmodSync(file, 0o600);
  await app.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('change_log')
      .set({ sync_status: 'skipped', sync_result: JSON.stringify({ archived: file }) })
      .where('from_remote', '=', sql.lit(0))
      .where('sync_status', 'is', null)
      .where('entity', 'in', tillOwned())
      .execute();
    await setMeta(trx, 'archived_before_connect', JSON.stringify({ file, at: nowIso(), ...held }));
  });
  return { file, archived: held };
}

import { runStatements } from '../../db/migrations/run-statements';
import { sql } from 'kysely';
import type { AppContext } from '../../app-context';
import { recordChange, recordUpsert } from '../../db/changes';
import type { Db } from '../../db/connection';
import { Invalid } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { defineEntity, registerEntity } from './registry';

/**
 * A small till-owned entity for the sync tests and bench until selling registers real sales: `test_sale`,
 * one change carrying the sale, its lines and its stock movements, with a per-device invoice counter (ICV).
 * Enabled only by PHARMACY_SYNC_TEST_ENTITIES=1 (tables created at start, never by a migration).
 */
export const TEST_ENTITIES = process.env.PHARMACY_SYNC_TEST_ENTITIES === '1';

export async function ensureTestEntityTables(app: AppContext): Promise<void> {
  // Written for SQLite; runStatements translates them for a PostgreSQL central.
  await runStatements(app.db, [
    `CREATE TABLE IF NOT EXISTS sync_test_sales (
      id TEXT PRIMARY KEY, branch_id TEXT NOT NULL, device_key TEXT NOT NULL, invoice_number TEXT NOT NULL UNIQUE,
      icv INTEGER NOT NULL, total_minor INTEGER NOT NULL, lines TEXT NOT NULL, sold_at TEXT NOT NULL, created_at TEXT NOT NULL
    ) STRICT`,
    `CREATE TABLE IF NOT EXISTS sync_test_movements (
      id TEXT PRIMARY KEY, sale_id TEXT NOT NULL REFERENCES sync_test_sales(id), branch_id TEXT NOT NULL,
      item TEXT NOT NULL, qty INTEGER NOT NULL
    ) STRICT`,
  ]);
}

interface TestLine {
  item: string;
  qty: number;
  price_minor: number;
}

export interface TestSale {
  id: string;
  branch_id: string;
  device_key: string;
  invoice_number: string;
  icv: number;
  total_minor: number;
  lines: TestLine[];
  sold_at: string;
  created_at: string;
}

/** A pushed test sale: its lines checked at apply (this entity has no payloadSchema); `poison` never applies. */
function validate(p: TestSale & { poison?: unknown }): TestSale {
  const lines = p.lines;
  if (p.poison === true)
    throw new Invalid('This sale can never apply (poison test change).', undefined, 'POISON');
  if (!Array.isArray(lines) || lines.length === 0) throw new Invalid('A sale needs lines.');
  for (const l of lines)
    if (!Number.isInteger(l.qty) || l.qty <= 0 || typeof l.item !== 'string')
      throw new Invalid('Bad sale line.');
  return p;
}

async function insertSale(trx: Db, s: TestSale, ignoreExisting: boolean): Promise<boolean> {
  const exists = await sql`SELECT 1 FROM sync_test_sales WHERE id = ${s.id}`.execute(trx);
  if (exists.rows.length > 0) {
    if (ignoreExisting) return false;
    throw new Invalid(`Sale ${s.id} already exists.`, undefined, 'DUPLICATE');
  }
  await sql`INSERT INTO sync_test_sales (id, branch_id, device_key, invoice_number, icv, total_minor, lines, sold_at, created_at)
    VALUES (${s.id}, ${s.branch_id}, ${s.device_key}, ${s.invoice_number}, ${s.icv}, ${s.total_minor}, ${JSON.stringify(s.lines)}, ${s.sold_at}, ${s.created_at})`.execute(
    trx,
  );
  // Stock moves as a ledger of movements, so sales at several tills add up instead of overwriting.
  for (const [i, l] of s.lines.entries())
    await sql`INSERT INTO sync_test_movements (id, sale_id, branch_id, item, qty) VALUES (${`${s.id}:${i}`}, ${s.id}, ${s.branch_id}, ${l.item}, ${-l.qty})`.execute(
      trx,
    );
  return true;
}

if (TEST_ENTITIES) {
  registerEntity(
    defineEntity<TestSale>({
      entity: 'test_sale',
      push: 'till-owned',
      owner: 'till',
      scope: 'branch',
      table: 'sync_test_sales',
      order: 1000,
      fromRow: (row) => ({ ...row, lines: JSON.parse(String(row.lines)) }),
      applyPush: async (trx, change) => {
        const sale = validate(change.payload);
        await insertSale(trx, sale, false);
        await recordUpsert(trx, 'test_sale', sale, sale.branch_id);
        return { id: sale.id, invoice_number: sale.invoice_number, icv: sale.icv };
      },
      applyPulled: async (trx, change) => {
        await insertSale(trx, change.payload, true);
      },
    }),
  );
}

/** Till: records a test sale (ICV and invoice number from this till's own counter, never central). */
export async function createTestSale(
  app: AppContext,
  branchId: string,
  input: { lines: TestLine[]; sold_at?: string; poison?: boolean },
): Promise<TestSale> {
  const deviceKey = app.config.syncDeviceId ?? (await deviceKeyOf(app));
  return app.db.transaction().execute(async (trx) => {
    const last = await sql<{
      icv: number | null;
    }>`SELECT max(icv) AS icv FROM sync_test_sales WHERE device_key = ${deviceKey}`.execute(trx);
    const icv = Number(last.rows[0]?.icv ?? 0) + 1;
    const sale: TestSale = {
      id: newId(),
      branch_id: branchId,
      device_key: deviceKey,
      invoice_number: `${deviceKey.slice(-8)}-${String(icv).padStart(6, '0')}`,
      icv,
      total_minor: input.lines.reduce((t, l) => t + l.qty * l.price_minor, 0),
      lines: input.lines,
      sold_at: input.sold_at ?? nowIso(),
      created_at: nowIso(),
    };
    await insertSale(trx, sale, false);
    await recordChange(trx, {
      entity: 'test_sale',
      entityId: sale.id,
      op: 'upsert',
      payload: input.poison ? { ...sale, poison: true } : sale,
      branchId,
    });
    return sale;
  });
}

async function deviceKeyOf(app: AppContext): Promise<string> {
  const { readCredential, credentialFile } = await import('@pharmacy/sync');
  return (
    readCredential(app.config.syncDeviceFile ?? credentialFile(app.config.dataDir))?.device_id ?? 'standalone'
  );
}

import type {
  CreateSupplierRequest,
  SUPPLIER_SORTS,
  Supplier,
  UpdateSupplierRequest,
} from '@pharmacy/contracts';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import { recordUpsert } from '../../db/changes';
import { Conflict, Invalid, NotFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import type { SuppliersTable } from '../../db/tables/suppliers';
import { containsText } from '../../db/like';
import { paginate } from '../../db/paginate';

export const toSupplier = (r: SuppliersTable): Supplier => ({ ...r, is_active: r.is_active === 1 });

export async function getSupplierRow(db: Db, id: string): Promise<SuppliersTable> {
  const row = await db.selectFrom('suppliers').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new NotFound('Supplier', id);
  return row;
}

/** For purchases and purchase orders: the supplier must exist (404) and be active (400). */
export async function requireActiveSupplier(db: Db, id: string): Promise<SuppliersTable> {
  const row = await getSupplierRow(db, id);
  if (!row.is_active)
    throw new Invalid(`Supplier ${row.name} is inactive.`, [
      { path: 'supplier_id', message: 'inactive supplier' },
    ]);
  return row;
}

export async function listSuppliers(
  app: AppContext,
  f: {
    page: number;
    page_size: number;
    search?: string;
    is_active: 'true' | 'false' | 'all';
    sort?: (typeof SUPPLIER_SORTS)[number];
    order?: 'asc' | 'desc';
  },
) {
  let q = app.db.selectFrom('suppliers');
  if (f.is_active !== 'all') q = q.where('is_active', '=', f.is_active === 'true' ? 1 : 0);
  if (f.search) {
    const search = f.search;
    q = q.where((eb) => eb.or([containsText('name', search), containsText('tax_number', search)]));
  }
  const dir = f.order ?? 'asc';
  const sort = f.sort ?? 'name';
  const found = await paginate(q, f, (q) => {
    let sorted = q.selectAll();
    if (sort !== 'name') sorted = sorted.orderBy(sort, dir);
    // ids are UUIDv7: creation order within the same millisecond
    if (sort === 'created_at') sorted = sorted.orderBy('id', dir);
    return sorted.orderBy(sql`name COLLATE NOCASE`, sort === 'name' ? dir : 'asc').orderBy('id');
  });
  return { ...found, items: found.items.map(toSupplier) };
}

/** Two active suppliers never share a tax number (the same company entered twice). */
async function assertTaxNumberFree(db: Db, taxNumber: string, exceptId?: string) {
  if (!taxNumber) return;
  const clash = await db
    .selectFrom('suppliers')
    .select(['id', 'name'])
    .where('tax_number', '=', taxNumber)
    .where('is_active', '=', 1)
    .executeTakeFirst();
  if (clash && clash.id !== exceptId)
    throw new Conflict(
      `The active supplier ${clash.name} already has tax number ${taxNumber}.`,
      'DUPLICATE_TAX_NUMBER',
    );
}

async function writeSupplier(trx: Db, row: SuppliersTable): Promise<void> {
  await trx
    .insertInto('suppliers')
    .values(row)
    .onConflict((oc) => oc.column('id').doUpdateSet(row))
    .execute();
  await recordUpsert(trx, 'supplier', row, null);
}

export async function createSupplier(
  app: AppContext,
  actor: Actor,
  input: z.output<typeof CreateSupplierRequest>,
  trx?: Db,
): Promise<Supplier> {
  const at = nowIso();
  const row: SuppliersTable = { id: newId(), ...input, is_active: 1, created_at: at, updated_at: at };
  const write = async (t: Db) => {
    await assertTaxNumberFree(t, row.tax_number);
    await writeSupplier(t, row);
    await writeAudit(t, actor, {
      action: 'supplier.create',
      entity: 'supplier',
      entityId: row.id,
      branchId: null,
      after: row,
    });
  };
  if (trx) await write(trx);
  else await app.db.transaction().execute(write);
  return toSupplier(row);
}

export async function updateSupplier(
  app: AppContext,
  actor: Actor,
  id: string,
  patch: z.output<typeof UpdateSupplierRequest>,
): Promise<Supplier> {
  let out: SuppliersTable | undefined;
  await app.db.transaction().execute(async (trx) => {
    const before = await getSupplierRow(trx, id);
    const { is_active, ...fields } = patch;
    const row: SuppliersTable = {
      ...before,
      ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)),
      ...(is_active !== undefined && { is_active: is_active ? 1 : 0 }),
      updated_at: nowIso(),
    };
    if (row.is_active) await assertTaxNumberFree(trx, row.tax_number, id);
    await writeSupplier(trx, row);
    await writeAudit(trx, actor, {
      action: 'supplier.update',
      entity: 'supplier',
      entityId: id,
      branchId: null,
      before,
      after: row,
    });
    out = row;
  });
  return toSupplier(out!);
}

/** Soft delete: is_active 0; batches and invoices keep pointing at the record. */
export async function deactivateSupplier(app: AppContext, actor: Actor, id: string): Promise<void> {
  await app.db.transaction().execute(async (trx) => {
    const before = await getSupplierRow(trx, id);
    await writeSupplier(trx, { ...before, is_active: 0, updated_at: nowIso() });
    await writeAudit(trx, actor, {
      action: 'supplier.deactivate',
      entity: 'supplier',
      entityId: id,
      branchId: null,
      before: { is_active: before.is_active === 1 },
      after: { is_active: false },
    });
  });
}

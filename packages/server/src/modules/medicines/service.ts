import {
  type CreateMedicineRequest,
  type MedicineSort,
  type Medicine,
  type MedicineDetail,
  type UpdateMedicineRequest,
  vatRateOf,
} from '@pharmacy/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { z } from 'zod';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import { recordChange } from '../../db/changes';
import { rawQuery } from '../../db/raw-query';
import { branchTimeZone } from '../branches/time-zone';
import { Conflict, Invalid, NotFound } from '../../http/errors';
import { newId } from '../../lib/ids';
import { formatMinor, toMinor } from '../../lib/money';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { findCategorySlug } from '../categories/slug';
import { currencyExponent } from '../currency/service';
import type { JsonText } from '../../http/route';
import { medicineStore } from './store';
import { activeCondition, catalogueConditions, stockSortedPage } from './stock-sort';
import { imageReadUrl } from '../images/storage';
import { getSettings } from '../settings/service';
import { localDate } from '../stock/dates';
import { branchToday, heldInBatch } from '../stock/ledger';
import type { MedicinesTable } from '../../db/tables/medicines';
import { startsWithText } from '../../db/like';

/**
 * The lookup form of a barcode: GTINs (8, 12, 13 or 14 digits) are right-aligned numbers, so leading zeros are
 * dropped and a GTIN-14 "0" + EAN-13 finds the EAN-13; other codes are compared case-insensitively.
 */
export function barcodeKey(code: string): string {
  const c = code.trim();
  if (/^\d{8,14}$/.test(c)) return c.replace(/^0+/, '') || '0';
  return c.toUpperCase();
}

/** The base currency's exponent: medicine prices are minor units of it. */
export async function baseExponent(app: AppContext): Promise<number> {
  return currencyExponent(app, (await getSettings(app)).base_currency_code);
}

export async function toMedicine(
  app: AppContext,
  r: MedicinesTable,
  stock: number,
  exponent: number,
): Promise<Medicine> {
  return {
    id: r.id,
    name: r.name,
    generic_name: r.generic_name,
    barcode: r.barcode,
    category: r.category,
    form: r.form,
    strength: r.strength,
    unit: r.unit,
    selling_price: formatMinor(r.selling_price, exponent),
    max_public_price: r.max_public_price === null ? null : formatMinor(r.max_public_price, exponent),
    stock_quantity: stock,
    low_stock_threshold: r.low_stock_threshold,
    requires_prescription: r.requires_prescription === 1,
    is_controlled: r.is_controlled === 1,
    requires_cold_chain: r.requires_cold_chain === 1,
    is_active: r.is_active === 1,
    vat_category: r.vat_category,
    regulator_registration_no: r.regulator_registration_no,
    image_key: r.image_key,
    image_url: await imageReadUrl(app, r.image_key),
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** Units of batch `b` held for the will-call shelf (stock/reservations.ts): on hand, not available. */
const HELD = `(SELECT coalesce(sum(r.quantity), 0) FROM stock_reservations r WHERE r.batch_id = b.id AND r.status = 'held')`;

/**
 * Sellable units of medicine `m` in a branch: active, unexpired batches less the units held for the will-call
 * shelf (SQL expression for lists).
 */
const stockExpr = (branchId: string, day: string) =>
  sql<number>`(SELECT coalesce(sum(b.qty_on_hand - ${sql.raw(HELD)}), 0) FROM batches b WHERE b.branch_id = ${branchId} AND b.medicine_id = m.id AND b.regulator_status = 'active' AND b.expiry_date >= ${day})`;

export async function getMedicineRow(db: Db, id: string): Promise<MedicinesTable> {
  const row = await db.selectFrom('medicines').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new NotFound('Medicine', id);
  return row;
}

export async function getMedicine(app: AppContext, id: string, branchId: string): Promise<Medicine> {
  const day = await branchToday(app.db, branchId);
  const row = await app.db
    .selectFrom('medicines as m')
    .selectAll('m')
    .select(stockExpr(branchId, day).as('stock_quantity'))
    .where('m.id', '=', id)
    .executeTakeFirst();
  if (!row) throw new NotFound('Medicine', id);
  return toMedicine(app, row, Number(row.stock_quantity), await baseExponent(app));
}

export async function getMedicineDetail(
  app: AppContext,
  id: string,
  branchId: string,
): Promise<MedicineDetail> {
  const medicine = await getMedicine(app, id, branchId);
  const day = await branchToday(app.db, branchId);
  const batches = await app.db
    .selectFrom('batches')
    .select(['id', 'batch_number', 'expiry_date', 'qty_on_hand', 'regulator_status', heldInBatch.as('held')])
    .where('branch_id', '=', branchId)
    .where('medicine_id', '=', id)
    .where('qty_on_hand', '!=', 0)
    .orderBy('expiry_date')
    .orderBy('received_at')
    .execute();
  return {
    ...medicine,
    branch_id: branchId,
    batches: batches.map(({ held, ...b }) => ({
      ...b,
      qty_reserved: Number(held),
      is_expired: b.expiry_date < day,
      sellable: b.regulator_status === 'active' && b.expiry_date >= day && b.qty_on_hand > Number(held),
    })),
  };
}

export interface MedicineListFilter {
  page: number;
  page_size: number;
  search?: string;
  barcode?: string;
  category?: string;
  is_active: 'true' | 'false' | 'all';
  requires_prescription?: boolean;
  is_controlled?: boolean;
  low_stock?: boolean;
  out_of_stock?: boolean;
  sort: MedicineSort;
  order: 'asc' | 'desc';
}

const barcodeQuery = rawQuery<{ id: string }>(
  'SELECT id FROM medicines WHERE barcode_key = ? ORDER BY is_active DESC, updated_at DESC LIMIT 1',
);

/** Medicines by id, in the given order, with the branch's stock: the second step of every list. */
async function hydrate(app: AppContext, ids: string[], branchId: string, day: string): Promise<Medicine[]> {
  if (ids.length === 0) return [];
  const rows = await medicineStore(app).withStock(ids, branchId, day);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const exponent = await baseExponent(app);
  const out: Medicine[] = [];
  for (const id of ids) {
    const r = byId.get(id);
    if (r) out.push(await toMedicine(app, r, Number(r.stock_quantity), exponent));
  }
  return out;
}

/**
 * The catalogue with the branch's stock: filters, search-as-you-type (FTS5 prefix) and exact barcode. Two
 * steps: the page of ids (filters, order, limit) and then the rows with their stock, so stock is summed for
 * the page only, never for every match of a short prefix.
 */
export async function listMedicines(
  app: AppContext,
  branchId: string,
  f: MedicineListFilter,
): Promise<JsonText | { items: Medicine[]; total: number; page: number; page_size: number }> {
  const day = await branchTodayCached(app, branchId);
  const store = medicineStore(app);
  const stockFilters = f.low_stock !== undefined || f.out_of_stock !== undefined;
  if (!f.search && !f.barcode && !stockFilters) {
    // A page the engine builds itself (a till's SQLite: its JSON, kept while nothing changed), where it can.
    const page = store.browse(app, branchId, day, await baseExponent(app), f);
    if (page) return page;
  }
  const sorted = f.sort !== 'name' || f.order !== 'asc';
  const plain =
    !sorted &&
    f.is_active === 'true' &&
    !f.barcode &&
    !f.category &&
    f.requires_prescription === undefined &&
    f.is_controlled === undefined &&
    !stockFilters;
  if (f.search && plain) {
    const large = store.searchLargeActive(f.search, f.page, f.page_size);
    if (large) {
      const items = await hydrate(app, large.ids, branchId, day);
      return { items, total: large.total, page: f.page, page_size: f.page_size };
    }
  }
  // The filter's conditions but is_active, which the stock sort reads from its own index.
  const conditions = catalogueConditions(f);
  if (f.search !== undefined && f.search !== '') {
    const search = store.searchCondition(f.search, 'm');
    if (search === null) return { items: [], total: 0, page: f.page, page_size: f.page_size };
    conditions.push(search);
  }
  if (f.barcode) conditions.push(sql<boolean>`m.barcode_key = ${barcodeKey(f.barcode)}`);
  const stock = stockExpr(branchId, day);
  if (f.low_stock !== undefined)
    conditions.push(
      f.low_stock
        ? sql<boolean>`${stock} <= m.low_stock_threshold`
        : sql<boolean>`${stock} > m.low_stock_threshold`,
    );
  if (f.out_of_stock !== undefined)
    conditions.push(f.out_of_stock ? sql<boolean>`${stock} <= 0` : sql<boolean>`${stock} > 0`);
  const active = activeCondition('m', f.is_active);
  const q = [...conditions, ...(active ? [active] : [])].reduce(
    (query, c) => query.where(c),
    medicinesFrom(app.db),
  );
  const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const ids =
    f.sort === 'stock_quantity' && !stockFilters
      ? (await stockSorted(app, branchId, day, conditions, Number(total), f)).map((r) => r.id)
      : await pageOfIds(q, f, sorted, stock);
  const items = await hydrate(app, ids, branchId, day);
  return { items, total: Number(total), page: f.page, page_size: f.page_size };
}

/** A page sorted by the branch's stock, in segments from medicine_stock (stock-sort.ts): no sort of every match. */
function stockSorted(
  app: AppContext,
  branchId: string,
  day: string,
  conditions: RawBuilder<boolean>[],
  total: number,
  f: MedicineListFilter,
) {
  const store = medicineStore(app);
  return stockSortedPage({
    db: app.db,
    branchId,
    day,
    active: f.is_active,
    conditions,
    desc: f.order === 'desc',
    limit: f.page_size,
    offset: (f.page - 1) * f.page_size,
    total: async () => total,
    rowsTable: (rows) => store.rowsTable(rows),
  });
}

const medicinesFrom = (db: Db) => db.selectFrom('medicines as m');

/** The general query's page of ids: the filter's order, ties by name then id. */
async function pageOfIds(
  q: ReturnType<typeof medicinesFrom>,
  f: MedicineListFilter,
  sorted: boolean,
  stock: RawBuilder<number>,
): Promise<string[]> {
  let idsQ = q.select('m.id');
  if (sorted) {
    const dir = f.order === 'desc' ? 'desc' : 'asc';
    idsQ = idsQ.orderBy(
      f.sort === 'stock_quantity'
        ? sql`${stock} ${sql.raw(dir)}`
        : f.sort === 'name'
          ? sql`m.name COLLATE NOCASE ${sql.raw(dir)}`
          : f.sort === 'generic_name'
            ? sql`m.generic_name COLLATE NOCASE ${sql.raw(dir)}`
            : // NULL sorts first ascending on SQLite and last on PostgreSQL: say it, so both agree.
              sql`${sql.ref(`m.${f.sort}`)} ${sql.raw(dir === 'asc' ? 'ASC NULLS FIRST' : 'DESC NULLS LAST')}`,
    );
  } else if (f.search) {
    // Names that start with what was typed come first, then the other matches (generic name, barcode, later words).
    idsQ = idsQ.orderBy(sql`CASE WHEN ${startsWithText('m.name', f.search.trim())} THEN 0 ELSE 1 END`);
  }
  // Ties follow the sort's direction (a descending list is the ascending one reversed), ending on the id as
  // the browse path does, so pages never overlap.
  const tie = sql.raw(sorted && f.order === 'desc' ? 'DESC' : 'ASC');
  const rows = await idsQ
    .orderBy(sql`m.name COLLATE NOCASE ${tie}`)
    .orderBy(sql`m.id ${tie}`)
    .limit(f.page_size)
    .offset((f.page - 1) * f.page_size)
    .execute();
  return rows.map((r) => r.id);
}

/** Exact barcode lookup (GTIN-aware): the active medicine first, else the most recently updated inactive one. */
export async function findByBarcode(app: AppContext, code: string, branchId: string): Promise<Medicine> {
  const row = await barcodeQuery.first(app, [barcodeKey(code)]);
  if (!row) throw new NotFound('Medicine with barcode', code);
  const [medicine] = await hydrate(app, [row.id], branchId, await branchTodayCached(app, branchId));
  return medicine!;
}

/**
 * The branch's local date for the hot reads, with its time zone cached for a minute (a branch's time zone
 * rarely changes; a change shows within a minute here, at once everywhere else).
 */
async function branchTodayCached(app: AppContext, branchId: string): Promise<string> {
  const key = `branch-tz:${branchId}`;
  const hit = app.cache.get(key) as { tz: string; at: number } | undefined;
  if (hit && Date.now() - hit.at < 60_000) return localDate(hit.tz);
  const tz = await branchTimeZone(app.db, branchId);
  app.cache.set(key, { tz, at: Date.now() });
  return localDate(tz);
}

// Writes -----------------------------------------------------------------------------------------------

export async function writeMedicine(trx: Db, row: MedicinesTable): Promise<void> {
  await trx
    .insertInto('medicines')
    .values(row)
    .onConflict((oc) => oc.column('id').doUpdateSet(row))
    .execute();
  await recordMedicineChange(trx, row);
}

/** The catalogue is organisation data: medicine changes replicate to every till. */
export async function recordMedicineChange(trx: Db, row: MedicinesTable): Promise<void> {
  await recordChange(trx, {
    entity: 'medicine',
    entityId: row.id,
    op: 'upsert',
    payload: row,
    branchId: null,
  });
}

/** Bumps updated_at and replicates every medicine of a category whose slug just changed; returns how many. */
export async function touchMedicinesOfCategory(trx: Db, slug: string): Promise<number> {
  const at = nowIso();
  await trx.updateTable('medicines').set({ updated_at: at }).where('category', '=', slug).execute();
  const rows = await trx.selectFrom('medicines').selectAll().where('category', '=', slug).execute();
  for (const row of rows) await recordMedicineChange(trx, row);
  return rows.length;
}

export async function countMedicinesInCategory(db: Db, slug: string): Promise<number> {
  const { n } = await db
    .selectFrom('medicines')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('category', '=', slug)
    .executeTakeFirstOrThrow();
  return Number(n);
}

type PriceInput = Pick<z.output<typeof CreateMedicineRequest>, 'selling_price' | 'max_public_price'>;

interface Validated {
  selling_price?: number;
  max_public_price?: number | null;
  category?: string | null;
}

async function validateRefs(
  app: AppContext,
  body: Partial<PriceInput> & { category?: string | null; vat_category?: string },
  db: Db = app.db,
): Promise<Validated> {
  const out: Validated = {};
  const exponent = await baseExponent(app);
  if (body.selling_price !== undefined)
    out.selling_price = toMinor(body.selling_price, exponent, 'selling_price');
  if (body.max_public_price !== undefined)
    out.max_public_price =
      body.max_public_price === null ? null : toMinor(body.max_public_price, exponent, 'max_public_price');
  if (body.vat_category !== undefined) {
    const policy = (await getSettings(app)).tax_policy;
    const rates = policy.vat_rates;
    if (vatRateOf(policy, body.vat_category) === undefined)
      throw new Invalid(
        `vat_category ${body.vat_category} is not in the tax policy; use one of ${Object.keys(rates).join(', ')}.`,
        [{ path: 'vat_category', message: `must be one of ${Object.keys(rates).join(', ')}` }],
      );
  }
  if (body.category !== undefined && body.category !== null) {
    const slug = await findCategorySlug(db, body.category);
    if (!slug) throw new NotFound('Category', body.category);
    out.category = slug;
  } else if (body.category === null) out.category = null;
  return out;
}

function assertPriceCeiling(selling: number, max: number | null, exponent: number): void {
  if (max !== null && selling > max)
    throw new Invalid(
      `selling_price ${formatMinor(selling, exponent)} exceeds the maximum public price ${formatMinor(max, exponent)}.`,
      [{ path: 'selling_price', message: 'must not exceed max_public_price' }],
    );
}

async function assertBarcodeFree(db: Db, key: string | null, exceptId?: string): Promise<void> {
  if (key === null) return;
  const clash = await db
    .selectFrom('medicines')
    .select(['id', 'name'])
    .where('barcode_key', '=', key)
    .where('is_active', '=', sql.lit(1))
    .executeTakeFirst();
  if (clash && clash.id !== exceptId)
    throw new Conflict(
      `Barcode is already used by the active medicine ${clash.name} (${clash.id}).`,
      'DUPLICATE_BARCODE',
    );
}

export async function createMedicine(
  app: AppContext,
  actor: Actor,
  input: CreateMedicineRequest,
  trx?: Db,
): Promise<MedicinesTable> {
  // Inside a caller's transaction only `trx` may be queried (one connection); settings and exponents are cached.
  const v = await validateRefs(app, input, trx ?? app.db);
  const exponent = await baseExponent(app);
  const selling = v.selling_price!;
  const max = v.max_public_price ?? null;
  assertPriceCeiling(selling, max, exponent);
  const at = nowIso();
  const barcode = input.barcode ?? null;
  const row: MedicinesTable = {
    id: newId(),
    name: input.name,
    generic_name: input.generic_name,
    barcode,
    barcode_key: barcode === null ? null : barcodeKey(barcode),
    category: v.category ?? null,
    form: input.form,
    strength: input.strength,
    unit: input.unit,
    selling_price: selling,
    max_public_price: max,
    low_stock_threshold: input.low_stock_threshold,
    requires_prescription: input.requires_prescription ? 1 : 0,
    is_controlled: input.is_controlled ? 1 : 0,
    requires_cold_chain: input.requires_cold_chain ? 1 : 0,
    is_active: input.is_active ? 1 : 0,
    vat_category: input.vat_category,
    regulator_registration_no: input.regulator_registration_no,
    image_key: null,
    created_at: at,
    updated_at: at,
  };
  const write = async (t: Db) => {
    if (row.is_active) await assertBarcodeFree(t, row.barcode_key);
    await writeMedicine(t, row);
    await writeAudit(t, actor, {
      action: 'medicine.create',
      entity: 'medicine',
      entityId: row.id,
      branchId: null,
      after: row,
    });
  };
  if (trx) await write(trx);
  else await app.db.transaction().execute(write);
  return row;
}

export async function updateMedicine(
  app: AppContext,
  actor: Actor,
  id: string,
  patch: UpdateMedicineRequest,
): Promise<MedicinesTable> {
  const v = await validateRefs(app, patch);
  const exponent = await baseExponent(app);
  let after: MedicinesTable | undefined;
  await app.db.transaction().execute(async (trx) => {
    const before = await getMedicineRow(trx, id);
    const barcode = patch.barcode === undefined ? before.barcode : patch.barcode;
    const row: MedicinesTable = {
      ...before,
      ...(patch.name !== undefined && { name: patch.name }),
      ...(patch.generic_name !== undefined && { generic_name: patch.generic_name }),
      barcode,
      barcode_key: barcode === null ? null : barcodeKey(barcode),
      ...(v.category !== undefined && { category: v.category }),
      ...(patch.form !== undefined && { form: patch.form }),
      ...(patch.strength !== undefined && { strength: patch.strength }),
      ...(patch.unit !== undefined && { unit: patch.unit }),
      ...(v.selling_price !== undefined && { selling_price: v.selling_price }),
      ...(v.max_public_price !== undefined && { max_public_price: v.max_public_price }),
      ...(patch.low_stock_threshold !== undefined && { low_stock_threshold: patch.low_stock_threshold }),
      ...(patch.requires_prescription !== undefined && {
        requires_prescription: patch.requires_prescription ? 1 : 0,
      }),
      ...(patch.is_controlled !== undefined && { is_controlled: patch.is_controlled ? 1 : 0 }),
      ...(patch.requires_cold_chain !== undefined && {
        requires_cold_chain: patch.requires_cold_chain ? 1 : 0,
      }),
      ...(patch.is_active !== undefined && { is_active: patch.is_active ? 1 : 0 }),
      ...(patch.vat_category !== undefined && { vat_category: patch.vat_category }),
      ...(patch.regulator_registration_no !== undefined && {
        regulator_registration_no: patch.regulator_registration_no,
      }),
      updated_at: nowIso(),
    };
    assertPriceCeiling(row.selling_price, row.max_public_price, exponent);
    if (row.is_active) await assertBarcodeFree(trx, row.barcode_key, id);
    await writeMedicine(trx, row);
    await writeAudit(trx, actor, {
      action: 'medicine.update',
      entity: 'medicine',
      entityId: id,
      branchId: null,
      before,
      after: row,
    });
    after = row;
  });
  return after!;
}

/** DELETE deactivates: the record, its batches and its ledger stay; it leaves the active catalogue. */
export async function deactivateMedicine(app: AppContext, actor: Actor, id: string): Promise<void> {
  await app.db.transaction().execute(async (trx) => {
    const before = await getMedicineRow(trx, id);
    const row: MedicinesTable = { ...before, is_active: 0, updated_at: nowIso() };
    await writeMedicine(trx, row);
    await writeAudit(trx, actor, {
      action: 'medicine.deactivate',
      entity: 'medicine',
      entityId: id,
      branchId: null,
      before: { is_active: before.is_active === 1 },
      after: { is_active: false },
    });
  });
}

/** Sets the image of a medicine (the images module checks the upload first). */
export async function setMedicineImage(
  app: AppContext,
  actor: Actor,
  id: string,
  imageKey: string,
): Promise<void> {
  await app.db.transaction().execute(async (trx) => {
    const before = await getMedicineRow(trx, id);
    const row: MedicinesTable = { ...before, image_key: imageKey, updated_at: nowIso() };
    await writeMedicine(trx, row);
    await writeAudit(trx, actor, {
      action: 'medicine.image',
      entity: 'medicine',
      entityId: id,
      branchId: null,
      before: { image_key: before.image_key },
      after: { image_key: imageKey },
    });
  });
}

/** Whether a medicine exists (for routes that check it before heavier work). */
export async function assertMedicineExists(db: Db, id: string): Promise<MedicinesTable> {
  return getMedicineRow(db, id);
}

import {
  type CreateMedicineRequest,
  type Medicine,
  type MedicineDetail,
  type UpdateMedicineRequest,
  vatRateOf,
} from '@pharmacy/contracts';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import { recordUpsert } from '../../db/changes';
import { Conflict, Invalid, NotFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { formatMinor, toMinor } from '../../lib/money';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { findCategorySlug } from './category';
import { baseExponent } from '../currency/service';
import { imageReadUrl } from '../../storage/image-storage';
import { getSettings } from '../settings/service';
import { branchToday, heldInBatch } from '../stock/ledger';
import type { MedicinesTable } from '../../db/tables/medicines';

/**
 * The lookup form of a barcode: GTINs (8, 12, 13 or 14 digits) are right-aligned numbers, so leading zeros are
 * dropped and a GTIN-14 "0" + EAN-13 finds the EAN-13; other codes are compared case-insensitively.
 */
export function barcodeKey(code: string): string {
  const c = code.trim();
  if (/^\d{8,14}$/.test(c)) return c.replace(/^0+/, '') || '0';
  return c.toUpperCase();
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
  await recordUpsert(trx, 'medicine', row, null);
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

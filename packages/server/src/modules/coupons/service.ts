import { paginate } from '../../db/paginate';
import { sql } from 'kysely';
import { containsText } from '../../db/like';
import type { z } from 'zod';
import type { Coupon, CreateCouponRequest, UpdateCouponRequest } from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import { recordUpsert } from '../../db/changes';
import { Conflict, Invalid, NotFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { formatMinor, toMinor } from '../../lib/money';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { baseExponent } from '../currency/service';
import { couponDiscount } from '@pharmacy/contracts/pricing';
import type { CouponsTable } from '../../db/tables/coupons';

/**
 * Coupons are organisation-wide and in the base currency. A percent coupon stores its value in hundredths of a
 * percent (12.5 % -> 1250); a fixed coupon in minor units. Sales apply and count them (redeemCoupon) in the sale's
 * transaction with a guarded UPDATE, so a usage limit holds under concurrent sales.
 */

export const toCoupon = (r: CouponsTable, exp: number): Coupon => ({
  id: r.id,
  code: r.code,
  description: r.description,
  discount_type: r.discount_type,
  discount_value:
    r.discount_type === 'percent' ? formatMinor(r.discount_value, 2) : formatMinor(r.discount_value, exp),
  max_discount: r.max_discount === null ? null : formatMinor(r.max_discount, exp),
  min_subtotal: formatMinor(r.min_subtotal, exp),
  starts_at: r.starts_at,
  ends_at: r.ends_at,
  usage_limit: r.usage_limit,
  per_customer_limit: r.per_customer_limit,
  used_count: r.used_count,
  is_active: r.is_active === 1,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

function valueMinor(type: 'percent' | 'fixed', value: number, exp: number): number {
  if (type === 'percent') {
    const v = toMinor(value, 2, 'discount_value');
    if (v > 10_000)
      throw new Invalid('A percent coupon cannot exceed 100 %.', [
        { path: 'discount_value', message: 'at most 100' },
      ]);
    return v;
  }
  return toMinor(value, exp, 'discount_value');
}

const iso = (s: string | null | undefined) => (s ? new Date(s).toISOString() : null);

function assertWindow(r: Pick<CouponsTable, 'starts_at' | 'ends_at'>) {
  if (r.starts_at && r.ends_at && r.ends_at < r.starts_at)
    throw new Invalid('ends_at must not be before starts_at.', [
      { path: 'ends_at', message: 'before starts_at' },
    ]);
}

async function assertCodeFree(db: Db, code: string, exceptId?: string) {
  const clash = await db
    .selectFrom('coupons')
    .select('id')
    .where(sql<boolean>`code = ${code} COLLATE NOCASE`)
    .executeTakeFirst();
  if (clash && clash.id !== exceptId)
    throw new Conflict(`Coupon code ${code} already exists.`, 'DUPLICATE_COUPON');
}

async function writeCoupon(trx: Db, row: CouponsTable) {
  await recordUpsert(trx, 'coupon', row, null);
}

export async function createCoupon(
  app: AppContext,
  actor: Actor,
  input: z.output<typeof CreateCouponRequest>,
) {
  const exp = await baseExponent(app);
  const at = nowIso();
  const row: CouponsTable = {
    id: newId(),
    code: input.code.toUpperCase(),
    description: input.description,
    discount_type: input.discount_type,
    discount_value: valueMinor(input.discount_type, input.discount_value, exp),
    max_discount: input.max_discount == null ? null : toMinor(input.max_discount, exp, 'max_discount'),
    min_subtotal: toMinor(input.min_subtotal, exp, 'min_subtotal'),
    starts_at: iso(input.starts_at),
    ends_at: iso(input.ends_at),
    usage_limit: input.usage_limit ?? null,
    per_customer_limit: input.per_customer_limit ?? null,
    used_count: 0,
    is_active: input.is_active ? 1 : 0,
    created_at: at,
    updated_at: at,
  };
  assertWindow(row);
  await app.db.transaction().execute(async (trx) => {
    await assertCodeFree(trx, row.code);
    await trx.insertInto('coupons').values(row).execute();
    await writeCoupon(trx, row);
    await writeAudit(trx, actor, {
      action: 'coupon.create',
      entity: 'coupon',
      entityId: row.id,
      branchId: null,
      after: row,
    });
  });
  return toCoupon(row, exp);
}

export async function updateCoupon(
  app: AppContext,
  actor: Actor,
  id: string,
  patch: z.output<typeof UpdateCouponRequest>,
) {
  const exp = await baseExponent(app);
  const row = await app.db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('coupons').selectAll().where('id', '=', id).executeTakeFirst();
    if (!before) throw new NotFound('Coupon', id);
    const type = patch.discount_type ?? before.discount_type;
    if (
      patch.discount_type &&
      patch.discount_type !== before.discount_type &&
      patch.discount_value === undefined
    )
      throw new Invalid('Changing discount_type needs a discount_value too.', [
        { path: 'discount_value', message: 'required with discount_type' },
      ]);
    const after: CouponsTable = {
      ...before,
      ...(patch.code !== undefined && { code: patch.code.toUpperCase() }),
      ...(patch.description !== undefined && { description: patch.description }),
      discount_type: type,
      ...(patch.discount_value !== undefined && {
        discount_value: valueMinor(type, patch.discount_value, exp),
      }),
      ...(patch.max_discount !== undefined && {
        max_discount: patch.max_discount === null ? null : toMinor(patch.max_discount, exp, 'max_discount'),
      }),
      ...(patch.min_subtotal !== undefined && {
        min_subtotal: toMinor(patch.min_subtotal, exp, 'min_subtotal'),
      }),
      ...(patch.starts_at !== undefined && { starts_at: iso(patch.starts_at) }),
      ...(patch.ends_at !== undefined && { ends_at: iso(patch.ends_at) }),
      ...(patch.usage_limit !== undefined && { usage_limit: patch.usage_limit }),
      ...(patch.per_customer_limit !== undefined && { per_customer_limit: patch.per_customer_limit }),
      ...(patch.is_active !== undefined && { is_active: patch.is_active ? 1 : 0 }),
      updated_at: nowIso(),
    };
    assertWindow(after);
    if (after.usage_limit !== null && after.usage_limit < after.used_count)
      throw new Invalid(`usage_limit cannot be below the ${after.used_count} uses already made.`, [
        { path: 'usage_limit', message: `at least ${after.used_count}` },
      ]);
    if (after.code !== before.code) await assertCodeFree(trx, after.code, id);
    const { id: _, created_at: __, used_count: ___, ...set } = after;
    await trx.updateTable('coupons').set(set).where('id', '=', id).execute();
    await writeCoupon(trx, after);
    await writeAudit(trx, actor, {
      action: 'coupon.update',
      entity: 'coupon',
      entityId: id,
      branchId: null,
      before,
      after,
    });
    return after;
  });
  return toCoupon(row, exp);
}

export async function listCoupons(
  app: AppContext,
  f: { page: number; page_size: number; search?: string; active: 'true' | 'false' | 'all' },
) {
  const exp = await baseExponent(app);
  let q = app.db.selectFrom('coupons');
  if (f.search) q = q.where(containsText('code', f.search));
  if (f.active !== 'all') q = q.where('is_active', '=', f.active === 'true' ? 1 : 0);
  const found = await paginate(q, f, (q) =>
    q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'),
  );
  return { ...found, items: found.items.map((r) => toCoupon(r, exp)) };
}

export async function findCouponByCode(db: Db, code: string): Promise<CouponsTable> {
  const row = await db
    .selectFrom('coupons')
    .selectAll()
    .where(sql<boolean>`code = ${code} COLLATE NOCASE`)
    .executeTakeFirst();
  if (!row) throw new NotFound('Coupon', code);
  return row;
}

export type CouponRefusal =
  | 'INACTIVE'
  | 'NOT_STARTED'
  | 'EXPIRED'
  | 'MIN_SUBTOTAL'
  | 'USAGE_LIMIT'
  | 'CUSTOMER_LIMIT'
  | 'CUSTOMER_REQUIRED';

async function customerUses(db: Db, couponId: string, customerId: string): Promise<number> {
  const row = await db
    .selectFrom('coupon_redemptions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('coupon_id', '=', couponId)
    .where('customer_id', '=', customerId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Why a coupon does not apply to a basket (base currency minor units), or null when it does. */
export async function couponRefusal(
  db: Db,
  c: CouponsTable,
  baseBasket: number | null,
  customerId: string | null,
  at: string,
): Promise<CouponRefusal | null> {
  if (!c.is_active) return 'INACTIVE';
  if (c.starts_at && at < c.starts_at) return 'NOT_STARTED';
  if (c.ends_at && at > c.ends_at) return 'EXPIRED';
  if (baseBasket !== null && baseBasket < c.min_subtotal) return 'MIN_SUBTOTAL';
  if (c.usage_limit !== null && c.used_count >= c.usage_limit) return 'USAGE_LIMIT';
  if (c.per_customer_limit !== null) {
    if (!customerId) return 'CUSTOMER_REQUIRED';
    if ((await customerUses(db, c.id, customerId)) >= c.per_customer_limit) return 'CUSTOMER_LIMIT';
  }
  return null;
}

export const REFUSAL_TEXT: Record<CouponRefusal, string> = {
  INACTIVE: 'is not active',
  NOT_STARTED: 'is not valid yet',
  EXPIRED: 'has expired',
  MIN_SUBTOTAL: 'needs a larger basket',
  USAGE_LIMIT: 'has reached its usage limit',
  CUSTOMER_LIMIT: 'has been used the allowed number of times by this customer',
  CUSTOMER_REQUIRED: 'is limited per customer; the sale needs a customer',
};

/**
 * The coupon a sale applies and its discount on `basket` (sale currency; `baseBasket` in the base currency for
 * min_subtotal), or 409 COUPON_NOT_APPLICABLE. A coupon that discounts nothing (0.00: a percentage that rounds
 * to nothing, a basket already discounted to zero) is not applied: the sale does not record it and it is not
 * counted, so it stays usable.
 */
export async function couponForSale(
  db: Db,
  code: string,
  s: {
    baseBasket: number;
    basket: number;
    customerId: string | null;
    at: string;
    fromBase: (baseMinor: number) => number;
  },
): Promise<{ coupon: CouponsTable; amount: number } | null> {
  const coupon = await findCouponByCode(db, code);
  const refusal = await couponRefusal(db, coupon, s.baseBasket, s.customerId, s.at);
  if (refusal) throw new Conflict(`Coupon ${coupon.code} ${REFUSAL_TEXT[refusal]}.`, 'COUPON_NOT_APPLICABLE');
  const amount = couponDiscount(coupon, s.basket, s.fromBase);
  return amount > 0 ? { coupon, amount } : null;
}

export async function validateCoupon(
  app: AppContext,
  code: string,
  subtotal: number | undefined,
  customerId: string | undefined,
) {
  const exp = await baseExponent(app);
  const c = await findCouponByCode(app.db, code);
  const basket = subtotal === undefined ? null : toMinor(subtotal, exp, 'subtotal');
  const reason = await couponRefusal(app.db, c, basket, customerId ?? null, nowIso());
  const discount = reason === null && basket !== null ? couponDiscount(c, basket, (n) => n) : 0;
  return {
    valid: reason === null,
    reason,
    discount_amount: formatMinor(discount, exp),
    coupon: toCoupon(c, exp),
  };
}

/** Counts a use in the sale's transaction; 409 COUPON_UNAVAILABLE when a limit was reached meanwhile. */
export async function redeemCoupon(
  trx: Db,
  r: { coupon: CouponsTable; saleId: string; customerId: string | null; amount: number; branchId: string },
): Promise<void> {
  const res = await trx
    .updateTable('coupons')
    .set((eb) => ({ used_count: eb('used_count', '+', 1) }))
    .where('id', '=', r.coupon.id)
    .where((eb) => eb.or([eb('usage_limit', 'is', null), eb('used_count', '<', eb.ref('usage_limit'))]))
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1)
    throw new Conflict(`Coupon ${r.coupon.code} has reached its usage limit.`, 'COUPON_UNAVAILABLE');
  if (r.coupon.per_customer_limit !== null && r.customerId) {
    if ((await customerUses(trx, r.coupon.id, r.customerId)) >= r.coupon.per_customer_limit)
      throw new Conflict(`Coupon ${r.coupon.code} ${REFUSAL_TEXT.CUSTOMER_LIMIT}.`, 'COUPON_UNAVAILABLE');
  }
  const row = {
    id: newId(),
    coupon_id: r.coupon.id,
    sale_id: r.saleId,
    customer_id: r.customerId,
    amount: r.amount,
    created_at: nowIso(),
  };
  await trx.insertInto('coupon_redemptions').values(row).execute();
  // Redemptions replicate as inserts to every server (organisation scope: branchId null), each recounting
  // used_count from them (coupons/sync.ts); the coupon row is central's.
  await recordUpsert(trx, 'coupon_redemption', row, null);
}

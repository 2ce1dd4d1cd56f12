import { sql } from 'kysely';
import { smallerOf } from '../../db/dialect';
import { recordUpsert } from '../../db/changes';
import type { Db } from '../../db/connection';
import { CouponRedemptionPayload } from '@pharmacy/contracts';
import { heldOrPushed, PushForbidden } from '../sync/push-actors';
import type { CouponRedemptionsTable, CouponsTable } from '../../db/tables/coupons';
import { defineEntity, type EntityRegistration, type PushedChange, type Pusher } from '../sync/registry';
import { insertRowIfAbsent, upsertRow } from '../sync/row-writes';

/**
 * Coupons: central-owned, every till. `used_count` is derived, never copied: redemptions replicate
 * organisation-wide as inserts (entity `coupon_redemption`, every till receives every redemption), and each
 * server sets used_count = its count of redemptions (capped at usage_limit, which the table's CHECK demands:
 * two tills may both take the last use offline; the redemptions themselves are all kept). So used_count
 * converges on every server whatever the order, instead of last-writer-wins between tills.
 */
async function recountCoupon(trx: Db, couponId: string): Promise<void> {
  const redeemed = sql`(SELECT count(*) FROM coupon_redemptions WHERE coupon_id = ${couponId})`;
  const limit = sql`coalesce(usage_limit, 9223372036854775807)`;
  await sql`UPDATE coupons SET used_count = ${smallerOf(trx, redeemed, limit)}
    WHERE id = ${couponId}`.execute(trx);
}

const couponEntity = defineEntity<CouponsTable>({
  entity: 'coupon',
  push: 'central-only',
  owner: 'central',
  scope: 'organisation',
  label: 'Coupons',
  rest: [
    { method: 'post', path: '/coupons' },
    { method: 'put', path: '/coupons/:couponId' },
  ],
  table: 'coupons',
  order: 70,
  write: async (trx, payload) => {
    const { used_count: _, ...row } = payload;
    await upsertRow(trx, 'coupons', 'id', row);
    await recountCoupon(trx, row.id);
    await recordUpsert(trx, 'coupon', payload, null);
  },
});

/**
 * A redemption uses up a coupon for every branch, so it must be the coupon discount of a sale of the device's
 * branch (held on central or carried by the same push): the sale names the coupon and took a discount.
 */
async function authoriseRedemption(trx: Db, change: PushedChange, pusher: Pusher): Promise<void> {
  const p = change.payload;
  const sale = await heldOrPushed(trx, pusher, { entity: 'sale', table: 'sales', id: String(p.sale_id) });
  if (!sale || sale.row.branch_id !== pusher.device.branch_id)
    throw new PushForbidden("A coupon redemption must belong to a sale of the device's branch.");
  if (sale.row.coupon_id !== p.coupon_id || !(Number(sale.row.coupon_discount) > 0))
    throw new PushForbidden('A coupon redemption must belong to a sale that took that coupon’s discount.');
}

const couponRedemptionEntity = defineEntity<CouponRedemptionsTable>({
  entity: 'coupon_redemption',
  push: authoriseRedemption,
  rest: [{ method: 'post', path: '/sales' }],
  payloadSchema: CouponRedemptionPayload,
  references: [{ field: 'sale_id', table: 'sales' }],
  owner: 'till',
  scope: 'organisation',
  table: 'coupon_redemptions',
  order: 230,
  write: async (trx, payload) => {
    if (!(await insertRowIfAbsent(trx, 'coupon_redemptions', 'id', payload))) return;
    await recountCoupon(trx, payload.coupon_id);
    await recordUpsert(trx, 'coupon_redemption', payload, null);
  },
});

/** The entities this area replicates, registered once at start-up (modules/index.ts). */
export const couponsEntities: readonly EntityRegistration[] = [couponEntity, couponRedemptionEntity];

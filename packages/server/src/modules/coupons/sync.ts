import { sql } from 'kysely';
import { recordChange } from '../../db/changes';
import type { Db } from '../../db/connection';
import { insertRowIfAbsent, type Payload, type EntityRegistration, upsertRow } from '../sync/registry';

/**
 * Coupons: central-owned, every till. `used_count` is derived, never copied: redemptions replicate
 * organisation-wide as inserts (entity `coupon_redemption`, every till receives every redemption), and each
 * server sets used_count = its count of redemptions (capped at usage_limit, which the table's CHECK demands:
 * two tills may both take the last use offline; the redemptions themselves are all kept). So used_count
 * converges on every server whatever the order, instead of last-writer-wins between tills.
 */
async function recountCoupon(trx: Db, couponId: string): Promise<void> {
  await sql`UPDATE coupons SET used_count = min(
      (SELECT count(*) FROM coupon_redemptions WHERE coupon_id = ${couponId}),
      coalesce(usage_limit, 9223372036854775807))
    WHERE id = ${couponId}`.execute(trx);
}

const couponEntity: EntityRegistration = {
  entity: 'coupon',
  push: 'central-only',
  owner: 'central',
  scope: 'organisation',
  table: 'coupons',
  order: 70,
  write: async (trx, payload) => {
    const { used_count: _, ...row } = payload;
    await upsertRow(trx, 'coupons', 'id', row);
    await recountCoupon(trx, String(row.id));
    await recordChange(trx, {
      entity: 'coupon',
      entityId: String(row.id),
      op: 'upsert',
      payload,
      branchId: null,
    });
  },
};

const couponRedemptionEntity: EntityRegistration = {
  entity: 'coupon_redemption',
  push: 'till-owned',
  owner: 'till',
  scope: 'organisation',
  table: 'coupon_redemptions',
  order: 230,
  write: async (trx, payload: Payload) => {
    if (!(await insertRowIfAbsent(trx, 'coupon_redemptions', 'id', payload))) return;
    await recountCoupon(trx, String(payload.coupon_id));
    await recordChange(trx, {
      entity: 'coupon_redemption',
      entityId: String(payload.id),
      op: 'upsert',
      payload,
      branchId: null,
    });
  },
};

/** The entities this area replicates, registered once at start-up (modules/index.ts). */
export const couponsEntities: readonly EntityRegistration[] = [couponEntity, couponRedemptionEntity];

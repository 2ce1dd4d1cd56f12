import { formatMinor } from '@pharmacy/contracts/money';
import { couponTermsOf } from '@pharmacy/contracts/pricing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Cart,
  EMPTY_CART,
  estimateCart,
  lineFromMedicine,
  type TaxPolicy,
} from '../apps/pos/src/sell/cart';
import { addStock, openSessionFor } from '../packages/server/src/testing/factory';
import { startTestServer, type TestServer } from '../packages/server/src/testing/harness';
import type { Coupon, Medicine } from '../packages/contracts/src/index';

/**
 * The till's estimate and the server's sale run one pricing function (@pharmacy/contracts/pricing): on random
 * carts (line discounts, coupons, VAT inclusive and exclusive) in a 0-, 2- and 3-decimal currency the estimate
 * shown at the till is the receipt, to the minor unit.
 */
type Json = Record<string, unknown>;
interface SaleAnswer {
  subtotal_amount: string;
  vat_amount: string;
  total_amount: string;
  coupon_discount: string;
  items: Array<{ medicine_id: string; line_total: string }>;
}

const COUPONS = [
  { code: 'PCT10', discount_type: 'percent', discount_value: 10 },
  { code: 'PCT125CAP', discount_type: 'percent', discount_value: 12.5, max_discount: 3 },
  { code: 'FIXED2', discount_type: 'fixed', discount_value: 2 },
] as const;

for (const [currency, exponent] of [
  ['USD', 2],
  ['JPY', 0],
  ['KWD', 3],
] as const) {
  describe(`the till's estimate equals the sale in ${currency} (${exponent} decimals)`, () => {
    let t: TestServer;
    let manager: string;
    let admin: string;
    let medicines: Medicine[] = [];
    let coupons: Coupon[] = [];
    let mode: boolean | null = null;

    beforeAll(async () => {
      t = await startTestServer();
      admin = await t.adminToken();
      const base = await t.put<Json>('/api/v1/settings', { base_currency_code: currency }, admin);
      expect(base.status, JSON.stringify(base.body)).toBe(200);
      const branch = await t.mainBranchId();
      const moved = await t.put<Json>(`/api/v1/branches/${branch}`, { currency_code: currency }, admin);
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      manager = (await t.userWithRole('branch_manager')).token;
      await openSessionFor(t, manager, 0);
      const prices = [1.234, 0.5, 17.999, 250, 3.3, 99.995];
      const categories = ['standard', 'zero', 'exempt', 'standard', 'standard', 'zero'];
      medicines = [];
      for (const [i, price] of prices.entries()) {
        const exact = Number(price.toFixed(exponent)) || 1;
        const made = await t.post<Medicine>(
          '/api/v1/medicines',
          { name: `Priced ${i}`, selling_price: exact, vat_category: categories[i] },
          admin,
        );
        expect(made.status).toBe(201);
        await addStock(t, made.body.id, 100_000);
        medicines.push(made.body);
      }
      coupons = [];
      for (const c of COUPONS) {
        const made = await t.post<Coupon>('/api/v1/coupons', c, admin);
        expect(made.status).toBe(201);
        coupons.push(made.body);
      }
    });
    afterAll(() => t.close());

    async function taxPolicy(inclusive: boolean): Promise<TaxPolicy> {
      const settings = await t.get<{ tax_policy: TaxPolicy }>('/api/v1/settings', admin);
      if (mode !== inclusive) {
        const tax_policy = { ...settings.body.tax_policy, prices_include_vat: inclusive };
        expect((await t.put('/api/v1/settings', { tax_policy }, admin)).status).toBe(200);
        mode = inclusive;
        return tax_policy;
      }
      return settings.body.tax_policy;
    }

    const line = fc.record({
      medicine: fc.nat({ max: 5 }),
      quantity: fc.integer({ min: 1, max: 7 }),
      discountShare: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 100 })),
    });
    const cartArb = fc.record({
      lines: fc.uniqueArray(line, { minLength: 1, maxLength: 4, selector: (l) => l.medicine }),
      coupon: fc.option(fc.nat({ max: COUPONS.length - 1 }), { nil: null }),
      inclusive: fc.boolean(),
    });

    it('to the minor unit on random carts with line discounts, coupons and both VAT modes', async () => {
      await fc.assert(
        fc.asyncProperty(cartArb, async (drawn) => {
          const tax = await taxPolicy(drawn.inclusive);
          const coupon = drawn.coupon === null ? null : (coupons[drawn.coupon] as Coupon);
          let cart: Cart = { ...EMPTY_CART, lines: [] };
          const items = drawn.lines.map((l) => {
            const medicine = medicines[l.medicine] as Medicine;
            const lineMinor = Math.round(Number(medicine.selling_price) * 10 ** exponent) * l.quantity;
            // A line discount of up to 30 % of the line, in whole minor units (what a cashier can type).
            const discount = Number(
              formatMinor(Math.floor((lineMinor * 30 * l.discountShare) / 10_000), exponent),
            );
            cart.lines.push({ ...lineFromMedicine(medicine, l.quantity), discount });
            return { medicine_id: medicine.id, quantity: l.quantity, ...(discount > 0 && { discount }) };
          });
          if (coupon)
            cart = {
              ...cart,
              coupon: { code: coupon.code, discount: '0', terms: couponTermsOf(coupon, exponent) },
            };
          const estimate = estimateCart(cart, tax, exponent);
          const sale = await t.post<SaleAnswer>(
            '/api/v1/sales',
            {
              items,
              ...(coupon && { coupon_code: coupon.code }),
              // A coupon can take a small basket to 0.00: nothing to tender then.
              ...(estimate.totalMinor > 0
                ? { payment_lines: [{ method: 'card', amount: Number(estimate.total) }] }
                : { payment_method: 'cash' }),
              print_receipt: false,
            },
            manager,
          );
          expect(sale.status, JSON.stringify(sale.body)).toBe(201);
          expect({
            subtotal: estimate.subtotal,
            vat: estimate.vat,
            total: estimate.total,
            coupon: estimate.coupon,
            lines: estimate.lines.map((l) => l.total),
          }).toEqual({
            subtotal: sale.body.subtotal_amount,
            vat: sale.body.vat_amount,
            total: sale.body.total_amount,
            coupon: sale.body.coupon_discount,
            lines: sale.body.items.map((l) => l.line_total),
          });
        }),
        {
          numRuns: 25,
          // Always tried: a fixed coupon larger than the basket (total 0.00, nothing to tender).
          examples: [
            [{ lines: [{ medicine: 1, quantity: 1, discountShare: 0 }], coupon: 2, inclusive: true }],
          ],
        },
      );
    });
  });
}

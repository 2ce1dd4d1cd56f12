import type { Medicine } from '@pharmacy/contracts';
import { describe, expect, it } from 'vitest';
import { couponTermsOf } from '@pharmacy/contracts/pricing';
import { cartReducer, EMPTY_CART, estimateCart, shortfall } from './cart';

const med = (id: string, price: string, vat: string): Medicine =>
  ({
    id,
    name: `Med ${id}`,
    generic_name: '',
    strength: '',
    form: '',
    selling_price: price,
    vat_category: vat,
    requires_prescription: false,
    is_controlled: false,
    stock_quantity: 10,
  }) as Medicine;

const TAX = { vat_rates: { standard: 18, zero: 0 }, prices_include_vat: true };

describe('cart', () => {
  it('adds, merges a second scan, and resets the checkout id on any change', () => {
    let cart = cartReducer(EMPTY_CART, { type: 'add', medicine: med('a', '2.50', 'standard') });
    cart = cartReducer(cart, { type: 'checkout', id: 'till-1' });
    expect(cart.client_mutation_id).toBe('till-1');
    cart = cartReducer(cart, { type: 'add', medicine: med('a', '2.50', 'standard') });
    expect(cart.lines).toHaveLength(1);
    expect(cart.lines[0]?.quantity).toBe(2);
    expect(cart.client_mutation_id).toBeNull();
  });

  it('shows the shortfall of a line raised above the stock on hand as it is typed (issue 29)', () => {
    let cart = cartReducer(EMPTY_CART, { type: 'add', medicine: med('a', '2.50', 'standard') });
    expect(shortfall(cart.lines[0]!)).toBe(0);
    cart = cartReducer(cart, { type: 'quantity', medicine_id: 'a', quantity: 14 });
    expect(shortfall(cart.lines[0]!)).toBe(4);
    expect(shortfall({ ...cart.lines[0]!, stock_quantity: undefined })).toBe(0);
  });

  it('estimates VAT-inclusive totals with line discounts, rounded half up per line', () => {
    let cart = cartReducer(EMPTY_CART, { type: 'add', medicine: med('a', '2.50', 'standard'), quantity: 2 });
    cart = cartReducer(cart, { type: 'add', medicine: med('b', '6.00', 'zero') });
    cart = cartReducer(cart, { type: 'discount', medicine_id: 'a', discount: 0.4 });
    const e = estimateCart(cart, TAX);
    expect(e).toMatchObject({
      total: '10.60',
      vat: '0.70',
      subtotal: '9.90',
      discount: '0.40',
      totalMinor: 1060,
    });
  });

  it('adds VAT on top when prices exclude it', () => {
    const cart = cartReducer(EMPTY_CART, { type: 'add', medicine: med('a', '10.00', 'standard') });
    expect(estimateCart(cart, { ...TAX, prices_include_vat: false }).total).toBe('11.80');
  });

  it("writes every amount in the currency's own decimals: 0 for JPY, 3 for KWD", () => {
    const yen = cartReducer(EMPTY_CART, { type: 'add', medicine: med('a', '1180', 'standard'), quantity: 3 });
    expect(estimateCart(yen, TAX, 0)).toMatchObject({ total: '3540', vat: '540', subtotal: '3000' });
    const dinar = cartReducer(EMPTY_CART, {
      type: 'add',
      medicine: med('a', '1.180', 'standard'),
      quantity: 3,
    });
    expect(estimateCart(dinar, TAX, 3)).toMatchObject({ total: '3.540', vat: '0.540', subtotal: '3.000' });
  });

  it('takes a coupon off the basket by its terms, capped, and spreads it over the lines', () => {
    let cart = cartReducer(EMPTY_CART, { type: 'add', medicine: med('a', '10.00', 'standard') });
    cart = cartReducer(cart, { type: 'add', medicine: med('b', '30.00', 'zero') });
    const terms = couponTermsOf({ discount_type: 'percent', discount_value: '10', max_discount: '3.00' }, 2);
    cart = cartReducer(cart, { type: 'coupon', coupon: { code: 'TEN', discount: '3.00', terms } });
    const e = estimateCart(cart, TAX);
    expect(e).toMatchObject({ coupon: '3.00', total: '37.00', discount: '3.00' });
    expect(e.lines.map((l) => l.total)).toEqual(['9.25', '27.75']);
  });
});

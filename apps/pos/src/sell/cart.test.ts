import type { Medicine } from '@pharmacy/contracts';
import { describe, expect, it } from 'vitest';
import { cartReducer, EMPTY_CART, estimateCart } from './cart';

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
    expect(cart.checkout_id).toBe('till-1');
    cart = cartReducer(cart, { type: 'add', medicine: med('a', '2.50', 'standard') });
    expect(cart.lines).toHaveLength(1);
    expect(cart.lines[0]?.quantity).toBe(2);
    expect(cart.checkout_id).toBeNull();
  });

  it('estimates VAT-inclusive totals with line discounts, rounded half up per line', () => {
    let cart = cartReducer(EMPTY_CART, { type: 'add', medicine: med('a', '2.50', 'standard'), quantity: 2 });
    cart = cartReducer(cart, { type: 'add', medicine: med('b', '6.00', 'zero') });
    cart = cartReducer(cart, { type: 'discount', medicine_id: 'a', discount: 0.4 });
    const e = estimateCart(cart, TAX);
    expect(e.total).toBe(10.6);
    expect(e.vat).toBe(0.7);
    expect(e.subtotal).toBe(9.9);
    expect(e.discount).toBe(0.4);
  });

  it('adds VAT on top when prices exclude it', () => {
    const cart = cartReducer(EMPTY_CART, { type: 'add', medicine: med('a', '10.00', 'standard') });
    expect(estimateCart(cart, { ...TAX, prices_include_vat: false }).total).toBe(11.8);
  });
});

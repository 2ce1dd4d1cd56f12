import { describe, expect, it } from 'vitest';
import { PAYMENT_METHOD_LABELS, paymentMethodName, SALE_PAYMENT_METHODS } from './payment-methods';

describe('payment method names', () => {
  it('names every tender a sale accepts, and keeps an unknown one readable', () => {
    expect(SALE_PAYMENT_METHODS.map((m) => paymentMethodName(m))).toEqual([
      'Cash',
      'Card',
      'Mobile money',
      'Bank transfer',
      'Customer credit',
      'Voucher',
      'Insurance',
    ]);
    expect(paymentMethodName('gift_card')).toBe('gift card');
  });

  it("takes a printer's renamed tenders, and the English name for the rest", () => {
    const german = { ...PAYMENT_METHOD_LABELS, cash: 'Bar' };
    expect(paymentMethodName('cash', german)).toBe('Bar');
    expect(paymentMethodName('mobile_money', german)).toBe('Mobile money');
  });
});

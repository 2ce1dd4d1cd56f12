import { describe, expect, it } from 'vitest';
import { CREDIT_GRANTERS, CUSTOMER_COUNTER, whoCan } from './roles';

describe('whoCan: a named set of roles in words', () => {
  it('29: one role and admin', () => {
    expect(whoCan(CREDIT_GRANTERS, 'change credit terms')).toBe(
      'Only a branch manager or an admin can change credit terms',
    );
  });

  it('29: several roles, admin last and never twice', () => {
    expect(whoCan(CUSTOMER_COUNTER, 'take a payment')).toBe(
      'Only a branch manager, a pharmacist, a cashier or an admin can take a payment',
    );
    expect(whoCan(['admin', 'inventory_manager'], 'raise a purchase order')).toBe(
      'Only an inventory manager or an admin can raise a purchase order',
    );
  });

  it('29: admin alone', () => {
    expect(whoCan([], 'add exchange rates')).toBe('Only an admin can add exchange rates');
  });
});

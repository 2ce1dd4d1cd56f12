import { describe, expect, it } from 'vitest';
import { describeApproval } from '../approvals/describe';
import { couponBody, formOf, usageText } from './coupon-form';

describe('coupon form', () => {
  it('sends whole validity days, nulls for empty limits and no cap on a fixed coupon', () => {
    const f = {
      ...formOf(undefined),
      code: ' welcome10 ',
      discount_value: '10',
      max_discount: '5',
      starts_on: '2026-12-01',
      ends_on: '2026-12-31',
    };
    expect(couponBody(f)).toEqual({
      code: 'welcome10',
      description: '',
      discount_type: 'percent',
      discount_value: 10,
      max_discount: 5,
      min_subtotal: 0,
      starts_at: '2026-12-01T00:00:00.000Z',
      ends_at: '2026-12-31T23:59:59.999Z',
      usage_limit: null,
      per_customer_limit: null,
      is_active: true,
    });
    expect(couponBody({ ...f, discount_type: 'fixed', discount_value: '2,5' })).toMatchObject({
      discount_value: 2.5,
      max_discount: null,
    });
    // Text that is not a number goes as NaN (refused by the server, naming the field).
    expect(Number.isNaN(couponBody({ ...f, usage_limit: 'ten' }).usage_limit)).toBe(true);
  });

  it('shows usage against its limit', () => {
    expect(usageText({ used_count: 3, usage_limit: null })).toBe('3 / unlimited');
    expect(usageText({ used_count: 12, usage_limit: 100 })).toBe('12 / 100');
  });
});

describe('approval descriptions', () => {
  const l = {
    medicine: (id: string) => (id === 'm1' ? 'Daypara 500' : undefined),
    sale: (id: string) => (id === 's1' ? 'MAIN-1-000004' : undefined),
    money: (v: string | number) => Number(v).toFixed(2),
  };
  it('says what is asked and its limits', () => {
    expect(
      describeApproval(
        'discount',
        { medicine_id: 'm1', quantity: 2, max_discount: 2, currency_code: 'USD' },
        l,
      ),
    ).toBe('A discount of at most 2.00 USD on 2 × Daypara 500');
    expect(describeApproval('discount', { max_discount: 5 }, l)).toBe(
      'A discount of at most 5.00 on the whole sale',
    );
    expect(describeApproval('void', { sale_id: 's1' }, l)).toBe('Void MAIN-1-000004');
    expect(describeApproval('stock_variance', { batch_id: '0190-abcdef12', variance: 3 }, l)).toBe(
      'A count of batch …abcdef12 differing by up to +3 units',
    );
    expect(
      describeApproval(
        'refund_tender',
        { sale_id: 'x-12345678', from_method: 'card', to_method: 'mobile_money', max_amount: 4 },
        l,
      ),
    ).toBe('Refund at most 4.00 of sale 12345678 paid by card to mobile money');
  });
});

describe('effective dates in the organisation calendar', () => {
  it('starts a local day at its midnight in the zone', async () => {
    const { startOfLocalDay: startOfDayIso } = await import('@pharmacy/contracts/time');
    expect(startOfDayIso('2026-12-01', 'Africa/Dar_es_Salaam')).toBe('2026-11-30T21:00:00.000Z');
    expect(startOfDayIso('2026-12-01', 'UTC')).toBe('2026-12-01T00:00:00.000Z');
    expect(startOfDayIso('2026-07-01', 'America/New_York')).toBe('2026-07-01T04:00:00.000Z');
    expect(startOfDayIso('2026-12-01', undefined)).toBe('2026-12-01T00:00:00.000Z');
  });
});

import { describe, expect, it } from 'vitest';
import { sampleSaleInput } from './sample-documents';
import { decodeZatcaQr } from './fiscal-qr';
import { formatLocalDateTime } from './local-time';
import { buildSaleReceipt } from './sale-receipt';

const OPTIONS = { timeZone: 'Asia/Riyadh' };

describe('buildSaleReceipt', () => {
  it('maps the server sale into a printable model with decimal strings', () => {
    const receipt = buildSaleReceipt(sampleSaleInput(4), OPTIONS);
    expect(receipt).toMatchObject({
      kind: 'sale',
      invoiceNumber: 'INV-2024-000123',
      issuedAtLocal: '2024-05-01 14:03',
      cashierName: 'Amina Yusuf',
      customerName: 'Walk-in customer',
      currency: 'SAR',
      header: { name: 'Green Cross Pharmacy', branchVatNumber: '310122393500003', tin: '300000000000003' },
    });
    expect(receipt.lines[0]).toEqual({
      name: 'Paracetamol 500 mg tablets x24',
      quantity: '1',
      unitPrice: '3.50',
      amount: '3.50',
      discount: '0.00',
      lineTotal: '3.50',
      vatRate: '15',
    });
    expect(receipt.lines[1]?.vatRate).toBe('0');
    expect(receipt.vatBreakdown.map((row) => [row.category, row.rate])).toEqual([
      [undefined, '15'],
      [undefined, '0'],
    ]);
    expect(receipt.baseCurrency).toEqual({ currency: 'USD', total: expect.any(String), fxRate: '0.2667' });
  });

  it('computes change from the tenders in integer arithmetic', () => {
    const receipt = buildSaleReceipt(
      sampleSaleInput(1, {
        total_amount: '0.30',
        payment_lines: [
          { method: 'card', amount: '0.10' },
          { method: 'cash', amount: '0.30' },
        ],
      }),
      OPTIONS,
    );
    expect(receipt.change).toBe('0.10');
    expect(receipt.payments.map((p) => p.label)).toEqual(['Card', 'Cash']);
  });

  it('prefers the server change and keeps 3-decimal currencies exact', () => {
    const receipt = buildSaleReceipt(
      sampleSaleInput(1, {
        currency_code: 'KWD',
        total_amount: '1.5',
        change_amount: '0.25',
        base_currency_code: 'KWD',
      }),
      OPTIONS,
    );
    expect(receipt.total).toBe('1.500');
    expect(receipt.change).toBe('0.250');
    expect(receipt.baseCurrency).toBeUndefined();
  });

  it('collects the basket discounts; a line discount stays on its line', () => {
    const receipt = buildSaleReceipt(
      sampleSaleInput(5, { global_discount: '2.00', coupon_discount: '1.5' }),
      OPTIONS,
    );
    expect(receipt.discounts).toEqual([
      { label: 'Discount', amount: '2.00' },
      { label: 'Coupon', amount: '1.50' },
    ]);
    expect(receipt.discountTotal).toBe('3.50');
    expect(receipt.lines[4]).toMatchObject({ amount: '7.00', discount: '0.50', lineTotal: '6.50' });
  });

  it('carries the fiscal data in a ZATCA TLV QR payload', () => {
    const input = sampleSaleInput(2);
    const receipt = buildSaleReceipt(input, OPTIONS);
    const fields = decodeZatcaQr(receipt.qrPayload ?? '');
    expect(fields.get(1)).toBe('Green Cross Pharmacy Ltd');
    expect(fields.get(2)).toBe('310122393500003');
    expect(fields.get(3)).toBe('2024-05-01T11:03:00Z');
    expect(fields.get(4)).toBe(input.total_amount);
    expect(fields.get(5)).toBe(input.vat_amount);
    expect(fields.get(6)).toBe(input.fiscal_hash);
  });

  it('supports the simple QR format, no QR, and translated labels', () => {
    const simple = buildSaleReceipt(sampleSaleInput(1), { ...OPTIONS, qrFormat: 'simple' });
    expect(simple.qrPayload).toMatch(
      /^FQR1;seller=Green%20Cross%20Pharmacy%20Ltd;vat_no=310122393500003;ts=/,
    );
    expect(buildSaleReceipt(sampleSaleInput(1), { ...OPTIONS, qrFormat: 'none' }).qrPayload).toBeUndefined();
    const german = buildSaleReceipt(sampleSaleInput(1), {
      ...OPTIONS,
      labels: { total: 'SUMME', paymentMethods: { cash: 'Bar' } },
    });
    expect(german.labels.total).toBe('SUMME');
    expect(german.payments.find((p) => p.method === 'cash')?.label).toBe('Bar');
    expect(german.labels.paymentMethods.card).toBe('Card');
  });
});

describe('formatLocalDateTime', () => {
  it('prints the instant in the branch time zone', () => {
    expect(formatLocalDateTime('2024-12-31T22:30:00Z', 'Africa/Nairobi')).toBe('2025-01-01 01:30');
    expect(formatLocalDateTime('2024-07-01T12:00:00Z', 'Europe/Berlin')).toBe('2024-07-01 14:00');
    expect(() => formatLocalDateTime('yesterday', 'UTC')).toThrow(RangeError);
    expect(() => formatLocalDateTime('2024-07-01T12:00:00Z', 'Mars/Olympus')).toThrow(RangeError);
  });
});

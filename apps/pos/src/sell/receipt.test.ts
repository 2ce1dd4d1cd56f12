import type { SaleDetail } from '@pharmacy/contracts';
import { describe, expect, it } from 'vitest';
import { buildReceipt } from './receipt';

describe('buildReceipt', () => {
  it('prints the invoice, lines, VAT breakdown, totals, payments and change from the sale', () => {
    const sale = {
      organization_name: 'Afya Pharmacy',
      branch_name: 'Main Branch',
      branch_address: '',
      organization_tin: '100-200-300',
      organization_vat_number: '',
      receipt_header: '',
      receipt_footer: 'Get well soon',
      return_policy: '',
      invoice_number: 'MAIN-7F3A-000123',
      sold_at: '2026-01-02T10:00:00Z',
      pharmacist_name: 'Cathy',
      customer_name: null,
      currency_code: 'USD',
      items: [
        {
          medicine_name: 'Panadol',
          quantity: 2,
          unit_price: '2.50',
          vat_rate: 18,
          line_total: '4.60',
          discount: '0.40',
        },
      ],
      subtotal_amount: '3.90',
      vat_breakdown: [{ rate: 18, taxable_amount: 3.9, vat_amount: 0.7 }],
      total_amount: '4.60',
      payment_lines: [
        { method: 'card', amount: 2 },
        { method: 'cash', amount: 5 },
      ],
      change_amount: '2.40',
    } as unknown as SaleDetail;
    const text = buildReceipt(sale);
    expect(text).toContain('Invoice MAIN-7F3A-000123');
    expect(text).toMatch(/2 x 2\.50 {2}VAT 18%\s+4\.60/);
    expect(text).toMatch(/Discount\s+-0\.40/);
    expect(text).toMatch(/VAT 18% on 3\.90\s+0\.70/);
    expect(text).toMatch(/TOTAL USD\s+4\.60/);
    expect(text).toMatch(/Card\s+2\.00\nCash\s+5\.00\nChange\s+2\.40/);
    expect(text).toContain('Get well soon');
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(42);
  });
});

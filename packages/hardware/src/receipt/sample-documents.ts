import type { CreditNoteInput } from './credit-note';
import type { SaleReceiptInput } from './sale-receipt';
import type { ZReportInput } from './z-report';

const ORGANISATION = {
  organization_name: 'Green Cross Pharmacy',
  organization_legal_name: 'Green Cross Pharmacy Ltd',
  organization_phone: '+966 11 555 0100',
  organization_address: '12 King Fahd Road, Riyadh',
  organization_tin: '300000000000003',
  organization_vat_number: '300000000000003',
  branch_name: 'Olaya Branch',
  branch_address: '45 Olaya Street, Riyadh',
  branch_vat_number: '310122393500003',
  receipt_header: 'Thank you for choosing Green Cross',
};

const MEDICINES = [
  { name: 'Paracetamol 500 mg tablets x24', unit_price: '3.50', vat_rate: '15' },
  { name: 'Amoxicillin 250 mg/5 ml oral suspension 100 ml', unit_price: '18.75', vat_rate: '0' },
  { name: 'Ibuprofen 400 mg tablets x30', unit_price: '6.20', vat_rate: '15' },
  { name: 'Crème hydratante 50 ml', unit_price: '12.00', vat_rate: '15' },
];

/** A realistic sale with `lineCount` lines; totals are consistent (computed in integer cents). */
export function sampleSaleInput(lineCount = 4, overrides: Partial<SaleReceiptInput> = {}): SaleReceiptInput {
  const items = Array.from({ length: lineCount }, (_, index) => {
    const medicine = MEDICINES[index % MEDICINES.length] ?? MEDICINES[0]!;
    const quantity = (index % 3) + 1;
    const cents = Math.round(Number(medicine.unit_price) * 100) * quantity;
    const discount = index % 5 === 4 ? 50 : 0;
    return { medicine, quantity, lineCents: cents - discount, discount };
  });
  const cents = (value: number) => (value / 100).toFixed(2);
  let standardNet = 0;
  let zeroNet = 0;
  for (const item of items) {
    if (item.medicine.vat_rate === '15') standardNet += item.lineCents;
    else zeroNet += item.lineCents;
  }
  const vat = Math.round(standardNet * 0.15);
  const subtotal = standardNet + zeroNet;
  const total = subtotal + vat;
  return {
    ...ORGANISATION,
    invoice_number: 'INV-2024-000123',
    sold_at: '2024-05-01T11:03:00Z',
    uuid: '3cf5ee18-ee25-44ea-a444-2c37ba7f28be',
    icv: 123,
    currency_code: 'SAR',
    base_currency_code: 'USD',
    fx_rate_to_base: '0.2667',
    base_total_amount: cents(Math.round(total * 0.2667)),
    subtotal_amount: cents(subtotal),
    vat_amount: cents(vat),
    total_amount: cents(total),
    global_discount: '0.00',
    coupon_discount: null,
    vat_breakdown: [
      { rate: '15', taxable_amount: cents(standardNet), vat_amount: cents(vat) },
      ...(zeroNet > 0 ? [{ rate: '0', taxable_amount: cents(zeroNet), vat_amount: '0.00' }] : []),
    ],
    payment_lines: [
      { method: 'card', amount: cents(Math.floor(total / 2)) },
      { method: 'cash', amount: cents(total - Math.floor(total / 2) + 1000) },
    ],
    pharmacist_name: 'Amina Yusuf',
    customer_display_name: 'Walk-in customer',
    receipt_footer: 'Get well soon!',
    return_policy: 'Unopened medicines may be returned within 7 days with this receipt.',
    fiscal_hash: 'NWZlY2ViNjZmZmM4NmYzOGQ5NTI3ODZjNmQ2OTZjNzljMmRiYzIzOWRkNGU5MWI0NjcyOWQ3M2EyN2ZiNTdlOQ==',
    items: items.map(({ medicine, quantity, lineCents, discount }) => ({
      name: medicine.name,
      quantity,
      unit_price: medicine.unit_price,
      discount: cents(discount),
      line_total: cents(lineCents),
      vat_rate: medicine.vat_rate,
    })),
    ...overrides,
  };
}

export function sampleCreditNoteInput(): CreditNoteInput {
  return {
    ...ORGANISATION,
    credit_note_number: 'CN-2024-000007',
    original_invoice_number: 'INV-2024-000123',
    returned_at: '2024-05-02T08:15:00Z',
    reason: 'Wrong strength dispensed',
    currency_code: 'SAR',
    subtotal_amount: '7.00',
    vat_amount: '1.05',
    total_amount: '8.05',
    vat_breakdown: [{ rate: '15', taxable_amount: '7.00', vat_amount: '1.05' }],
    items: [
      {
        name: 'Paracetamol 500 mg tablets x24',
        quantity: 2,
        unit_price: '3.50',
        line_total: '7.00',
        vat_rate: 15,
      },
    ],
    refund_method: 'cash',
    pharmacist_name: 'Amina Yusuf',
  };
}

export function sampleZReportInput(): ZReportInput {
  return {
    ...ORGANISATION,
    z_number: 42,
    cashier_name: 'Amina Yusuf',
    opened_at: '2024-05-01T05:00:00Z',
    closed_at: '2024-05-01T17:30:00Z',
    currency_code: 'SAR',
    sale_count: 87,
    return_count: 2,
    payment_totals: [
      { method: 'cash', count: 51, amount: '2310.45' },
      { method: 'card', count: 34, amount: '4120.00' },
      { method: 'insurance', count: 2, amount: '380.10' },
    ],
    vat_breakdown: [
      { rate: '15', taxable_amount: '5200.00', vat_amount: '780.00' },
      { rate: '0', taxable_amount: '830.55', vat_amount: '0.00' },
    ],
    gross_sales: '6900.55',
    discount_total: '75.00',
    returns_total: '15.00',
    opening_float: '500.00',
    cash_refunds: '15.00',
    counted_cash: '2790.00',
  };
}

import { describe, expect, it } from 'vitest';
import { sampleCreditNoteInput, sampleZReportInput } from './sample-documents';
import { buildCreditNote } from './credit-note';
import { encodeZatcaQr } from './fiscal-qr';
import { buildShelfLabel, chooseLabelBarcode } from './shelf-label';
import { renderEscPos } from '../render/escpos-renderer';
import { renderText } from '../render/text-renderer';
import { buildZReport } from './z-report';
import { decodeEscPos } from '../testing';

describe('credit notes', () => {
  it('references the original invoice and carries the refund', () => {
    const note = buildCreditNote(sampleCreditNoteInput(), { timeZone: 'Asia/Riyadh' });
    expect(note).toMatchObject({
      kind: 'credit-note',
      creditNoteNumber: 'CN-2024-000007',
      originalInvoiceNumber: 'INV-2024-000123',
      issuedAtLocal: '2024-05-02 11:15',
      reason: 'Wrong strength dispensed',
      total: '8.05',
      refund: { method: 'cash', label: 'Cash', amount: '8.05' },
    });
    expect(note.lines[0]?.vatRate).toBe('15');
    expect(note.vatBreakdown[0]?.rate).toBe('15');
  });
});

describe('Z reports', () => {
  it('derives expected cash, net sales and variance when the server leaves them out', () => {
    const report = buildZReport(sampleZReportInput(), { timeZone: 'Asia/Riyadh' });
    expect(report).toMatchObject({
      zNumber: '42',
      openedAtLocal: '2024-05-01 08:00',
      closedAtLocal: '2024-05-01 20:30',
      netSales: '6810.55',
      expectedCash: '2795.45',
      countedCash: '2790.00',
      variance: '-5.45',
    });
    expect(report.byPaymentMethod[2]).toEqual({
      method: 'insurance',
      label: 'Insurance',
      count: 2,
      amount: '380.10',
    });
  });

  it('27.4: prints expected cash per currency with its base equivalent at the rate used, and payments on account', () => {
    const report = buildZReport(
      {
        ...sampleZReportInput(),
        currency_code: 'USD',
        expected_cash: '61.80',
        account_payments: [{ method: 'cash', count: 1, amount: '5' }],
        cash_by_currency: [
          { currency_code: 'USD', rate: '1', expected: '50.00', expected_base: '50.00' },
          { currency_code: 'EUR', rate: '1.25', expected: '9.44', expected_base: '11.8' },
        ],
      },
      { timeZone: 'UTC' },
    );
    const text = renderText(report, { paper: '80mm' });
    expect(text).toMatch(/On account: Cash \(1\) +5\.00/);
    expect(text).toMatch(/Expected cash USD +50\.00/);
    expect(text).toMatch(/Expected cash EUR @1\.25 +9\.44/);
    expect(text).toMatch(/ {2}= USD +11\.80/);
    const bytes = Buffer.from(renderEscPos(report, { paper: '80mm' })).toString('latin1');
    expect(bytes).toContain('Expected cash EUR @1.25');
    // one currency only: no per-currency lines
    const plain = renderText(buildZReport(sampleZReportInput(), { timeZone: 'UTC' }), { paper: '80mm' });
    expect(plain).not.toContain('Expected cash SAR');
  });

  it('27.4: the printed Z lists each tender per currency and the count per currency, each with its base equivalent at the rate used', () => {
    // The session of the server's books test: 50.00 USD float, 9.44 EUR of goods paid 10.00 EUR cash with 0.70
    // USD change, a 5.00 EUR card sale; closed one euro short (9.00 EUR counted against 10.00).
    const closed = {
      ...sampleZReportInput(),
      currency_code: 'USD',
      payment_totals: [
        { method: 'card', count: 1, amount: '6.25' },
        { method: 'cash', count: 1, amount: '11.80' },
      ],
      opening_float: '50.00',
      expected_cash: '61.80',
      counted_cash: '60.55',
      variance: '-1.25',
      tenders_by_currency: [
        { currency_code: 'USD', method: 'cash', rate: '1', count: 0, amount: '-0.70', base_amount: '-0.70' },
        { currency_code: 'EUR', method: 'card', rate: '1.25', count: 1, amount: '5.00', base_amount: '6.25' },
        {
          currency_code: 'EUR',
          method: 'cash',
          rate: '1.25',
          count: 1,
          amount: '10.00',
          base_amount: '12.50',
        },
      ],
      cash_by_currency: [
        { currency_code: 'USD', rate: '1', expected: '49.30', expected_base: '49.30' },
        { currency_code: 'EUR', rate: '1.25', expected: '10.00', expected_base: '12.50' },
      ],
      counted_by_currency: [
        {
          currency_code: 'USD',
          rate: '1',
          expected: '49.30',
          counted: '49.30',
          variance: '0.00',
          expected_base: '49.30',
          counted_base: '49.30',
          variance_base: '0.00',
        },
        {
          currency_code: 'EUR',
          rate: '1.25',
          expected: '10.00',
          counted: '9.00',
          variance: '-1.00',
          expected_base: '12.50',
          counted_base: '11.25',
          variance_base: '-1.25',
        },
      ],
    };
    for (const paper of ['58mm', '80mm'] as const) {
      const lines = decodeEscPos(renderEscPos(buildZReport(closed, { timeZone: 'UTC' }), { paper })).lines;
      const after = (label: string, amount: string, base?: string) => {
        const at = lines.findIndex((l) => new RegExp(`^${label} +${amount.replace('.', '\\.')}$`).test(l));
        expect(at, `${label} ${amount} on ${paper}`).toBeGreaterThanOrEqual(0);
        if (base) expect(lines[at + 1]).toMatch(new RegExp(`^  = USD +${base.replace('.', '\\.')}$`));
        else expect(lines[at + 1] ?? '').not.toMatch(/^ {2}= /);
      };
      expect(lines).toContain('Tenders by currency');
      after('Cash USD \\(0\\)', '-0.70');
      after('Card EUR @1\\.25 \\(1\\)', '5.00', '6.25');
      after('Cash EUR @1\\.25 \\(1\\)', '10.00', '12.50');
      after('Expected cash USD', '49.30');
      after('Counted cash USD', '49.30');
      after('Variance USD', '0.00');
      after('Expected cash EUR @1\\.25', '10.00', '12.50');
      after('Counted cash EUR', '9.00', '11.25');
      after('Variance EUR', '-1.00', '-1.25');
      // the base totals follow, as before
      after('Counted cash', '60.55');
      after('Variance', '-1.25');
    }
    // An X-report (open) prints the expected cash per currency, and no count.
    const open = buildZReport({ ...closed, counted_by_currency: null }, { timeZone: 'UTC' });
    const x = decodeEscPos(renderEscPos(open)).lines;
    expect(x).toContainEqual(expect.stringMatching(/^Expected cash EUR @1\.25 +10\.00$/));
    expect(x.join('\n')).not.toMatch(/Counted cash EUR|Variance EUR/);
    expect(x).toContain('Tenders by currency');
    // One currency only: neither section.
    const plain = decodeEscPos(renderEscPos(buildZReport(sampleZReportInput(), { timeZone: 'UTC' }))).lines;
    expect(plain.join('\n')).not.toMatch(/Tenders by currency|Counted cash SAR/);
  });

  it('keeps server-provided figures', () => {
    const report = buildZReport(
      { ...sampleZReportInput(), expected_cash: '2790', variance: '0' },
      { timeZone: 'UTC' },
    );
    expect(report.expectedCash).toBe('2790.00');
    expect(report.variance).toBe('0.00');
  });
});

describe('shelf labels', () => {
  it('uses EAN-13 for GTINs and CODE128 for internal codes', () => {
    expect(chooseLabelBarcode('5012345678900')).toEqual({ symbology: 'ean13', data: '5012345678900' });
    expect(chooseLabelBarcode('05012345678900')).toEqual({ symbology: 'ean13', data: '5012345678900' });
    expect(chooseLabelBarcode('036000291452')).toEqual({ symbology: 'ean13', data: '0036000291452' });
    expect(chooseLabelBarcode('MED-00017')).toEqual({ symbology: 'code128', data: 'MED-00017' });
    expect(chooseLabelBarcode('5012345678901')).toEqual({ symbology: 'code128', data: '5012345678901' });
    expect(() => chooseLabelBarcode('café')).toThrow(RangeError);
  });

  it('builds the label model', () => {
    const label = buildShelfLabel({
      name: 'Ibuprofen',
      strength: '400 mg',
      form: 'tablets',
      pack_size: '30 tablets',
      price: '6.2',
      currency_code: 'EUR',
      barcode: '5012345678900',
    });
    expect(label).toMatchObject({ strengthAndForm: '400 mg tablets', price: '6.20', packSize: '30 tablets' });
  });
});

describe('ZATCA QR encoding', () => {
  it('matches the reference TLV layout', () => {
    const payload = encodeZatcaQr({
      sellerName: 'Bobs Records',
      vatNumber: '310122393500003',
      timestamp: '2022-04-25T15:30:00Z',
      total: '1000.00',
      vatTotal: '150.00',
    });
    // Example from ZATCA's QR code guideline.
    expect(payload).toBe(
      'AQxCb2JzIFJlY29yZHMCDzMxMDEyMjM5MzUwMDAwMwMUMjAyMi0wNC0yNVQxNTozMDowMFoEBzEwMDAuMDAFBjE1MC4wMA==',
    );
    expect(() =>
      encodeZatcaQr({ sellerName: 'x'.repeat(256), vatNumber: '', timestamp: '', total: '', vatTotal: '' }),
    ).toThrow(RangeError);
  });
});

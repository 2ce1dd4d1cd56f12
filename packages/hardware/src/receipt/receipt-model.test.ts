import { describe, expect, it } from 'vitest';
import { renderEscPos } from '../render/escpos-renderer';
import { renderText } from '../render/text-renderer';
import { decodeEscPos } from '../testing';
import { markCopy } from './copy-mark';
import { buildCreditNote } from './credit-note';
import { sampleCreditNoteInput, sampleSaleInput } from './sample-documents';
import { buildSaleReceipt, type SaleReceiptInput } from './sale-receipt';

const OPTIONS = { timeZone: 'Africa/Nairobi', qrFormat: 'none' as const };

/**
 * The sale of issue 27 finding 7 as the server sends it (prices include VAT): Amoxicillin 6.50 with a 0.50 line
 * discount at 18 %, Vitamin C 2.20 at 0 %, a coupon SAVE10 of 1.00 spread over the lines (each sale line's
 * `discount` holds its own discount plus its share of the coupon).
 */
function couponSale(overrides: Partial<SaleReceiptInput> = {}): SaleReceiptInput {
  return sampleSaleInput(1, {
    currency_code: 'USD',
    base_currency_code: 'USD',
    subtotal_amount: '6.32',
    vat_amount: '0.88',
    total_amount: '7.20',
    global_discount: '0.00',
    coupon_discount: '1.00',
    coupon_code: 'SAVE10',
    vat_breakdown: [
      { rate: '0', taxable_amount: '1.93', vat_amount: '0.00' },
      { rate: '18', taxable_amount: '4.39', vat_amount: '0.88' },
    ],
    payment_lines: [{ method: 'cash', amount: '10.00' }],
    items: [
      {
        name: 'Amoxicillin 500mg',
        quantity: 1,
        unit_price: '6.50',
        discount: '1.23',
        line_discount: '0.50',
        line_total: '5.27',
        vat_rate: 18,
      },
      {
        name: 'Vitamin C 1000mg',
        quantity: 1,
        unit_price: '2.20',
        discount: '0.27',
        line_discount: '0.00',
        line_total: '1.93',
        vat_rate: 0,
      },
    ],
    ...overrides,
  });
}

const paper = (bytes: Buffer) => decodeEscPos(bytes).lines;
const row = (left: string, right: string) => new RegExp(`^${left} +${right.replace(/[.()+-]/g, '\\$&')}$`);

describe('27.7: one receipt model, on paper and on screen', () => {
  it("27.7: each line prints its VAT rate in percent, never the category's name", () => {
    const lines = paper(renderEscPos(buildSaleReceipt(couponSale(), OPTIONS)));
    expect(lines).toContainEqual(expect.stringMatching(row('  1 x 6\\.50  VAT 18%', '6.50')));
    expect(lines).toContainEqual(expect.stringMatching(row('  1 x 2\\.20  VAT 0%', '2.20')));
    expect(lines.join('\n')).not.toMatch(/standard|zero| [A-Z] \d+%/);
  });

  it('27.7: the VAT summary has one row per rate with its taxable amount and VAT', () => {
    const lines = paper(renderEscPos(buildSaleReceipt(couponSale(), OPTIONS)));
    expect(lines).toContainEqual(expect.stringMatching(/^18% +4\.39 +0\.88$/));
    expect(lines).toContainEqual(expect.stringMatching(/^0% +1\.93 +0\.00$/));
    expect(lines.findIndex((l) => l.startsWith('18%'))).toBeLessThan(
      lines.findIndex((l) => l.startsWith('0%')),
    );
  });

  it('27.7: each discount prints once, named, and the printed figures add up to the total', () => {
    const lines = paper(renderEscPos(buildSaleReceipt(couponSale(), OPTIONS)));
    // The line's own discount under the line; the coupon once, with its code.
    expect(lines).toContainEqual(expect.stringMatching(row('  Discount', '-0.50')));
    expect(lines.filter((l) => /-0\.50$/.test(l))).toHaveLength(1);
    expect(lines.filter((l) => /-1\.00$/.test(l))).toEqual([
      expect.stringMatching(row('Coupon SAVE10', '-1.00')),
    ]);
    expect(lines.join('\n')).not.toMatch(/Line discounts|-1\.23|-0\.27/);
    // 6.50 - 0.50 + 2.20 = 8.20; 8.20 - 1.00 = 7.20; prices include VAT, so VAT is "of which".
    expect(lines).toContainEqual(expect.stringMatching(row('Subtotal', '8.20')));
    expect(lines).toContainEqual(expect.stringMatching(row('TOTAL USD', '7.20')));
    expect(lines).toContainEqual(expect.stringMatching(row('Incl\\. VAT', '0.88')));
    expect(lines.findIndex((l) => l.startsWith('TOTAL'))).toBeLessThan(
      lines.findIndex((l) => l.startsWith('Incl. VAT')),
    );
  });

  it('27.7: prices without VAT add the VAT before the total', () => {
    const lines = paper(renderEscPos(buildSaleReceipt(sampleSaleInput(2), OPTIONS)));
    const at = (prefix: string) => lines.findIndex((l) => l.startsWith(prefix));
    const vat = lines.findIndex((l) => /^VAT +0\.53$/.test(l));
    expect(vat).toBeGreaterThan(at('Subtotal'));
    expect(vat).toBeLessThan(at('TOTAL'));
    expect(at('Incl. VAT')).toBe(-1);
  });

  it('27.7: a reprint prints COPY at the top and the bottom; the original does not', () => {
    const receipt = buildSaleReceipt(couponSale(), OPTIONS);
    const original = paper(renderEscPos(receipt));
    expect(original.join('\n')).not.toContain('COPY');
    const copy = decodeEscPos(renderEscPos(markCopy(receipt)));
    const marks = copy.styledLines.filter((l) => l.text === '*** COPY ***');
    expect(marks).toHaveLength(2);
    expect(marks[0]).toMatchObject({ bold: true, tall: true, align: 'center' });
    expect(copy.lines.indexOf('*** COPY ***')).toBeLessThan(
      copy.lines.findIndex((l) => l.startsWith('Invoice')),
    );
    const note = decodeEscPos(renderEscPos(markCopy(buildCreditNote(sampleCreditNoteInput(), OPTIONS))));
    expect(note.lines.filter((l) => l === '*** COPY ***')).toHaveLength(2);
    expect(buildSaleReceipt(couponSale(), { ...OPTIONS, copy: true }).copy).toBe(true);
  });

  it("27.7: amounts print in the currency's decimals the caller gives (the database's), not the ISO table's", () => {
    const kwd = couponSale({ currency_code: 'KWD', base_currency_code: 'KWD' });
    expect(paper(renderEscPos(buildSaleReceipt(kwd, OPTIONS)))).toContainEqual(
      expect.stringMatching(row('TOTAL KWD', '7.200')),
    );
    const lines = paper(renderEscPos(buildSaleReceipt(kwd, { ...OPTIONS, currencyExponent: 2 })));
    expect(lines).toContainEqual(expect.stringMatching(row('TOTAL KWD', '7.20')));
    expect(lines).toContainEqual(expect.stringMatching(row('Cash', '10.00')));
  });

  it('27.7: a credit note prints the line rate and the summary in percent (not "A 0%")', () => {
    const note = buildCreditNote(
      {
        ...sampleCreditNoteInput(),
        currency_code: 'USD',
        subtotal_amount: '4.47',
        vat_amount: '0.80',
        total_amount: '5.27',
        vat_breakdown: [{ rate: 18, taxable_amount: '4.47', vat_amount: '0.80' }],
        items: [
          {
            name: 'Amoxicillin 500mg',
            quantity: 1,
            unit_price: '5.27',
            amount: '5.27',
            line_total: '5.27',
            vat_rate: 18,
          },
        ],
      },
      OPTIONS,
    );
    const lines = paper(renderEscPos(note));
    expect(lines).toContainEqual(expect.stringMatching(row('  1 x 5\\.27  VAT 18%', '5.27')));
    expect(lines).toContainEqual(expect.stringMatching(/^18% +4\.47 +0\.80$/));
    expect(lines).toContainEqual(expect.stringMatching(row('TOTAL USD', '-5.27')));
    expect(lines).toContainEqual(expect.stringMatching(row('Incl\\. VAT', '-0.80')));
    expect(lines.join('\n')).not.toMatch(/ 0%|^A /m);
  });

  it('27.7: the screen text is the same layout as the paper', () => {
    const receipt = buildSaleReceipt(couponSale(), OPTIONS);
    const screen = renderText(receipt)
      .trimEnd()
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    const printed = paper(renderEscPos(receipt))
      .map((l) => l.trim())
      .filter(Boolean);
    expect(screen).toEqual(printed);
  });
});

/**
 * Issue 27.4 at the printer: 11.80 USD of goods sold in EUR at 1 EUR = 1.25 USD (9.44 EUR), 10.00 EUR handed
 * over. The change is 0.56 EUR when the drawer holds euros, else 0.70 USD out of the dollars (the sale record's
 * change_currency_code and change_given).
 */
function euroCashSale(overrides: Partial<SaleReceiptInput>): SaleReceiptInput {
  return sampleSaleInput(1, {
    currency_code: 'EUR',
    base_currency_code: 'USD',
    fx_rate_to_base: '1.25',
    base_total_amount: '11.80',
    subtotal_amount: '9.44',
    vat_amount: '0.00',
    total_amount: '9.44',
    vat_breakdown: [{ rate: '0', taxable_amount: '9.44', vat_amount: '0.00' }],
    payment_lines: [{ method: 'cash', amount: '10.00' }],
    change_amount: '0.56',
    items: [{ name: 'Amoxicillin 500mg', quantity: 1, unit_price: '9.44', line_total: '9.44', vat_rate: 0 }],
    ...overrides,
  });
}

describe('27.4: the printed change is in the currency it was handed over in', () => {
  it('27.4: change in euros from a drawer that holds them prints as EUR with the rate used', () => {
    const receipt = buildSaleReceipt(
      euroCashSale({ change_currency_code: 'EUR', change_given: '0.56' }),
      OPTIONS,
    );
    const lines = paper(renderEscPos(receipt));
    expect(lines).toContainEqual(expect.stringMatching(row('Change EUR', '0.56')));
    const at = lines.findIndex((l) => l.startsWith('Change EUR'));
    expect(lines[at + 1]).toMatch(row('  Rate', '1 EUR = 1.25 USD'));
    expect(lines.join('\n')).not.toMatch(/Change USD|0\.70/);
    expect(decodeEscPos(renderEscPos(receipt)).styledLines[at]).toMatchObject({ bold: true });
  });

  it('27.4: change out of the dollars prints as USD, with the euro amount it stands for and the rate', () => {
    const lines = paper(
      renderEscPos(
        buildSaleReceipt(euroCashSale({ change_currency_code: 'USD', change_given: '0.70' }), OPTIONS),
      ),
    );
    expect(lines).toContainEqual(expect.stringMatching(row('Change USD', '0.70')));
    const at = lines.findIndex((l) => l.startsWith('Change USD'));
    expect(lines[at + 1]).toMatch(row('  = EUR 0\\.56', '1 EUR = 1.25 USD'));
    expect(lines.filter((l) => /^Change/.test(l))).toHaveLength(1);
  });

  it("27.4: the change prints in its own currency's decimals from the caller (the database), not the sale's", () => {
    // A sale in EUR at 1 EUR = 162.5 JPY on a yen till without euros: the change is 91 yen (0 decimals).
    const input = euroCashSale({
      base_currency_code: 'JPY',
      fx_rate_to_base: '162.5',
      base_total_amount: '1534',
      change_currency_code: 'JPY',
      change_given: '91',
    });
    const lines = paper(renderEscPos(buildSaleReceipt(input, { ...OPTIONS, baseCurrencyExponent: 0 })));
    expect(lines).toContainEqual(expect.stringMatching(row('Change JPY', '91')));
    expect(lines).toContainEqual(expect.stringMatching(row('Total in JPY', '1534')));
    // The database may hold other decimals than ISO 4217 for the change currency: the caller's win.
    const three = paper(
      renderEscPos(
        buildSaleReceipt(input, { ...OPTIONS, baseCurrencyExponent: 0, changeCurrencyExponent: 3 }),
      ),
    );
    expect(three).toContainEqual(expect.stringMatching(row('Change JPY', '91.000')));
  });

  it('27.4: a sale in the base currency prints its change with the currency and no rate', () => {
    const lines = paper(renderEscPos(buildSaleReceipt(couponSale(), OPTIONS)));
    expect(lines).toContainEqual(expect.stringMatching(row('Change USD', '2.80')));
    expect(lines.join('\n')).not.toMatch(/Rate|= USD/);
  });
});

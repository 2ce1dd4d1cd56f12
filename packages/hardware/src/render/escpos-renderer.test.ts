import { describe, expect, it } from 'vitest';
import { buildCreditNote } from '../receipt/credit-note';
import { buildSaleReceipt } from '../receipt/sale-receipt';
import { buildShelfLabel } from '../receipt/shelf-label';
import { buildZReport } from '../receipt/z-report';
import { decodeEscPos } from '../testing';
import { sampleCreditNoteInput, sampleSaleInput, sampleZReportInput } from '../receipt/sample-documents';
import type { PaperWidth } from '../layout/blocks';
import type { CommandSet } from '../encoding/code-pages';
import { renderEscPos } from './escpos-renderer';
import { shouldOpenDrawer } from './render-options';

const OPTIONS = { timeZone: 'Asia/Riyadh' };
const receipt = buildSaleReceipt(sampleSaleInput(12), OPTIONS);
const VARIANTS: Array<[PaperWidth, CommandSet, number]> = [
  ['58mm', 'epson', 32],
  ['80mm', 'epson', 48],
  ['58mm', 'star', 32],
  ['80mm', 'star', 48],
];

describe.each(VARIANTS)('renderEscPos %s %s', (paper, commandSet, columns) => {
  const decoded = decodeEscPos(renderEscPos(receipt, { paper, commandSet }), { commandSet });
  const text = decoded.lines.join('\n');

  it('puts the invoice number, totals and VAT lines on the paper', () => {
    expect(text).toContain('INV-2024-000123');
    expect(decoded.lines).toContainEqual(expect.stringMatching(new RegExp(`^TOTAL SAR +${receipt.total}$`)));
    expect(decoded.lines).toContainEqual(expect.stringMatching(new RegExp(`^VAT +${receipt.vatTotal}$`)));
    expect(decoded.lines).toContainEqual(
      expect.stringMatching(new RegExp(`^Subtotal +${receipt.subtotal}$`)),
    );
    for (const row of receipt.vatBreakdown) {
      expect(decoded.lines).toContainEqual(
        expect.stringMatching(new RegExp(`^${row.rate}% +${row.taxableAmount} +${row.vatAmount}$`)),
      );
    }
    expect(text).toContain('Change');
  });

  it('prints the organisation name as a bold centred heading and the total in bold', () => {
    expect(decoded.styledLines[0]).toEqual({
      text: 'Green Cross Pharmacy',
      align: 'center',
      bold: true,
      tall: true,
    });
    const total = decoded.styledLines.find((line) => line.text.startsWith('TOTAL'));
    expect(total).toMatchObject({ bold: true, tall: true, align: 'left' });
    expect(decoded.styledLines.find((line) => line.text.startsWith('Subtotal'))).toMatchObject({
      bold: false,
    });
  });

  it('carries the QR payload and ends with the cut', () => {
    expect(decoded.commands).toContainEqual({ type: 'qr', data: receipt.qrPayload });
    expect(decoded.commands[0]).toEqual({ type: 'init' });
    expect(decoded.commands.at(-1)).toEqual({ type: 'cut', partial: true });
  });

  it(`never exceeds ${columns} columns`, () => {
    for (const line of decoded.lines) expect(Array.from(line).length).toBeLessThanOrEqual(columns);
  });

  it('kicks the drawer only when asked', () => {
    expect(decoded.commands.some((c) => c.type === 'drawer')).toBe(false);
    const withDrawer = decodeEscPos(renderEscPos(receipt, { paper, commandSet, openDrawer: true }), {
      commandSet,
    });
    const kicks = withDrawer.commands.filter((c) => c.type === 'drawer');
    expect(kicks).toHaveLength(1);
    expect(kicks[0]).toMatchObject({ pin: 2 });
    expect(withDrawer.commands.at(-1)?.type).toBe('cut');
  });
});

describe('renderEscPos details', () => {
  it('selects PC858 so accents and the euro sign survive', () => {
    const euro = buildSaleReceipt(
      sampleSaleInput(4, {
        currency_code: 'EUR',
        organization_name: 'Apotheke Müller €',
        base_currency_code: 'EUR',
      }),
      OPTIONS,
    );
    const decoded = decodeEscPos(renderEscPos(euro, { language: 'de' }));
    expect(decoded.commands).toContainEqual({ type: 'codepage', number: 19, codePage: 'PC858_EURO' });
    expect(decoded.lines[0]).toBe('Apotheke Müller €');
    expect(decoded.lines).toContain('Crème hydratante 50 ml');
  });

  it('switches code page by language and degrades unknown characters', () => {
    const polish = buildSaleReceipt(sampleSaleInput(1, { organization_name: 'Apteka Łódź 東' }), OPTIONS);
    const decoded = decodeEscPos(renderEscPos(polish, { language: 'pl-PL' }));
    expect(decoded.commands).toContainEqual({ type: 'codepage', number: 18, codePage: 'PC852_LATIN2' });
    expect(decoded.lines[0]).toBe('Apteka Łódź ?');
    const star = decodeEscPos(renderEscPos(polish, { language: 'pl', commandSet: 'star' }), {
      commandSet: 'star',
    });
    expect(star.lines[0]).toBe('Apteka Łódź ?');
  });

  it('kicks pin 5 with ESC p and its pulse times', () => {
    const bytes = renderEscPos(receipt, { openDrawer: 5, cut: 'full' });
    const decoded = decodeEscPos(bytes);
    expect(decoded.commands.filter((c) => c.type === 'drawer')).toEqual([
      { type: 'drawer', pin: 5, onMs: 100, offMs: 500 },
    ]);
    expect(decoded.commands.at(-1)).toEqual({ type: 'cut', partial: false });
    expect(bytes.includes(Buffer.from([0x1b, 0x70, 1, 50, 250]))).toBe(true);
  });

  it('opens the drawer for cash tenders and cash refunds only', () => {
    expect(shouldOpenDrawer(receipt)).toBe(true);
    const cardOnly = buildSaleReceipt(
      sampleSaleInput(2, { payment_lines: [{ method: 'card', amount: '100.00' }] }),
      OPTIONS,
    );
    expect(shouldOpenDrawer(cardOnly)).toBe(false);
    expect(shouldOpenDrawer(buildCreditNote(sampleCreditNoteInput(), OPTIONS))).toBe(true);
    expect(shouldOpenDrawer(buildZReport(sampleZReportInput(), OPTIONS))).toBe(false);
  });

  it('renders credit notes, Z reports and shelf labels', () => {
    const note = decodeEscPos(
      renderEscPos(buildCreditNote(sampleCreditNoteInput(), OPTIONS), { paper: '58mm' }),
    );
    expect(note.lines).toContain('CREDIT NOTE');
    expect(note.lines).toContainEqual(expect.stringMatching(/^Original invoice +INV-2024-000123$/));
    expect(note.lines).toContainEqual(expect.stringMatching(/^Refund \(Cash\) +8\.05$/));

    const z = decodeEscPos(renderEscPos(buildZReport(sampleZReportInput(), OPTIONS), { paper: '58mm' }));
    expect(z.lines).toContain('Z REPORT #42');
    expect(z.lines).toContainEqual(expect.stringMatching(/^Variance +-5\.45$/));
    expect(z.lines).toContainEqual(expect.stringMatching(/^Cash \(51\) +2310\.45$/));
    for (const line of z.lines) expect(Array.from(line).length).toBeLessThanOrEqual(32);

    const label = buildShelfLabel({
      name: 'Paracetamol',
      strength: '500 mg',
      form: 'tablets',
      price: '3.5',
      currency_code: 'EUR',
      barcode: '5012345678900',
    });
    const epson = decodeEscPos(renderEscPos(label));
    expect(epson.commands).toContainEqual({ type: 'barcode', system: 67, data: '5012345678900' });
    expect(epson.lines).toContain('EUR 3.50');
    const star = decodeEscPos(renderEscPos(label, { commandSet: 'star' }), { commandSet: 'star' });
    expect(star.commands).toContainEqual({ type: 'barcode', system: 3, data: '5012345678900' });
    const internal = decodeEscPos(renderEscPos(buildShelfLabel({ ...labelInput(), barcode: 'MED-17' })));
    expect(internal.commands).toContainEqual({ type: 'barcode', system: 73, data: '{BMED-17' });
  });
});

function labelInput() {
  return { name: 'Cough syrup', price: '4.00', currency_code: 'EUR', barcode: '' };
}

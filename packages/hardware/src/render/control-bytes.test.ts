import { afterEach, describe, expect, it } from 'vitest';
import { printDocument } from '../print-worker/print-document';
import { buildCreditNote } from '../receipt/credit-note';
import { sampleCreditNoteInput, sampleSaleInput } from '../receipt/sample-documents';
import { buildSaleReceipt } from '../receipt/sale-receipt';
import { decodeEscPos, startVirtualPrinter, type VirtualPrinter } from '../testing';
import { renderEscPos } from './escpos-renderer';
import { renderText } from './text-renderer';

/** The name issue 26 M1 pushed through sync: ESC p (kick the drawer) and GS V (cut) hidden in a customer name. */
const HOSTILE = 'Amina \x1bp\x00\x19\xfa\x1dV\x00Hassan\x7f\x85\x9b';
const OPTIONS = { timeZone: 'Africa/Nairobi' };

let printer: VirtualPrinter | undefined;
afterEach(async () => {
  await printer?.close();
  printer = undefined;
});

function hostileSale() {
  return buildSaleReceipt(
    sampleSaleInput(2, {
      customer_display_name: HOSTILE,
      pharmacist_name: `Cashier\x1d\x56\x41\x00`,
      receipt_footer: 'Get well\x1b\x40 soon',
      items: [
        {
          name: 'Paracetamol\x1bp\x00\x19\xfa',
          quantity: 1,
          unit_price: '3.50',
          line_total: '3.50',
          vat_rate: '15',
        },
      ],
    }),
    OPTIONS,
  );
}

/** Every byte below 0x20, 0x7f and 0x80-0x9f left in the text the decoder read back. */
const controlsIn = (lines: string[]) => lines.join('').match(/\p{Cc}/gu) ?? [];

describe('26 M1: the renderer drops control bytes from data fields', () => {
  it('26 M1: a customer name carrying ESC p and GS V neither kicks the drawer nor cuts the paper', () => {
    const bytes = renderEscPos(hostileSale(), { openDrawer: false, cut: 'partial' });
    const decoded = decodeEscPos(bytes);
    expect(decoded.commands.filter((c) => c.type === 'drawer')).toEqual([]);
    expect(decoded.commands.filter((c) => c.type === 'cut')).toEqual([{ type: 'cut', partial: true }]);
    expect(decoded.commands.at(-1)).toEqual({ type: 'cut', partial: true });
    expect(decoded.commands.filter((c) => c.type === 'init')).toHaveLength(1);
    expect(controlsIn(decoded.lines)).toEqual([]);
    const text = decoded.lines.join('\n');
    expect(text).toContain('Amina púVHassan');
    expect(text).toContain('Hassan');
    // The raw bytes hold no ESC p and no GS V but the renderer's own final cut.
    expect(bytes.includes(Buffer.from([0x1b, 0x70]))).toBe(false);
    expect(bytes.indexOf(Buffer.from([0x1d, 0x56]))).toBe(bytes.length - 3);
  });

  it('26 M1: the same holds for a credit note and for the on-screen text', () => {
    const note = buildCreditNote(
      { ...sampleCreditNoteInput(), customer_display_name: HOSTILE, reason: 'Damaged\x1bp\x00\x19\xfa' },
      OPTIONS,
    );
    const decoded = decodeEscPos(renderEscPos(note, { cut: 'none' }));
    expect(decoded.commands.filter((c) => c.type === 'drawer' || c.type === 'cut')).toEqual([]);
    expect(controlsIn(decoded.lines)).toEqual([]);
    const screen = renderText(hostileSale());
    expect(screen.replace(/\n/g, '').match(/\p{Cc}/gu)).toBeNull();
    expect(screen).toContain('Amina púVHassan');
  });

  it('26 M1: what reaches a loopback TCP printer carries no drawer kick or cut from the name', async () => {
    printer = await startVirtualPrinter();
    const bytes = renderEscPos(hostileSale(), { cut: 'full' });
    const received = printer.nextJob();
    await printDocument({
      transport: {
        transport: 'tcp',
        address: printer.address,
        timeoutMs: 2000,
        allow: { tcpPorts: [printer.port] },
      },
      bytes,
    });
    const decoded = decodeEscPos(await received);
    expect(decoded.commands.filter((c) => c.type === 'drawer')).toEqual([]);
    expect(decoded.commands.filter((c) => c.type === 'cut')).toEqual([{ type: 'cut', partial: false }]);
    expect(decoded.lines.join('\n')).toContain('Hassan');
  });
});

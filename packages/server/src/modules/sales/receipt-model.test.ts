import { decodeEscPos, startVirtualPrinter, type VirtualPrinter } from '@pharmacy/hardware/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { addStock, makeMedicineId, openSessionFor } from '../../testing/factory';

/** Issue 27 finding 7: one receipt model, the sale record's figures, on paper and on screen. */

type Body = Record<string, unknown>;
let t: TestServer;
let printer: VirtualPrinter;
let manager: { token: string };
let sale: { id: string; invoice_number: string; total_amount: string; vat_amount: string; items: Body[] };

/** The next connection that carried a document (the worker asks the printer's status on its own connection first). */
async function nextDocument(): Promise<string[]> {
  for (;;) {
    const bytes = await printer.nextJob();
    if (bytes.length > 16) return decodeEscPos(bytes).lines;
  }
}

const row = (left: string, right: string) =>
  expect.stringMatching(new RegExp(`^${left} +${right.replace(/[.()+-]/g, '\\$&')}$`));

beforeAll(async () => {
  t = await startTestServer();
  const admin = await t.adminToken();
  printer = await startVirtualPrinter();
  await t.put('/api/v1/settings', { printer_extra_ports: [printer.port] }, admin);
  const created = await t.post(
    '/api/v1/printing/printers',
    { name: 'Counter', transport: 'tcp', address: printer.address, paper_width_mm: 80, is_default: true },
    admin,
  );
  expect(created.status).toBe(201);
  manager = await t.userWithRole('branch_manager');
  await openSessionFor(t, manager.token, 50);
  const coupon = await t.post(
    '/api/v1/coupons',
    { code: 'SAVE10', discount_type: 'fixed', discount_value: 1, usage_limit: 5 },
    manager.token,
  );
  expect(coupon.status, JSON.stringify(coupon.body)).toBe(201);
  const amoxicillin = await makeMedicineId(t, { price: 6.5, name: 'Amoxicillin 500mg' });
  const vitamin = await makeMedicineId(t, { price: 2.2, name: 'Vitamin C 1000mg', vat_category: 'zero' });
  await addStock(t, amoxicillin, 5);
  await addStock(t, vitamin, 5);
  const printed = nextDocument();
  const res = await t.post<typeof sale>(
    '/api/v1/sales',
    {
      items: [
        { medicine_id: amoxicillin, quantity: 1, discount: 0.5 },
        { medicine_id: vitamin, quantity: 1 },
      ],
      coupon_code: 'SAVE10',
      payment_lines: [{ method: 'card', amount: 7.2 }],
    },
    manager.token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  sale = res.body;
  receiptLines = await printed;
});
afterAll(async () => {
  await t.close();
  await printer.close();
});

let receiptLines: string[] = [];

describe('27.7: the receipt the printer prints', () => {
  it('27.7: each line prints its VAT rate in percent, and the VAT summary is by rate', () => {
    const text = receiptLines.join('\n');
    expect(receiptLines).toContainEqual(row('  1 x 6\\.50  VAT 18%', '6.50'));
    expect(receiptLines).toContainEqual(row('  1 x 2\\.20  VAT 0%', '2.20'));
    expect(text).not.toMatch(/standard|zero/);
    const vat = sale.items.find((l) => l.medicine_name === 'Amoxicillin 500mg')!;
    expect(receiptLines).toContainEqual(
      expect.stringMatching(new RegExp(`^18% +${String(vat.net_amount)} +${String(vat.vat_amount)}$`)),
    );
    expect(receiptLines).toContainEqual(expect.stringMatching(/^0% +\d+\.\d\d +0\.00$/));
  });

  it('27.7: the line discount prints once on its line, the coupon once with its code, and the figures add up', () => {
    expect(receiptLines.filter((l) => /-0\.50$/.test(l))).toEqual([row('  Discount', '-0.50')]);
    expect(receiptLines.filter((l) => /-1\.00$/.test(l))).toEqual([row('Coupon SAVE10', '-1.00')]);
    expect(receiptLines.join('\n')).not.toMatch(/Line discounts/);
    expect(receiptLines).toContainEqual(row('Subtotal', '8.20'));
    expect(sale.total_amount).toBe('7.20');
    expect(receiptLines).toContainEqual(row('TOTAL USD', sale.total_amount));
    expect(receiptLines).toContainEqual(row('Incl\\. VAT', sale.vat_amount));
  });

  it('27.7: the till shows the same receipt as text (GET /sales/{id}/receipt)', async () => {
    const res = await t.get<{ text: string }>(`/api/v1/sales/${sale.id}/receipt`, manager.token);
    expect(res.status).toBe(200);
    const screen = res.body.text.split('\n').map((l) => l.trim());
    const paper = receiptLines.map((l) => l.trim());
    for (const line of paper.filter(Boolean)) expect(screen).toContain(line);
  });

  it('27.7: a reprint prints COPY at the top and the bottom; the first print does not', async () => {
    expect(receiptLines.join('\n')).not.toContain('COPY');
    const jobs = await t.get<{ items: Array<{ id: string; reference_id: string }> }>(
      '/api/v1/printing/print-jobs?page_size=100',
      manager.token,
    );
    const original = jobs.body.items.find((j) => j.reference_id === sale.id)!;
    const printed = nextDocument();
    const reprint = await t.post(`/api/v1/printing/print-jobs/${original.id}/reprint`, {}, manager.token);
    expect(reprint.status).toBe(201);
    const lines = await printed;
    expect(lines.filter((l) => l === '*** COPY ***')).toHaveLength(2);
    expect(lines).toContainEqual(row('TOTAL USD', sale.total_amount));
  });

  it('27.7: the credit note prints the refunded line at 18 % (not "A 0%") and VAT by rate', async () => {
    const line = sale.items.find((l) => l.medicine_name === 'Amoxicillin 500mg')!;
    const ret = await t.post<{ id: string; total_amount: string; vat_amount: string }>(
      '/api/v1/returns',
      { sale_id: sale.id, lines: [{ sale_line_id: line.id, quantity: 1 }], refund_method: 'card' },
      manager.token,
    );
    expect(ret.status, JSON.stringify(ret.body)).toBe(201);
    const printed = nextDocument();
    const job = await t.post(
      '/api/v1/printing/print-jobs',
      { document_type: 'credit_note', reference_id: ret.body.id },
      manager.token,
    );
    expect(job.status).toBe(201);
    const lines = await printed;
    expect(lines).toContainEqual(
      expect.stringMatching(new RegExp(`^  1 x ${ret.body.total_amount.replace('.', '\\.')}  VAT 18% +`)),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(new RegExp(`^18% +\\d+\\.\\d\\d +${ret.body.vat_amount}$`)),
    );
    expect(lines).toContainEqual(row('TOTAL USD', `-${ret.body.total_amount}`));
    expect(lines.join('\n')).not.toMatch(/^[A-Z] \d+%|\b0%/m);
  });
});

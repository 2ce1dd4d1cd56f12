import { decodeEscPos, startVirtualPrinter, type VirtualPrinter } from '@pharmacy/hardware/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { addStock, makeMedicineId, openSessionFor } from '../../testing/factory';

/**
 * Issue 27.4 on paper: a sale paid in euros and its change, and the Z of that session, as the printer receives
 * them (ESC/POS bytes from a real TCP printer), against the sale record and GET /sessions/{id}/z-report.
 */

// biome-ignore lint/suspicious/noExplicitAny: report bodies are asserted field by field
type Json = Record<string, any>;

let t: TestServer;
let admin: string;
let printer: VirtualPrinter;
let main: string;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
  main = await t.mainBranchId();
  printer = await startVirtualPrinter();
  await t.put('/api/v1/settings', { printer_extra_ports: [printer.port] }, admin);
  const created = await t.post(
    '/api/v1/printing/printers',
    { name: 'Counter', transport: 'tcp', address: printer.address, paper_width_mm: 58, is_default: true },
    admin,
  );
  expect(created.status).toBe(201);
  const rate = await t.post(
    '/api/v1/currency/rates',
    { from_code: 'EUR', rate: '1.25', effective_at: '2026-01-01T00:00:00Z' },
    admin,
  );
  expect(rate.status, JSON.stringify(rate.body)).toBe(201);
});
afterAll(async () => {
  await t.close();
  await printer.close();
});

/** The next connection that carried a document (the worker asks the printer's status on its own connection first). */
async function nextDocument(): Promise<string[]> {
  for (;;) {
    const bytes = await printer.nextJob();
    if (bytes.length > 16) return decodeEscPos(bytes).lines;
  }
}

const literal = (s: string) => s.replace(/[.()+@-]/g, '\\$&');
const row = (left: string, right: string) => new RegExp(`^${literal(left)} +${literal(right)}$`);

let fresh = 0;
/** A cashier of their own with a session opened on a 50.00 USD float. */
async function cashierWithSession() {
  fresh += 1;
  const email = `cashier.print${fresh}@test.local`;
  const made = await t.post(
    '/api/v1/users',
    {
      email,
      password: 'Set-by-admin#1',
      full_name: `Print cashier ${fresh}`,
      role: 'cashier',
      branch_id: main,
    },
    admin,
  );
  expect(made.status).toBe(201);
  const token = await t.firstSignIn(email, 'Set-by-admin#1', 'Own#Print-cashier-2026');
  return { token, session: await openSessionFor(t, token, 50) };
}

/** 11.80 USD of goods sold in EUR at 1.25 (9.44 EUR), 10.00 EUR handed over; the receipt as printed. */
async function euroSale(drawer: string[]) {
  expect((await t.put(`/api/v1/branches/${main}`, { drawer_currencies: drawer }, admin)).status).toBe(200);
  const cashier = await cashierWithSession();
  const med = await makeMedicineId(t, { price: 11.8, name: 'Amoxicillin 500mg' });
  await addStock(t, med, 10);
  const printed = nextDocument();
  const sale = await t.post<Json>(
    '/api/v1/sales',
    {
      items: [{ medicine_id: med, quantity: 1 }],
      currency_code: 'EUR',
      payment_lines: [{ method: 'cash', amount: 10 }],
    },
    cashier.token,
  );
  expect(sale.status, JSON.stringify(sale.body)).toBe(201);
  return { cashier, sale: sale.body, paper: await printed };
}

describe('27.4: the printed receipt gives the change in the currency it was handed over in', () => {
  it('27.4: a drawer that holds euros: the paper says Change EUR 0.56 at 1 EUR = 1.25 USD, as the sale record and the screen do', async () => {
    const { cashier, sale, paper } = await euroSale(['EUR']);
    expect(sale).toMatchObject({
      change_currency_code: 'EUR',
      change_given: '0.56',
      fx_rate_to_base: '1.25',
    });
    expect(paper).toContainEqual(expect.stringMatching(row('TOTAL EUR', sale.total_amount)));
    expect(paper).toContainEqual(
      expect.stringMatching(row(`Change ${sale.change_currency_code}`, sale.change_given)),
    );
    const at = paper.findIndex((l) => l.startsWith('Change'));
    expect(paper[at + 1]).toMatch(row('  Rate', '1 EUR = 1.25 USD'));
    // The till's screen shows the same receipt (GET /sales/{id}/receipt), the change line included.
    const screen = await t.get<Json>(`/api/v1/sales/${sale.id}/receipt?paper=58mm`, cashier.token);
    expect(screen.status).toBe(200);
    const shown = (screen.body.text as string).split('\n').map((l) => l.trim());
    for (const line of paper.filter(Boolean)) expect(shown).toContain(line.trim());
  });

  it('27.4: a drawer without euros: the paper says Change USD 0.70 (the 0.56 EUR it stands for, and the rate)', async () => {
    const { sale, paper } = await euroSale([]);
    expect(sale).toMatchObject({ change_currency_code: 'USD', change_given: '0.70', change_amount: '0.56' });
    expect(paper).toContainEqual(expect.stringMatching(row('Change USD', '0.70')));
    const at = paper.findIndex((l) => l.startsWith('Change'));
    expect(paper[at + 1]).toMatch(row('  = EUR 0.56', '1 EUR = 1.25 USD'));
    expect(paper.filter((l) => l.startsWith('Change'))).toHaveLength(1);
  });
});

describe('27.4: the printed Z lists each tender and the count per currency', () => {
  it('27.4: the printed X and Z carry the tenders per currency and the count per currency with base equivalents, the figures of GET z-report', async () => {
    const { cashier } = await euroSale([]);
    const med = await makeMedicineId(t, { price: 6.25 });
    await addStock(t, med, 5);
    const card = await t.post<Json>(
      '/api/v1/sales',
      {
        items: [{ medicine_id: med, quantity: 1 }],
        currency_code: 'EUR',
        payment_lines: [{ method: 'card', amount: 5 }],
        print_receipt: false,
      },
      cashier.token,
    );
    expect(card.status, JSON.stringify(card.body)).toBe(201);
    const session = (await t.get<Json>('/api/v1/sessions/current', cashier.token)).body.id as string;
    const printZ = async () => {
      const printed = nextDocument();
      const job = await t.post(
        '/api/v1/printing/print-jobs',
        { document_type: 'report', reference_id: session },
        cashier.token,
      );
      expect(job.status).toBe(201);
      return printed;
    };

    // Open: the X-report. Each tender per currency (with its base at the rate), the expected cash per currency.
    const x = await printZ();
    const xFigures = (await t.get<Json>(`/api/v1/sessions/${session}/z-report`, cashier.token)).body;
    expect(xFigures.tenders_by_currency).toEqual([
      { currency_code: 'USD', method: 'cash', rate: '1', count: 0, amount: '-0.70', base_amount: '-0.70' },
      { currency_code: 'EUR', method: 'card', rate: '1.25', count: 1, amount: '5.00', base_amount: '6.25' },
      { currency_code: 'EUR', method: 'cash', rate: '1.25', count: 1, amount: '10.00', base_amount: '12.50' },
    ]);
    expect(x).toContain('Tenders by currency');
    for (const tender of xFigures.tenders_by_currency as Json[]) {
      const label = `${tender.method === 'cash' ? 'Cash' : 'Card'} ${tender.currency_code}`;
      const rate = tender.currency_code === 'USD' ? '' : ` @${tender.rate}`;
      const at = x.findIndex((l) => row(`${label}${rate} (${tender.count})`, tender.amount).test(l));
      expect(at, `${label} ${tender.amount}`).toBeGreaterThanOrEqual(0);
      if (tender.currency_code !== 'USD') expect(x[at + 1]).toMatch(row('  = USD', tender.base_amount));
    }
    for (const cash of xFigures.cash_by_currency as Json[]) {
      const rate = cash.currency_code === 'USD' ? '' : ` @${cash.rate}`;
      expect(x).toContainEqual(
        expect.stringMatching(row(`Expected cash ${cash.currency_code}${rate}`, cash.expected)),
      );
    }
    expect(x.join('\n')).not.toMatch(/Counted cash EUR/);

    // Closed one euro short: the Z prints expected, counted and variance per currency, each with its base.
    const closed = await t.post<Json>(
      '/api/v1/sessions/close',
      {
        counted_by_currency: [
          { currency_code: 'USD', amount: 49.3 },
          { currency_code: 'EUR', amount: 9 },
        ],
      },
      cashier.token,
    );
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const z = await printZ();
    const figures = (await t.get<Json>(`/api/v1/sessions/${session}/z-report`, cashier.token)).body;
    expect(figures.counted_by_currency).toHaveLength(2);
    const line = (label: string, amount: string, base?: string) => {
      const at = z.findIndex((l) => row(label, amount).test(l));
      expect(at, `${label} ${amount}`).toBeGreaterThanOrEqual(0);
      if (base) expect(z[at + 1]).toMatch(row('  = USD', base));
    };
    for (const c of figures.counted_by_currency as Json[]) {
      const foreign = c.currency_code !== 'USD';
      const rate = foreign ? ` @${c.rate}` : '';
      line(`Expected cash ${c.currency_code}${rate}`, c.expected, foreign ? c.expected_base : undefined);
      line(`Counted cash ${c.currency_code}`, c.counted, foreign ? c.counted_base : undefined);
      line(`Variance ${c.currency_code}`, c.variance, foreign ? c.variance_base : undefined);
    }
    expect(z).toContainEqual(expect.stringMatching(row('Counted cash EUR', '9.00')));
    expect(z).toContainEqual(expect.stringMatching(row('  = USD', '-1.25')));
    line('Expected cash', figures.expected_cash);
    line('Counted cash', figures.counted_cash);
    line('Variance', figures.variance);
    expect(z).toContain('Tenders by currency');
    expect(z).toContainEqual(expect.stringMatching(/^Z REPORT #\d+$/));
  });
});

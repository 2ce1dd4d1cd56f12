import { decodeEscPos, startVirtualPrinter, type VirtualPrinter } from '@pharmacy/hardware/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@pharmacy/sync/testing';
import { startTestServer, type TestServer } from '../../testing/harness';
import { addStock, makeMedicineId, openSessionFor } from '../../testing/factory';
import { SYSTEM } from '../audit/service';
import { createUser } from '../users/service';

let t: TestServer;
let printer: VirtualPrinter;
let cashier: { token: string };
let admin: string;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
  printer = await startVirtualPrinter();
  await t.put('/api/v1/settings', { printer_extra_ports: [printer.port] }, admin);
  const created = await t.post(
    '/api/v1/printing/printers',
    {
      name: 'Counter 1',
      transport: 'tcp',
      address: printer.address,
      paper_width_mm: 80,
      open_drawer: true,
      is_default: true,
    },
    admin,
  );
  expect(created.status).toBe(201);
  cashier = await t.userWithRole('cashier');
  await openSessionFor(t, cashier.token, 50);
});
afterAll(async () => {
  await t.close();
  await printer.close();
});

const textOf = (bytes: Buffer) => decodeEscPos(bytes).lines.join('\n');

/** The next connection that carried a document (the worker asks the printer's status on its own connection first). */
async function nextDocument(): Promise<Buffer> {
  for (;;) {
    const bytes = await printer.nextJob();
    if (bytes.length > 16) return bytes;
  }
}

describe('documents printed from selling', () => {
  it('prints the receipt of a cash sale on the default printer after the sale commits, with the drawer kick', async () => {
    const medicine = await makeMedicineId(t, { price: 12.5, name: 'Amoxicillin 500mg' });
    await addStock(t, medicine, 20);
    const job = nextDocument();
    const started = performance.now();
    const sale = await t.post<{ invoice_number: string; total_amount: string; id: string }>(
      '/api/v1/sales',
      { items: [{ medicine_id: medicine, quantity: 2 }], payment_lines: [{ method: 'cash', amount: 30 }] },
      cashier.token,
    );
    expect(sale.status).toBe(201);
    const bytes = await job;
    console.log(
      `sale response -> receipt bytes at the TCP printer: ${Math.round(performance.now() - started)} ms`,
    );
    const text = textOf(bytes);
    expect(text).toContain(sale.body.invoice_number);
    expect(text).toContain('Amoxicillin 500mg');
    expect(text).toContain(sale.body.total_amount);
    const commands = decodeEscPos(bytes).commands.map((c) => c.type);
    expect(commands).toContain('drawer');
    expect(commands.at(-1)).toBe('cut');
  });

  it('does not enqueue when the sale asks not to print', async () => {
    const medicine = await makeMedicineId(t, { price: 3 });
    await addStock(t, medicine, 5);
    const before = await t.count('print_jobs');
    const sale = await t.post(
      '/api/v1/sales',
      {
        items: [{ medicine_id: medicine, quantity: 1 }],
        payment_lines: [{ method: 'card', amount: 3 }],
        print_receipt: false,
      },
      cashier.token,
    );
    expect(sale.status).toBe(201);
    expect(await t.count('print_jobs')).toBe(before);
  });

  it('prints a credit note and the Z-report through print jobs', async () => {
    const medicine = await makeMedicineId(t, { price: 8, name: 'Ibuprofen 400mg' });
    await addStock(t, medicine, 5);
    const sale = await t.post<{ id: string; invoice_number: string; items?: unknown }>(
      '/api/v1/sales',
      {
        items: [{ medicine_id: medicine, quantity: 2 }],
        payment_lines: [{ method: 'cash', amount: 16 }],
        print_receipt: false,
      },
      cashier.token,
    );
    const detail = await t.get<{ items: Array<{ id: string }> }>(
      `/api/v1/sales/${sale.body.id}`,
      cashier.token,
    );
    const ret = await t.post<{ id: string; credit_note_number: string }>(
      '/api/v1/returns',
      {
        sale_id: sale.body.id,
        lines: [{ sale_line_id: detail.body.items[0]!.id, quantity: 1 }],
        refund_method: 'cash',
      },
      cashier.token,
    );
    expect(ret.status).toBe(201);
    let job = nextDocument();
    expect(
      (
        await t.post(
          '/api/v1/printing/print-jobs',
          { document_type: 'credit_note', reference_id: ret.body.id },
          cashier.token,
        )
      ).status,
    ).toBe(201);
    const credit = textOf(await job);
    expect(credit).toContain(ret.body.credit_note_number);
    expect(credit).toContain(sale.body.invoice_number);

    const current = await t.get<{ id: string }>('/api/v1/sessions/current', cashier.token);
    job = nextDocument();
    expect(
      (
        await t.post(
          '/api/v1/printing/print-jobs',
          { document_type: 'report', reference_id: current.body.id },
          cashier.token,
        )
      ).status,
    ).toBe(201);
    const z = textOf(await job);
    expect(z).toMatch(/cash/i);
  });

  it('never prints another branch’s document on this branch’s printer', async () => {
    const north = await t.createBranch('PRN');
    const other = await t.userWithRole('cashier', north);
    await openSessionFor(t, other.token, 10);
    const medicine = await makeMedicineId(t, { price: 4 });
    await addStock(t, medicine, 3, { branchId: north });
    const sale = await t.post<{ id: string }>(
      '/api/v1/sales',
      { items: [{ medicine_id: medicine, quantity: 1 }], payment_lines: [{ method: 'card', amount: 4 }] },
      other.token,
    );
    const job = await t.post<{ id: string }>(
      '/api/v1/printing/print-jobs',
      { document_type: 'receipt', reference_id: sale.body.id },
      cashier.token,
    );
    expect(job.status).toBe(201);
    let status = '';
    await eventually(
      () => `the receipt job to fail (last seen: ${status})`,
      async () => {
        status = String(
          (await t.get(`/api/v1/printing/print-jobs/${job.body.id}`, cashier.token)).body.status,
        );
        return status === 'failed';
      },
      5_000,
      50,
    );
  });
});

describe('a till that replicates to central', () => {
  it('refuses to sell until its first sync has loaded head office data', async () => {
    const till = await startTestServer({
      mode: 'till',
      centralUrl: 'http://127.0.0.1:9',
      syncDeviceId: '01900000-0000-7000-8000-00000000d001',
      syncDeviceToken: 'x'.repeat(43),
      syncBackoffMaxMs: 60_000,
    });
    try {
      const medicine = await makeMedicineId(till, { price: 2 });
      await addStock(till, medicine, 2);
      // People reach a replicating till from head office with a password they chose there (a till changes a
      // password at head office, which this one cannot reach): the pulled row, as central sends it.
      const email = 'pharmacist.offline@test.local';
      // Written as a pull writes it: a connected till's POST /users is made at head office, unreachable here.
      await createUser(
        till.context,
        null,
        SYSTEM,
        {
          email,
          password: 'Chosen#2026-rx',
          full_name: 'Pia Pharmacist',
          phone: '',
          role: 'pharmacist',
          branch_id: await till.mainBranchId(),
        },
        { mustChangePassword: false },
      );
      const pharmacist = { token: await till.login(email, 'Chosen#2026-rx') };
      await openSessionFor(till, pharmacist.token, 0);
      const before = await till.count('sales');
      const res = await till.post(
        '/api/v1/sales',
        { items: [{ medicine_id: medicine, quantity: 1 }], payment_lines: [{ method: 'cash', amount: 2 }] },
        pharmacist.token,
      );
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('NOT_BOOTSTRAPPED');
      expect(await till.count('sales')).toBe(before);
    } finally {
      await till.close();
    }
  });
});

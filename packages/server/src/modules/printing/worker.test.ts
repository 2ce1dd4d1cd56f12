import { performance } from 'node:perf_hooks';
import {
  CreateMedicineRequest,
  type Printer,
  type PrinterStatusReport,
  type PrintJob,
} from '@pharmacy/contracts';
import { type SaleReceiptInput, buildSaleReceipt } from '@pharmacy/hardware';
import { decodeEscPos, startVirtualPrinter, type VirtualPrinter } from '@pharmacy/hardware/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@pharmacy/sync/testing';
import { NotFound } from '../../lib/errors';
import { startTestServer, type TestServer } from '../../testing/harness';
import { SYSTEM } from '../audit/service';
import { createMedicine } from '../medicines/service';
import { enqueuePrintJob, registerDocumentSource } from './service';
import { printWorkerOf } from './worker';

// The test server's print worker: short backoff and few attempts, so retries and the final `failed` happen
// within the test; long enough (75-150 ms, then 150-300 ms with jitter) that polling sees a retry in between on
// a loaded machine (at 20 and 40 ms the three attempts once fitted between two polls).
const PRINTING = {
  retryBaseMs: 150,
  retryMaxMs: 300,
  maxAttempts: 3,
  pollMs: 100,
  statusTimeoutMs: 400,
  transportTimeoutMs: 1000,
};

const HEALTHY = { online: true, coverOpen: false, paperOut: false, paperNearEnd: false };
const JOBS = '/api/v1/printing/print-jobs';
const PRINTERS = '/api/v1/printing/printers';

let t: TestServer;
let admin: string;
let adminId: string;
let main: string;
const printers: VirtualPrinter[] = [];
const restore: Array<() => void> = [];

/** A test-only receipt source (the selling module registers the real one): reference_id is the invoice number. */
function saleInput(invoice: string, method = 'cash'): SaleReceiptInput {
  return {
    organization_name: 'Green Cross Pharmacy',
    branch_name: 'Main Branch',
    invoice_number: invoice,
    sold_at: '2024-05-01T11:03:00Z',
    currency_code: 'USD',
    subtotal_amount: '10.00',
    vat_amount: '1.50',
    total_amount: '11.50',
    vat_breakdown: [{ rate: '15', taxable_amount: '10.00', vat_amount: '1.50' }],
    payment_lines: [{ method, amount: '20.00' }],
    customer_display_name: 'Jane Customer',
    items: [
      {
        name: 'Paracetamol 500 mg x24',
        quantity: 2,
        unit_price: '5.00',
        line_total: '10.00',
        vat_rate: '15',
      },
    ],
  };
}

/** A virtual printer on a random loopback port, which the organisation allows as an extra printer port. */
async function virtualPrinter(
  options: Parameters<typeof startVirtualPrinter>[0] = {},
): Promise<VirtualPrinter> {
  const vp = await startVirtualPrinter(options);
  printers.push(vp);
  const ports = printers.map((p) => p.port);
  const res = await t.put('/api/v1/settings', { printer_extra_ports: ports }, admin);
  expect(res.status).toBe(200);
  return vp;
}

async function addPrinter(
  name: string,
  address: string,
  extra: Record<string, unknown> = {},
): Promise<Printer> {
  const res = await t.post<Printer>(PRINTERS, { name, transport: 'tcp', address, ...extra }, admin);
  expect(res.status).toBe(201);
  return res.body;
}

const isStatusQuery = (b: Buffer) =>
  b.length > 0 &&
  b.length % 3 === 0 &&
  Array.from({ length: b.length / 3 }, (_, i) => i * 3).every((i) => b[i] === 0x10 && b[i + 1] === 0x04);

/** The next connection that carried a document (the worker's DLE EOT check before printing is its own connection). */
function nextPrint(vp: VirtualPrinter): Promise<{ bytes: Buffer; at: number }> {
  return new Promise((resolve) => {
    const next = () =>
      void vp
        .nextJob()
        .then((bytes) => (isStatusQuery(bytes) ? next() : resolve({ bytes, at: performance.now() })));
    next();
  });
}

async function waitForJob(
  id: string,
  done: (job: PrintJob) => boolean,
  seen?: (job: PrintJob) => void,
): Promise<PrintJob> {
  let job: PrintJob | undefined;
  return eventually(
    () => `job ${id} (stuck: ${JSON.stringify(job)})`,
    async () => {
      job = (await t.get<PrintJob>(`${JOBS}/${id}`, admin)).body;
      seen?.(job);
      return done(job) && job;
    },
    15_000,
    5,
  );
}

beforeAll(async () => {
  t = await startTestServer({ printing: PRINTING });
  admin = await t.adminToken();
  main = await t.mainBranchId();
  adminId = (await t.get<{ id: string }>('/api/v1/auth/me', admin)).body.id;
  restore.push(
    registerDocumentSource('receipt', (_app, job) => {
      if (job.reference_id === 'missing') throw new NotFound('Sale', job.reference_id);
      return buildSaleReceipt(saleInput(job.reference_id, job.reason === 'card' ? 'card' : 'cash'), {
        timeZone: 'UTC',
        qrFormat: 'simple',
      });
    }),
  );
});

afterAll(async () => {
  for (const undo of restore) undo();
  await t.close();
  await Promise.all(printers.map((p) => p.close()));
});

describe('print worker with a real TCP printer', () => {
  let vp: VirtualPrinter;
  let printer: Printer;

  beforeAll(async () => {
    vp = await virtualPrinter();
    printer = await addPrinter('Counter', vp.address, { is_default: true, open_drawer: true });
  });

  it('prints a queued job: decoded text, drawer kick for cash, cut last, job completed', async () => {
    const printed = nextPrint(vp);
    const started = performance.now();
    const res = await t.post<PrintJob>(
      JOBS,
      { document_type: 'receipt', reference_id: 'INV-100', printer_id: printer.id },
      admin,
    );
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('queued');
    const { bytes, at } = await printed;
    const decoded = decodeEscPos(bytes);
    const text = decoded.lines.join('\n');
    expect(text).toContain('Green Cross Pharmacy');
    expect(text).toContain('INV-100');
    expect(text).toContain('Paracetamol 500 mg x24');
    expect(text).toContain('11.50');
    expect(text).toContain('Jane Customer');
    const types = decoded.commands.map((c) => c.type);
    expect(types.at(-1)).toBe('cut');
    expect(types.filter((c) => c === 'cut')).toHaveLength(1);
    expect(types).toContain('drawer');
    expect(types.lastIndexOf('drawer')).toBeLessThan(types.lastIndexOf('cut'));

    const job = await waitForJob(res.body.id, (j) => j.status === 'completed');
    expect(job).toMatchObject({ attempts: 1, last_error: null, next_attempt_at: null });
    expect(job.printed_at).not.toBeNull();
    console.log(`POST /print-jobs -> bytes at the printer: ${(at - started).toFixed(1)} ms`);
  });

  it('reaches the printer soon after the enqueueing transaction commits (latency printed)', async () => {
    const latencies: number[] = [];
    for (let i = 0; i < 10; i++) {
      const printed = nextPrint(vp);
      let committed = 0;
      await t.context.db.transaction().execute(async (trx) => {
        await enqueuePrintJob(trx, {
          branchId: main,
          documentType: 'receipt',
          referenceId: `INV-2${i}`,
          createdBy: adminId,
          reason: 'card',
        });
      });
      committed = performance.now();
      const { bytes, at } = await printed;
      expect(decodeEscPos(bytes).lines.join('\n')).toContain(`INV-2${i}`);
      latencies.push(at - committed);
    }
    latencies.sort((a, b) => a - b);
    const median = latencies[Math.floor(latencies.length / 2)]!;
    console.log(
      `enqueuePrintJob commit -> bytes at the TCP printer: median ${median.toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms (target < 100 ms)`,
    );
  });

  it('does not open the drawer for a card sale, and prints every copy with one drawer kick at most', async () => {
    const card = nextPrint(vp);
    await t.post(JOBS, { document_type: 'receipt', reference_id: 'INV-CARD', reason: 'card' }, admin);
    expect(decodeEscPos((await card).bytes).commands.some((c) => c.type === 'drawer')).toBe(false);

    const copies = nextPrint(vp);
    const res = await t.post<PrintJob>(
      JOBS,
      { document_type: 'receipt', reference_id: 'INV-3X', copies: 3 },
      admin,
    );
    const decoded = decodeEscPos((await copies).bytes);
    expect(decoded.commands.filter((c) => c.type === 'cut')).toHaveLength(3);
    expect(decoded.commands.filter((c) => c.type === 'drawer')).toHaveLength(1);
    expect(decoded.lines.filter((l) => l.includes('INV-3X')).length).toBe(3);
    await waitForJob(res.body.id, (j) => j.status === 'completed');

    const reprint = nextPrint(vp);
    const again = await t.post<PrintJob>(`${JOBS}/${res.body.id}/reprint`, {}, admin);
    expect(again.status).toBe(201);
    const reprinted = decodeEscPos((await reprint).bytes);
    expect(reprinted.commands.some((c) => c.type === 'drawer')).toBe(false);
    expect(reprinted.lines.join('\n')).toContain('INV-3X');
    expect((await waitForJob(again.body.id, (j) => j.status === 'completed')).reprint_of).toBe(res.body.id);
  });

  it('reports READY from a printer that answers DLE EOT', async () => {
    const res = await t.get<PrinterStatusReport>(`${PRINTERS}/${printer.id}/status`, admin);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      reachable: true,
      state: 'READY',
      status: { online: true, cover_open: false, paper_out: false, paper_near_end: false },
      error: null,
    });
  });

  it('fails a job whose document does not exist at once, without retrying', async () => {
    const res = await t.post<PrintJob>(JOBS, { document_type: 'receipt', reference_id: 'missing' }, admin);
    const job = await waitForJob(res.body.id, (j) => j.status === 'failed');
    expect(job.attempts).toBe(1);
    expect(job.last_error).toMatch(/^DOCUMENT_UNAVAILABLE: Sale missing was not found/);
  });
});

describe('print worker when the printer is not there', () => {
  it('retries an unreachable printer with backoff and fails after the last attempt; the request never waited', async () => {
    const gone = await virtualPrinter();
    const address = gone.address;
    await gone.close();
    const printer = await addPrinter('Unplugged', address);

    const started = performance.now();
    const res = await t.post<PrintJob>(
      JOBS,
      { document_type: 'receipt', reference_id: 'INV-OFF', printer_id: printer.id },
      admin,
    );
    const answered = performance.now() - started;
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'queued', attempts: 0, last_error: null });

    const attemptsSeen = new Set<number>();
    const job = await waitForJob(
      res.body.id,
      (j) => j.status === 'failed',
      (j) => attemptsSeen.add(j.attempts),
    );
    expect(job.attempts).toBe(3);
    expect(job.last_error).toMatch(/^OFFLINE: /);
    expect(job.next_attempt_at).toBeNull();
    expect(job.printed_at).toBeNull();
    expect(Math.max(...attemptsSeen)).toBe(3);
    expect(attemptsSeen.size).toBeGreaterThan(1);
    console.log(`POST /print-jobs to an unplugged printer answered in ${answered.toFixed(1)} ms`);

    const status = await t.get<PrinterStatusReport>(`${PRINTERS}/${printer.id}/status`, admin);
    expect(status.body).toMatchObject({ reachable: false, state: 'OFFLINE', status: null });
    expect(status.body.error?.code).toBe('OFFLINE');
  });

  it('reports paper out as such, prints nothing, and prints once paper is back', async () => {
    const vp = await virtualPrinter({ status: { ...HEALTHY, paperOut: true } });
    const printer = await addPrinter('No paper', vp.address);
    const status = await t.get<PrinterStatusReport>(`${PRINTERS}/${printer.id}/status`, admin);
    expect(status.body).toMatchObject({ reachable: true, state: 'PAPER_OUT', status: { paper_out: true } });

    const res = await t.post<PrintJob>(
      JOBS,
      { document_type: 'receipt', reference_id: 'INV-PAPER', printer_id: printer.id },
      admin,
    );
    const job = await waitForJob(res.body.id, (j) => j.status === 'failed');
    expect(job.attempts).toBe(3);
    expect(job.last_error).toMatch(/^PAPER_OUT: /);
    expect(vp.jobs.every(isStatusQuery)).toBe(true);

    vp.responder.status = HEALTHY;
    const printed = nextPrint(vp);
    const again = await t.post<PrintJob>(`${JOBS}/${res.body.id}/reprint`, {}, admin);
    expect(decodeEscPos((await printed).bytes).lines.join('\n')).toContain('INV-PAPER');
    await waitForJob(again.body.id, (j) => j.status === 'completed');
  });

  it('never hangs on a status check: a silent printer, a missing device file, an absent USB printer', async () => {
    const silent = await virtualPrinter({ stalled: true });
    const cases: Array<[Printer, string]> = [
      [await addPrinter('Silent', silent.address), 'NO_STATUS'],
      [
        (
          await t.post<Printer>(
            PRINTERS,
            { name: 'Lp9', transport: 'device', address: '/dev/usb/lp97' },
            admin,
          )
        ).body,
        'NOT_FOUND',
      ],
    ];
    for (const [printer, state] of cases) {
      const res = await t.get<PrinterStatusReport>(`${PRINTERS}/${printer.id}/status`, admin);
      expect(res.status).toBe(200);
      expect(res.body.state).toBe(state);
      expect(res.body.status).toBeNull();
      expect(res.body.elapsed_ms).toBeLessThan(5_000);
    }
    const usb = (
      await t.post<Printer>(PRINTERS, { name: 'USB absent', transport: 'usb', address: 'ffff:fffe' }, admin)
    ).body;
    const res = await t.get<PrinterStatusReport>(`${PRINTERS}/${usb.id}/status`, admin);
    expect(res.status).toBe(200);
    expect(res.body.reachable).toBe(false);
    expect(res.body.error).not.toBeNull();
  });

  it('fails with NO_PRINTER when neither the job nor the branch names a printer', async () => {
    const branch = await t.createBranch('NOPRN');
    const res = await t.post<PrintJob>(
      JOBS,
      { document_type: 'receipt', reference_id: 'INV-NP', branch_id: branch },
      admin,
    );
    const job = await waitForJob(res.body.id, (j) => j.status === 'failed');
    expect(job.attempts).toBe(3);
    expect(job.last_error).toMatch(/^NO_PRINTER: /);
  });
});

describe('documents', () => {
  it('prints a shelf label for a catalogue medicine', async () => {
    const vp = await virtualPrinter();
    const branch = await t.createBranch('LABEL');
    const printer = await addPrinter('Labels', vp.address, { branch_id: branch, paper_width_mm: 58 });
    const medicine = await createMedicine(
      t.context,
      SYSTEM,
      CreateMedicineRequest.parse({
        name: 'Ibuprofen',
        strength: '400 mg',
        form: 'tablets',
        selling_price: 6.2,
        barcode: '4006381333931',
      }),
    );
    const printed = nextPrint(vp);
    const res = await t.post<PrintJob>(
      JOBS,
      { document_type: 'label', reference_id: medicine.id, printer_id: printer.id, branch_id: branch },
      admin,
    );
    expect(res.status).toBe(201);
    const decoded = decodeEscPos((await printed).bytes);
    const text = decoded.lines.join('\n');
    expect(text).toContain('Ibuprofen');
    expect(text).toContain('6.20');
    expect(decoded.commands.some((c) => c.type === 'barcode')).toBe(true);
    expect(decoded.commands.at(-1)?.type).toBe('cut');
    await waitForJob(res.body.id, (j) => j.status === 'completed');

    const missing = await t.post<PrintJob>(
      JOBS,
      { document_type: 'label', reference_id: 'no-such-medicine', printer_id: printer.id, branch_id: branch },
      admin,
    );
    const failed = await waitForJob(missing.body.id, (j) => j.status === 'failed');
    expect(failed).toMatchObject({ attempts: 1 });
    expect(failed.last_error).toMatch(/^DOCUMENT_UNAVAILABLE: /);
  });

  it("applies the branch's default receipt template", async () => {
    const vp = await virtualPrinter();
    const branch = await t.createBranch('TPL');
    await addPrinter('Templated', vp.address, { branch_id: branch, is_default: true });
    const tpl = await t.post(
      '/api/v1/printing/receipt-templates',
      {
        name: 'Plain',
        branch_id: branch,
        footer: 'Thank you from the template',
        show_customer: false,
        show_qr: false,
        is_default: true,
      },
      admin,
    );
    expect(tpl.status).toBe(201);
    const printed = nextPrint(vp);
    await t.post(JOBS, { document_type: 'receipt', reference_id: 'INV-TPL', branch_id: branch }, admin);
    const decoded = decodeEscPos((await printed).bytes);
    const text = decoded.lines.join('\n');
    expect(text).toContain('INV-TPL');
    expect(text).toContain('Thank you from the template');
    expect(text).not.toContain('Jane Customer');
    expect(decoded.commands.some((c) => c.type === 'qr')).toBe(false);
  });
});

describe("the print worker's settings come from its server's configuration", () => {
  it('runs with the settings its server was started with', () => {
    expect(printWorkerOf(t.context)?.options).toEqual({ worker: true, ...PRINTING });
  });

  it('a server with invalid settings or PRINT_WORKER off starts without a worker; jobs stay queued', async () => {
    for (const printing of [{ pollMs: 5 }, { worker: 'off' }]) {
      const other = await startTestServer({ printing });
      try {
        expect(other.context.config.printing.ok).toBe(printing.pollMs === undefined);
        expect(printWorkerOf(other.context)).toBeUndefined();
        const token = await other.adminToken();
        const res = await other.post<PrintJob>(
          JOBS,
          { document_type: 'receipt', reference_id: 'INV-Q' },
          token,
        );
        expect(res.status).toBe(201);
        expect(res.body).toMatchObject({ status: 'queued', attempts: 0 });
      } finally {
        await other.close();
      }
    }
  });
});

import net from 'node:net';
import type { Printer, PrinterActionResult, PrintJob } from '@pharmacy/contracts';
import { buildSaleReceipt } from '@pharmacy/hardware';
import { decodeEscPos } from '@pharmacy/hardware/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@pharmacy/sync/testing';
import { startTestServer, type TestServer } from '../../testing/harness';
import type { PrintingInput } from '../../printing-config';
import { registerDocumentSource } from './service';
import type { DocumentSource } from './sources';

/**
 * Test print and Open drawer go through the print worker's lane of their printer, like receipts: a real TCP
 * printer that is slow to answer the worker's status check (DLE EOT) holds a receipt in flight while they are
 * asked for, and every document still arrives whole, one connection after the other, in the order asked.
 * The test servers' print worker polls often, and its status read waits out the slow answers.
 */
const PRINTING: PrintingInput = { pollMs: 100, statusTimeoutMs: 3000 };

const isStatusOnly = (b: Buffer) => b.length % 3 === 0 && b.length > 0 && b[0] === 0x10 && b[1] === 0x04;

interface Connection {
  id: number;
  bytes: Buffer;
}

/** A printer that logs every connection's open and close in one sequence and answers DLE EOT after a delay. */
async function slowStatusPrinter(statusDelayMs: () => number) {
  const log: Array<{ id: number; event: 'open' | 'close' }> = [];
  const closed: Connection[] = [];
  const statusAsked: Array<() => void> = [];
  let next = 0;
  const server = net.createServer((socket) => {
    const id = ++next;
    const chunks: Buffer[] = [];
    log.push({ id, event: 'open' });
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (isStatusOnly(chunk)) {
        for (const seen of statusAsked.splice(0)) seen();
        const reply = Buffer.alloc(chunk.length / 3, 0x12);
        setTimeout(() => socket.writable && socket.write(reply), statusDelayMs());
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      log.push({ id, event: 'close' });
      closed.push({ id, bytes: Buffer.concat(chunks) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    log,
    closed,
    statusQuery: () => new Promise<void>((resolve) => statusAsked.push(resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const textOf = (b: Buffer) => decodeEscPos(b).lines.join('\n');

/** A test server with the slow printer as its branch's default printer (Counter). */
interface Lane {
  t: TestServer;
  admin: string;
  counter: Printer;
}

let lane: Lane;
let printer: Awaited<ReturnType<typeof slowStatusPrinter>>;
let statusDelay = 500;
const servers: TestServer[] = [];
const undoSources: Array<() => void> = [];

/** The receipt of a job: a sale that exists only here. */
const laneReceipt: DocumentSource = (_app, job) =>
  buildSaleReceipt(
    {
      organization_name: 'Lane Pharmacy',
      invoice_number: job.reference_id,
      sold_at: '2024-05-01T11:03:00Z',
      currency_code: 'USD',
      subtotal_amount: '10.00',
      vat_amount: '0.00',
      total_amount: '10.00',
      vat_breakdown: [],
      payment_lines: [{ method: 'card', amount: '10.00' }],
      items: [
        { name: 'Ibuprofen 200 mg', quantity: 1, unit_price: '10.00', line_total: '10.00', vat_rate: '0' },
      ],
    },
    { timeZone: 'UTC', qrFormat: 'simple' },
  );

async function laneServer(printing: PrintingInput): Promise<Lane> {
  const t = await startTestServer({ printing });
  servers.push(t);
  const admin = await t.adminToken();
  await t.put('/api/v1/settings', { printer_extra_ports: [printer.port] }, admin);
  const res = await t.post<Printer>(
    '/api/v1/printing/printers',
    { name: 'Counter', transport: 'tcp', address: `127.0.0.1:${printer.port}`, is_default: true },
    admin,
  );
  expect(res.status).toBe(201);
  // Last: a server's start and the first answer checked in a test process register every area's own
  // document sources (process-wide), the sales area's receipt among them.
  undoSources.push(registerDocumentSource('receipt', laneReceipt));
  return { t, admin, counter: res.body };
}

beforeAll(async () => {
  printer = await slowStatusPrinter(() => statusDelay);
  lane = await laneServer(PRINTING);
});

afterAll(async () => {
  for (const undo of undoSources.reverse()) undo();
  for (const t of servers) await t.close();
  await printer.close();
});

async function waitForJob({ t, admin }: Lane, id: string, status: PrintJob['status']): Promise<PrintJob> {
  let job: PrintJob | undefined;
  return eventually(
    () => `job ${id} to be ${status} (stuck: ${JSON.stringify(job)})`,
    async () => {
      job = (await t.get<PrintJob>(`/api/v1/printing/print-jobs/${id}`, admin)).body;
      return job.status === status && job;
    },
    15_000,
    10,
  );
}

describe('test print and drawer kick on the print lane', () => {
  it('wait for the receipt in flight, then print whole, one connection after the other', async () => {
    const { t, admin, counter } = lane;
    statusDelay = 500;
    const asked = printer.statusQuery();
    const queued = await t.post<PrintJob>(
      '/api/v1/printing/print-jobs',
      { document_type: 'receipt', reference_id: 'INV-LANE-1', printer_id: counter.id },
      admin,
    );
    expect(queued.status).toBe(201);
    await asked; // the worker holds the receipt: it is waiting for the printer's status answer
    const [test, drawer] = await Promise.all([
      t.post<PrinterActionResult>(`/api/v1/printing/printers/${counter.id}/test`, {}, admin),
      new Promise((resolve) => setTimeout(resolve, 50)).then(() =>
        t.post<PrinterActionResult>(`/api/v1/printing/printers/${counter.id}/drawer`, {}, admin),
      ),
    ]);
    expect(test.body).toMatchObject({ outcome: 'printed', error: null });
    expect(drawer.body).toMatchObject({ outcome: 'printed', error: null });
    await waitForJob(lane, queued.body.id, 'completed');

    const documents = printer.closed.filter((c) => !isStatusOnly(c.bytes));
    expect(documents).toHaveLength(3);
    const [receipt, page, kick] = documents as [Connection, Connection, Connection];
    // In the order asked: the receipt the worker held first, then the test page, then the drawer kick.
    expect(textOf(receipt.bytes)).toContain('INV-LANE-1');
    expect(textOf(receipt.bytes)).not.toContain('TEST PAGE');
    expect(textOf(page.bytes)).toContain('TEST PAGE');
    expect(textOf(page.bytes)).not.toContain('INV-LANE-1');
    expect([...kick.bytes.subarray(0, 2)]).toEqual([0x1b, 0x70]);
    expect(test.body.bytes_written).toBe(page.bytes.length);
    // Whole blocks: each document's connection closed before the next one opened.
    for (const [before, after] of [
      [receipt, page],
      [page, kick],
    ] as const) {
      const closedAt = printer.log.findIndex((e) => e.id === before.id && e.event === 'close');
      const openedAt = printer.log.findIndex((e) => e.id === after.id && e.event === 'open');
      expect(closedAt).toBeGreaterThanOrEqual(0);
      expect(openedAt).toBeGreaterThan(closedAt);
    }
  });

  it('gives up without sending when the printer stays busy past the wait (BUSY)', async () => {
    // A server of its own whose print timeout is short: the set-up action waits three print timeouts, 900 ms,
    // while the worker holds the lane for the printer's 1.8 s status answer.
    const busy = await laneServer({ ...PRINTING, transportTimeoutMs: 300 });
    const { t, admin, counter } = busy;
    statusDelay = 1_800;
    const before = printer.closed.length;
    const asked = printer.statusQuery();
    const queued = await t.post<PrintJob>(
      '/api/v1/printing/print-jobs',
      { document_type: 'receipt', reference_id: 'INV-LANE-2', printer_id: counter.id },
      admin,
    );
    await asked;
    const drawer = await t.post<PrinterActionResult>(
      `/api/v1/printing/printers/${counter.id}/drawer`,
      {},
      admin,
    );
    expect(drawer.body).toMatchObject({ outcome: 'failed', bytes_written: 0, error: { code: 'BUSY' } });
    await waitForJob(busy, queued.body.id, 'completed');
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The drawer never opens late: only the status check and the receipt reached the printer.
    const after = printer.closed.slice(before).filter((c) => !isStatusOnly(c.bytes));
    expect(after.map((c) => textOf(c.bytes).includes('INV-LANE-2'))).toEqual([true]);
  });
});

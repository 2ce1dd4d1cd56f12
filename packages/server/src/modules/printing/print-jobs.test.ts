import type { Printer, PrintJob } from '@pharmacy/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@pharmacy/sync/testing';
import { startTestServer, type TestServer } from '../../testing/harness';

let t: TestServer;
let admin: string;
let main: string;
let other: string;
let mainPrinter: Printer;
let otherPrinter: Printer;

const JOBS = '/api/v1/printing/print-jobs';
const valid = (extra: Record<string, unknown> = {}) => ({
  document_type: 'receipt',
  reference_id: 'SALE-1',
  status: 'completed',
  ...extra,
});

beforeAll(async () => {
  // Jobs here are only recorded; the worker's behaviour is tested in worker.test.ts.
  t = await startTestServer();
  admin = await t.adminToken();
  main = await t.mainBranchId();
  other = await t.createBranch('JOB2');
  const p1 = await t.post<Printer>(
    '/api/v1/printing/printers',
    { name: 'Main', transport: 'tcp', address: '10.0.0.1:9100' },
    admin,
  );
  const p2 = await t.post<Printer>(
    '/api/v1/printing/printers',
    { name: 'Other', transport: 'tcp', address: '10.0.0.2:9100', branch_id: other },
    admin,
  );
  mainPrinter = p1.body;
  otherPrinter = p2.body;
});
afterAll(() => t.close());

describe('POST /printing/print-jobs', () => {
  it("creates a job with the caller's branch, copies 1 and the caller as creator", async () => {
    const pharmacist = await t.userWithRole('pharmacist');
    const res = await t.post<PrintJob>(
      JOBS,
      {
        document_type: 'invoice',
        reference_id: 'SALE-7',
        printer_id: mainPrinter.id,
        reason: 'customer asked',
      },
      pharmacist.token,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      branch_id: main,
      printer_id: mainPrinter.id,
      document_type: 'invoice',
      reference_id: 'SALE-7',
      copies: 1,
      status: 'queued',
      reason: 'customer asked',
      created_by: pharmacist.id,
      attempts: 0,
      last_error: null,
      printed_at: null,
      reprint_of: null,
    });
    expect(typeof res.body.created_at).toBe('string');
  });

  it('stores every status as given; the legacy printed reads back as completed', async () => {
    for (const status of ['queued', 'printing', 'completed', 'failed', 'cancelled'] as const) {
      const res = await t.post<PrintJob>(JOBS, valid({ status, printer_id: null }), admin);
      expect(res.status).toBe(201);
      expect(res.body.status).toBe(status);
    }
    const legacy = await t.post<PrintJob>(
      JOBS,
      valid({ status: 'printed', reference_id: 'LEGACY-1', copies: 20 }),
      admin,
    );
    expect(legacy.status).toBe(201);
    expect(legacy.body.status).toBe('completed');
    expect(legacy.body.copies).toBe(20);
    expect(legacy.body.printed_at).not.toBeNull();
    const read = await t.get<PrintJob>(`${JOBS}/${legacy.body.id}`, admin);
    expect(read.body.status).toBe('completed');
    const listed = await t.get<{ items: PrintJob[] }>(`${JOBS}?status=printed&reference_id=LEGACY-1`, admin);
    expect(listed.body.items.map((j) => j.id)).toEqual([legacy.body.id]);
  });

  it.each([
    ['empty reference_id', valid({ reference_id: '' })],
    ['blank reference_id', valid({ reference_id: '   ' })],
    ['missing reference_id', { document_type: 'receipt' }],
    ['reference_id not a string', valid({ reference_id: 42 })],
    ['invalid document type', valid({ document_type: 'poster' })],
    ['credit note spelled with a space', valid({ document_type: 'credit note' })],
    ['missing document type', { reference_id: 'X' }],
    ['invalid status', valid({ status: 'done' })],
    ['status in capitals', valid({ status: 'QUEUED' })],
    ['copies 0', valid({ copies: 0 })],
    ['copies 21', valid({ copies: 21 })],
    ['copies 1.5', valid({ copies: 1.5 })],
    ['copies negative', valid({ copies: -1 })],
    ['copies as a string', valid({ copies: '2' })],
    ['printer_id not a string', valid({ printer_id: 7 })],
    ['printer of another branch', valid({ printer_id: 'OTHER' })],
  ])('refuses %s with 400 and writes nothing', async (_label, body) => {
    const b = body as Record<string, unknown>;
    if (b.printer_id === 'OTHER') b.printer_id = otherPrinter.id;
    const before = await t.count('print_jobs');
    const res = await t.post<{ code: string; detail: string }>(JOBS, b, admin);
    expect(res.status).toBe(400);
    expect(res.body.detail).toBeTruthy();
    expect(await t.count('print_jobs')).toBe(before);
  });

  it("answers 404 for an unknown printer and 403 for a branch outside the caller's ownership", async () => {
    const cashier = await t.userWithRole('cashier');
    const before = await t.count('print_jobs');
    const unknown = await t.post<{ code: string }>(
      JOBS,
      valid({ printer_id: '0190a0a0-0000-7000-8000-000000000000' }),
      cashier.token,
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('NOT_FOUND');
    const foreign = await t.post<{ code: string }>(JOBS, valid({ branch_id: other }), cashier.token);
    expect(foreign.status).toBe(403);
    const foreignPrinter = await t.post(
      JOBS,
      valid({ branch_id: other, printer_id: otherPrinter.id }),
      cashier.token,
    );
    expect(foreignPrinter.status).toBe(403);
    expect((await t.post(JOBS, valid())).status).toBe(401);
    expect(await t.count('print_jobs')).toBe(before);
  });

  it("lets an organisation-wide role print for any branch, with that branch's printer", async () => {
    const inventory = await t.userWithRole('inventory_manager');
    const res = await t.post<PrintJob>(
      JOBS,
      valid({ branch_id: other, printer_id: otherPrinter.id }),
      inventory.token,
    );
    expect(res.status).toBe(201);
    expect(res.body.branch_id).toBe(other);
    expect((await t.post(JOBS, valid({ branch_id: other, printer_id: mainPrinter.id }), admin)).status).toBe(
      400,
    );
  });
});

describe('reading, reprinting and cancelling jobs', () => {
  it("scopes reads to the caller's branch", async () => {
    const job = await t.post<PrintJob>(
      JOBS,
      valid({ branch_id: other, printer_id: otherPrinter.id, reference_id: 'B2' }),
      admin,
    );
    const cashier = await t.userWithRole('cashier');
    expect((await t.get(`${JOBS}/${job.body.id}`, cashier.token)).status).toBe(403);
    const list = await t.get<{ items: PrintJob[] }>(`${JOBS}?branch_id=${other}`, cashier.token);
    expect(list.body.items.length).toBeGreaterThan(0);
    expect(list.body.items.every((j) => j.branch_id === main)).toBe(true);
    expect((await t.get(`${JOBS}/0190a0a0-0000-7000-8000-000000000000`, admin)).status).toBe(404);
    expect((await t.get(`${JOBS}?status=nope`, admin)).status).toBe(400);
  });

  it('reprints a document as a new queued job', async () => {
    const cashier = await t.userWithRole('cashier');
    const original = await t.post<PrintJob>(
      JOBS,
      valid({ printer_id: mainPrinter.id, reference_id: 'SALE-R' }),
      cashier.token,
    );
    const before = await t.count('print_jobs');
    const again = await t.post<PrintJob>(
      `${JOBS}/${original.body.id}/reprint`,
      { reason: 'customer copy' },
      cashier.token,
    );
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({
      reference_id: 'SALE-R',
      document_type: 'receipt',
      printer_id: mainPrinter.id,
      reprint_of: original.body.id,
      reason: 'customer copy',
      copies: 1,
      created_by: cashier.id,
    });
    expect(['queued', 'printing', 'failed'].includes(again.body.status)).toBe(true);
    expect(await t.count('print_jobs')).toBe(before + 1);
    expect((await t.post(`${JOBS}/${original.body.id}/reprint`, { copies: 0 }, cashier.token)).status).toBe(
      400,
    );
    expect(
      (await t.post(`${JOBS}/0190a0a0-0000-7000-8000-000000000000/reprint`, {}, cashier.token)).status,
    ).toBe(404);
    expect(await t.count('print_jobs')).toBe(before + 1);
  });

  it('L5: the auditor reads print jobs but cannot create, reprint or cancel one, and writes nothing', async () => {
    const auditor = await t.userWithRole('auditor');
    const queued = await t.post<PrintJob>(
      JOBS,
      valid({ status: 'queued', branch_id: other, reference_id: 'L5' }),
      admin,
    );
    expect(queued.status).toBe(201);
    const before = await t.counts(['print_jobs', 'audit_log']);
    for (const [url, body] of [
      [JOBS, valid()],
      [`${JOBS}/${queued.body.id}/reprint`, {}],
      [`${JOBS}/${queued.body.id}/cancel`, {}],
    ] as const) {
      const res = await t.post(url, body, auditor.token);
      expect(res.status, url).toBe(403);
    }
    expect(await t.counts(['print_jobs', 'audit_log'])).toEqual(before);
    expect((await t.get(`${JOBS}/${queued.body.id}`, auditor.token)).status).toBe(200);
  });

  it('cancels only a queued job', async () => {
    const done = await t.post<PrintJob>(JOBS, valid(), admin);
    const refused = await t.post<{ code: string }>(`${JOBS}/${done.body.id}/cancel`, {}, admin);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('NOT_CANCELLABLE');

    // No printer and no default printer in this branch: the worker's first attempt fails (NO_PRINTER) and the
    // job waits in the queue for its retry (default backoff: at least a second).
    const waiting = await t.post<PrintJob>(
      JOBS,
      valid({ status: 'queued', branch_id: other, reference_id: 'WAIT' }),
      admin,
    );
    const job = await eventually(
      'the first attempt to fail and the job to wait for its retry',
      async () => {
        const seen = (await t.get<PrintJob>(`${JOBS}/${waiting.body.id}`, admin)).body;
        return seen.attempts >= 1 && seen.status === 'queued' && seen;
      },
      2_000,
      10,
    );
    expect(job.last_error).toMatch(/^NO_PRINTER: /);
    const cancelled = await t.post<PrintJob>(`${JOBS}/${job.id}/cancel`, {}, admin);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    expect((await t.post(`${JOBS}/${job.id}/cancel`, {}, admin)).status).toBe(409);
  });
});

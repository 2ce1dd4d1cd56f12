import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Printer, PrinterStatusReport, PrintJob } from '@pharmacy/contracts';
import {
  decodeEscPos,
  PTY_DEVICE_ALLOW,
  type PtyPair,
  SOCAT,
  startPtyPair,
  startVirtualPrinter,
} from '@pharmacy/hardware/testing';
import { SerialPort } from 'serialport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@pharmacy/sync/testing';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { makeMedicine } from '../../testing/factory';
import { startTestServer, type TestServer } from '../../testing/harness';
import type { PrintersTable } from '../../db/tables/printing';

const PRINTERS = '/api/v1/printing/printers';
const JOBS = '/api/v1/printing/print-jobs';
const SETTINGS = '/api/v1/settings';
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

type Problem = { code: string; detail: string; errors?: Array<{ path: string; message: string }> };

let t: TestServer;
let admin: string;
let manager: string;
let medicineId: string;
let dbFile: string;
let scratch: string;

/** The descriptor number under which this process holds pharmacy.db open (readlink opens nothing). */
function databaseFd(): number {
  const fd = fs
    .readdirSync('/proc/self/fd')
    .find((n) => fs.readlinkSync(`/proc/self/fd/${n}`, { encoding: 'utf8' }) === dbFile);
  if (fd === undefined) throw new Error('pharmacy.db is not open in this process');
  return Number(fd);
}

/**
 * The database file's first bytes and its integrity check, read by another process: opening and closing a
 * descriptor of pharmacy.db here would drop the server connection's locks (docs/CONVENTIONS.md).
 */
function databaseFromOutside(): { header: Buffer; check: string } {
  const header = execFileSync('head', ['-c', '16', dbFile]);
  const script = `const Db = require('better-sqlite3'); const db = new Db(process.argv[1], { readonly: true });
    process.stdout.write(String(db.pragma('quick_check', { simple: true }))); db.close();`;
  const check = execFileSync(process.execPath, ['-e', script, dbFile], { cwd: import.meta.dirname });
  return { header, check: check.toString() };
}

async function waitForJob(id: string): Promise<PrintJob> {
  let job: PrintJob | undefined;
  return eventually(
    () => `job ${id} to finish (stuck: ${JSON.stringify(job)})`,
    async () => {
      job = (await t.get<PrintJob>(`${JOBS}/${id}`, admin)).body;
      return (job.status === 'failed' || job.status === 'completed') && job;
    },
    10_000,
    20,
  );
}

/** A printer row as an older install may hold it: written straight to the table, past the API's checks. */
async function legacyPrinter(transport: PrintersTable['transport'], address: string): Promise<string> {
  const at = nowIso();
  const id = newId();
  await t.context.db
    .insertInto('printers')
    .values({
      id,
      branch_id: await t.mainBranchId(),
      name: `Legacy ${id.slice(-6)}`,
      transport,
      address,
      baud_rate: transport === 'serial' ? 9600 : null,
      paper_width_mm: 80,
      command_set: 'epson',
      code_page: null,
      language: null,
      open_drawer: 0,
      is_default: 0,
      is_active: 1,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}

async function printLabelOn(printerId: string, token = admin): Promise<PrintJob> {
  const res = await t.post<PrintJob>(
    JOBS,
    { printer_id: printerId, document_type: 'label', reference_id: medicineId },
    token,
  );
  expect(res.status).toBe(201);
  return waitForJob(res.body.id);
}

function expectAddressRefused(res: { status: number; body: Problem }): void {
  expect(res.status).toBe(400);
  expect(res.body.code).toBe('VALIDATION');
  expect(res.body.errors?.map((e) => e.path)).toContain('address');
}

beforeAll(async () => {
  // A till by nature: these tests guard the till's own SQLite file (pharmacy.db, its descriptor) from printers.
  t = await startTestServer({ mode: 'till' });
  admin = await t.adminToken();
  manager = (await t.userWithRole('branch_manager')).token;
  dbFile = path.join(t.dataDir, 'pharmacy.db');
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'printer-addr-'));
  medicineId = (
    await makeMedicine(t, {
      name: 'Ibuprofen',
      strength: '400 mg',
      selling_price: 6.2,
      barcode: '4006381333931',
    })
  ).id;
});

afterAll(async () => {
  await t.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe('C1: a device or serial printer address names a printer device node', () => {
  const attacks = () => {
    const link = path.join(scratch, `lp-${newId()}`);
    fs.symlinkSync(dbFile, link);
    return [
      `/dev/fd/${databaseFd()}`,
      `/proc/self/fd/${databaseFd()}`,
      '/dev/stderr',
      '/dev/stdout',
      '/dev/null',
      link,
      '/dev/shm/x',
      dbFile,
      '/tmp/printer',
      '/dev/usb/../fd/3',
    ];
  };

  it('C1: refuses the database descriptor, streams, /dev/null, a symlink to the database, /dev/shm and paths outside /dev (400 naming address)', async () => {
    const before = await t.count('printers');
    for (const address of attacks()) {
      for (const transport of ['device', 'serial']) {
        const res = await t.post<Problem>(PRINTERS, { name: 'P', transport, address }, manager);
        expectAddressRefused(res);
      }
    }
    expect(await t.count('printers')).toBe(before);
    expect(databaseFromOutside().header.equals(SQLITE_HEADER)).toBe(true);
  });

  it('C1: refuses the same addresses on update, and keeps accepting printer device nodes', async () => {
    const lp = await t.post<Printer>(
      PRINTERS,
      { name: 'Lp0', transport: 'device', address: '/dev/usb/lp0' },
      manager,
    );
    expect(lp.status).toBe(201);
    for (const address of attacks()) {
      expectAddressRefused(await t.put<Problem>(`${PRINTERS}/${lp.body.id}`, { address }, manager));
    }
    const serial = await t.put<Printer>(
      `${PRINTERS}/${lp.body.id}`,
      { transport: 'serial', address: '/dev/serial/by-id/usb-Prolific_USB-Serial-if00-port0' },
      manager,
    );
    expect(serial.status).toBe(200);
    const lpt = await t.post<Printer>(
      PRINTERS,
      { name: 'Lp1', transport: 'device', address: '/dev/lp1' },
      admin,
    );
    expect(lpt.status).toBe(201);
  });

  it('C1: a printer row that already points at the database fails its job with a reason and writes nothing', async () => {
    const link = path.join(scratch, 'lp-legacy');
    fs.symlinkSync(dbFile, link);
    for (const [transport, address] of [
      ['device', `/dev/fd/${databaseFd()}`],
      ['device', link],
      ['device', '/dev/stderr'],
      ['device', '/dev/null'],
      ['serial', `/dev/fd/${databaseFd()}`],
    ] as const) {
      const printerId = await legacyPrinter(transport, address);
      const job = await printLabelOn(printerId);
      expect(job.status).toBe('failed');
      expect(job.attempts).toBe(1);
      expect(job.last_error).toMatch(/^INVALID_CONFIG: Refusing device /);
      const status = await t.get<PrinterStatusReport>(`${PRINTERS}/${printerId}/status`, admin);
      expect(status.body).toMatchObject({ reachable: false, state: 'INVALID_CONFIG' });
    }
    const outside = databaseFromOutside();
    expect(outside.header.equals(SQLITE_HEADER)).toBe(true);
    expect(outside.check).toBe('ok');
    expect((await t.get('/health')).status).toBe(200);
  });
});

describe.skipIf(!fs.existsSync(SOCAT))('C1: a pty is a printer only when the operator allows it', () => {
  let pty: PtyPair;
  beforeAll(async () => {
    pty = await startPtyPair();
  });
  afterAll(async () => {
    await pty.stop();
  });

  it('C1: refuses a pty through the API by default', async () => {
    const res = await t.post<Problem>(
      PRINTERS,
      { name: 'Pty', transport: 'device', address: pty.ttyA },
      admin,
    );
    expectAddressRefused(res);
  });

  it('prints to a pty on a till started with PRINTER_DEVICE_ALLOW=/dev/pts/*', async () => {
    const till = await startTestServer({ printerDeviceAllow: PTY_DEVICE_ALLOW.join(',') });
    const peer = new SerialPort({ path: pty.ttyB, baudRate: 9600 });
    try {
      await new Promise<void>((resolve, reject) => peer.on('open', resolve).on('error', reject));
      const chunks: Buffer[] = [];
      peer.on('data', (chunk: Buffer) => chunks.push(chunk));
      const token = await till.adminToken();
      const printer = await till.post<Printer>(
        PRINTERS,
        { name: 'Pty', transport: 'device', address: pty.ttyA },
        token,
      );
      expect(printer.status).toBe(201);
      const viaLink = await till.post<Problem>(
        PRINTERS,
        { name: 'Pty link', transport: 'device', address: pty.a },
        token,
      );
      expectAddressRefused(viaLink);
      const medicine = await makeMedicine(till, {
        name: 'Plaster',
        selling_price: 2.4,
        barcode: '4000000000006',
      });
      const job = await till.post<PrintJob>(
        JOBS,
        { printer_id: printer.body.id, document_type: 'label', reference_id: medicine.id },
        token,
      );
      await eventually(
        'the label on the pty',
        () => decodeEscPos(Buffer.concat(chunks)).lines.join('\n').includes('Plaster'),
        4_000,
        20,
      );
      const done = await till.get<PrintJob>(`${JOBS}/${job.body.id}`, token);
      expect(['printing', 'completed']).toContain(done.body.status);
    } finally {
      await new Promise<void>((resolve) => peer.close(() => resolve()));
      await till.close();
    }
  });
});

describe('L6: a tcp printer is on a printer port and never link-local or metadata', () => {
  it.each([
    '169.254.169.254:9100',
    '169.254.170.2:80',
    '[fe80::1]:9100',
    '[fd00:ec2::254]:9100',
    '100.100.100.200:9100',
    'metadata.google.internal:9100',
    '2852039166:9100',
    '0xa9fea9fe:9100',
    // Issue 26 L6: the IPv4-compatible, mapped and NAT64 spellings of the metadata address.
    '[::a9fe:a9fe]:9100',
    '[::169.254.169.254]:9100',
    '[::ffff:a9fe:a9fe]:9100',
    '[64:ff9b::a9fe:a9fe]:9100',
    '192.168.1.50:22',
    '127.0.0.1:8000',
    '10.0.0.5:6379',
  ])('L6: refuses %s with 400 naming address', async (address) => {
    const before = await t.count('printers');
    expectAddressRefused(
      await t.post<Problem>(PRINTERS, { name: 'Net', transport: 'tcp', address }, manager),
    );
    expect(await t.count('printers')).toBe(before);
  });

  it('L6: accepts the shop LAN and this machine on printer ports', async () => {
    for (const [i, address] of [
      '[::1]:9100',
      '192.168.1.50:9100',
      '10.0.0.5:9109',
      '172.16.0.9:515',
      '127.0.0.1:631',
      '[::1]:9100',
      'printer.local:9100',
    ].entries()) {
      const res = await t.post<Printer>(PRINTERS, { name: `Net ${i}`, transport: 'tcp', address }, manager);
      expect(res.status).toBe(201);
    }
  });

  it('L6: printer_extra_ports lets an administrator allow more ports (1-65535, at most 20, no repeats)', async () => {
    for (const bad of [
      [0],
      [65_536],
      [1.5],
      ['9100'],
      [22, 22],
      Array.from({ length: 21 }, (_, i) => 2000 + i),
    ]) {
      const res = await t.put<Problem>(SETTINGS, { printer_extra_ports: bad }, admin);
      expect(res.status).toBe(400);
    }
    expect((await t.put(SETTINGS, { printer_extra_ports: [22] }, manager)).status).toBe(403);
    const put = await t.put<{ printer_extra_ports: number[] }>(
      SETTINGS,
      { printer_extra_ports: [2222] },
      admin,
    );
    expect(put.status).toBe(200);
    expect(put.body.printer_extra_ports).toEqual([2222]);
    const res = await t.post<Printer>(
      PRINTERS,
      { name: 'Odd port', transport: 'tcp', address: '192.168.1.60:2222' },
      manager,
    );
    expect(res.status).toBe(201);
    expectAddressRefused(
      await t.post<Problem>(
        PRINTERS,
        { name: 'Meta', transport: 'tcp', address: '169.254.169.254:2222' },
        admin,
      ),
    );
    expect((await t.put(SETTINGS, { printer_extra_ports: [] }, admin)).status).toBe(200);
  });

  it('L6: a stored printer on a metadata address or a non-printer port fails at connect time, and nothing is sent', async () => {
    const listener = await startVirtualPrinter();
    try {
      for (const address of ['169.254.169.254:9100', '[fe80::1]:9100', listener.address]) {
        const printerId = await legacyPrinter('tcp', address);
        const job = await printLabelOn(printerId);
        expect(job.status).toBe('failed');
        expect(job.attempts).toBe(1);
        expect(job.last_error).toMatch(/^INVALID_CONFIG: Refusing printer /);
        const status = await t.get<PrinterStatusReport>(`${PRINTERS}/${printerId}/status`, admin);
        expect(status.body).toMatchObject({ reachable: false, state: 'INVALID_CONFIG' });
      }
      expect(listener.jobs).toHaveLength(0);
    } finally {
      await listener.close();
    }
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Printer, PrinterDevices, ReceiptTemplate } from '@pharmacy/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';

let t: TestServer;
let admin: string;
let main: string;
let other: string;

const URL = '/api/v1/printing/printers';
const tcp = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  transport: 'tcp',
  address: '192.168.1.50:9100',
  ...extra,
});

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
  main = await t.mainBranchId();
  other = await t.createBranch('PRN2');
});
afterAll(() => t.close());

async function listOf(token: string, query = ''): Promise<Printer[]> {
  const res = await t.get<{ items: Printer[] }>(`${URL}${query}`, token);
  expect(res.status).toBe(200);
  return res.body.items;
}

describe('printers: create and validation per transport', () => {
  it("creates a tcp printer with defaults for the caller's branch", async () => {
    const res = await t.post<Printer>(URL, tcp('Counter 1'), admin);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      branch_id: main,
      name: 'Counter 1',
      transport: 'tcp',
      address: '192.168.1.50:9100',
      baud_rate: null,
      paper_width_mm: 80,
      command_set: 'epson',
      code_page: null,
      language: null,
      open_drawer: false,
      is_default: false,
      is_active: true,
    });
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('accepts a valid address for every transport', async () => {
    const serial = await t.post<Printer>(
      URL,
      { name: 'Serial', transport: 'serial', address: '/dev/ttyUSB0' },
      admin,
    );
    expect(serial.status).toBe(201);
    expect(serial.body.baud_rate).toBe(9600);
    const com = await t.post<Printer>(
      URL,
      { name: 'COM', transport: 'serial', address: 'COM3', baud_rate: 115200, paper_width_mm: 58 },
      admin,
    );
    expect(com.status).toBe(201);
    expect(com.body).toMatchObject({ baud_rate: 115200, paper_width_mm: 58 });
    const device = await t.post<Printer>(
      URL,
      { name: 'Lp0', transport: 'device', address: '/dev/usb/lp0' },
      admin,
    );
    expect(device.status).toBe(201);
    const usb = await t.post<Printer>(
      URL,
      {
        name: 'USB',
        transport: 'usb',
        address: '04B8:0E15',
        command_set: 'star',
        code_page: 'PC852_LATIN2',
        language: 'pl-PL',
      },
      admin,
    );
    expect(usb.status).toBe(201);
    expect(usb.body).toMatchObject({
      address: '04b8:0e15',
      command_set: 'star',
      code_page: 'PC852_LATIN2',
      language: 'pl-PL',
    });
  });

  it.each([
    ['tcp without port', tcp('X', { address: '192.168.1.50' })],
    ['tcp port out of range', tcp('X', { address: 'printer.local:99999' })],
    ['tcp with a path', tcp('X', { address: 'http://printer:9100/x' })],
    ['serial not under /dev', { name: 'X', transport: 'serial', address: 'ttyUSB0' }],
    ['device path traversal', { name: 'X', transport: 'device', address: '/dev/../etc/passwd' }],
    ['device not under /dev', { name: 'X', transport: 'device', address: '/tmp/printer' }],
    ['usb not hex', { name: 'X', transport: 'usb', address: '4b8:202' }],
    ['usb as a path', { name: 'X', transport: 'usb', address: '/dev/usb/lp0' }],
    ['baud rate on tcp', tcp('X', { baud_rate: 9600 })],
    ['odd baud rate', { name: 'X', transport: 'serial', address: '/dev/ttyS0', baud_rate: 12345 }],
    ['paper 57', tcp('X', { paper_width_mm: 57 })],
    ['command set', tcp('X', { command_set: 'citizen' })],
    ['unknown code page', tcp('X', { code_page: 'PC999_NOPE' })],
    ['M4: a code page named like an Object method', tcp('X', { code_page: 'constructor' })],
    ['M4: __proto__ as code page', tcp('X', { code_page: '__proto__' })],
    ['language', tcp('X', { language: 'English!' })],
    ['unknown transport', { name: 'X', transport: 'bluetooth', address: 'aa:bb' }],
    ['empty name', tcp('  ')],
    ['missing address', { name: 'X', transport: 'tcp' }],
    ['open_drawer not boolean', tcp('X', { open_drawer: 'yes' })],
    ['SQL in the address', tcp('X', { address: "x'; DROP TABLE printers; --:9100" })],
  ])('refuses %s with 400 and writes nothing', async (_label, body) => {
    const before = await t.count('printers');
    const res = await t.post<{ code: string; detail: string; errors?: unknown[] }>(URL, body, admin);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION');
    expect(res.body.detail).toBeTruthy();
    expect(await t.count('printers')).toBe(before);
  });

  it('answers 404 for an unknown branch and 409 for a duplicate active name', async () => {
    const before = await t.count('printers');
    expect(
      (await t.post(URL, tcp('Nowhere', { branch_id: '0190a0a0-0000-7000-8000-000000000000' }), admin))
        .status,
    ).toBe(404);
    expect((await t.post(URL, tcp('counter 1'), admin)).status).toBe(409);
    expect(await t.count('printers')).toBe(before);
  });
});

describe('printers: one default per branch', () => {
  it('setting a default clears the others of the same branch only', async () => {
    const a = await t.post<Printer>(URL, tcp('Default A', { is_default: true }), admin);
    const b = await t.post<Printer>(URL, tcp('Default B', { is_default: true }), admin);
    const o = await t.post<Printer>(URL, tcp('Other default', { is_default: true, branch_id: other }), admin);
    expect([a.status, b.status, o.status]).toEqual([201, 201, 201]);
    const defaults = (await listOf(admin)).filter((p) => p.is_default);
    expect(defaults.map((p) => p.name).sort()).toEqual(['Default B', 'Other default']);

    const put = await t.put<Printer>(`${URL}/${a.body.id}`, { is_default: true }, admin);
    expect(put.status).toBe(200);
    const mainDefaults = (await listOf(admin, `?branch_id=${main}`)).filter((p) => p.is_default);
    expect(mainDefaults.map((p) => p.id)).toEqual([a.body.id]);
  });

  it('an inactive printer cannot be the default; deactivating the default clears it', async () => {
    const before = await t.count('printers');
    const bad = await t.post(URL, tcp('Inactive default', { is_default: true, is_active: false }), admin);
    expect(bad.status).toBe(400);
    expect(await t.count('printers')).toBe(before);

    const p = await t.post<Printer>(URL, tcp('Soon inactive', { is_default: true, branch_id: other }), admin);
    const off = await t.put<Printer>(`${URL}/${p.body.id}`, { is_active: false }, admin);
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ is_active: false, is_default: false });
    expect((await t.put(`${URL}/${p.body.id}`, { is_default: true }, admin)).status).toBe(400);
  });
});

describe('printers: update', () => {
  it('checks the merged printer: a new transport needs a fitting address', async () => {
    const p = await t.post<Printer>(URL, tcp('Switcher'), admin);
    expect((await t.put(`${URL}/${p.body.id}`, { transport: 'usb' }, admin)).status).toBe(400);
    const usb = await t.put<Printer>(
      `${URL}/${p.body.id}`,
      { transport: 'usb', address: '0416:5011' },
      admin,
    );
    expect(usb.status).toBe(200);
    expect(usb.body).toMatchObject({ transport: 'usb', address: '0416:5011', baud_rate: null });
    const serial = await t.put<Printer>(
      `${URL}/${p.body.id}`,
      { transport: 'serial', address: '/dev/ttyS1' },
      admin,
    );
    expect(serial.body.baud_rate).toBe(9600);
    expect(
      (await t.put(`${URL}/${p.body.id}`, { transport: 'tcp', address: 'p:9100', baud_rate: 9600 }, admin))
        .status,
    ).toBe(400);
    const back = await t.put<Printer>(`${URL}/${p.body.id}`, { transport: 'tcp', address: 'p:9100' }, admin);
    expect(back.body.baud_rate).toBeNull();
  });

  it('refuses an empty body, a branch move, and answers 404 for an unknown printer', async () => {
    const p = await t.post<Printer>(URL, tcp('Fixed'), admin);
    expect((await t.put(`${URL}/${p.body.id}`, {}, admin)).status).toBe(400);
    expect((await t.put(`${URL}/${p.body.id}`, { branch_id: other }, admin)).status).toBe(400);
    expect((await t.put(`${URL}/0190a0a0-0000-7000-8000-000000000000`, { name: 'X' }, admin)).status).toBe(
      404,
    );
    expect((await t.put(`${URL}/not-an-id`, { name: 'X' }, admin)).status).toBe(404);
  });
});

describe('printers: delete', () => {
  it('deletes an unused printer and deactivates one that print jobs reference', async () => {
    const unused = await t.post<Printer>(URL, tcp('Unused'), admin);
    const before = await t.count('printers');
    expect((await t.delete(`${URL}/${unused.body.id}`, admin)).status).toBe(204);
    expect(await t.count('printers')).toBe(before - 1);

    const used = await t.post<Printer>(URL, tcp('Used', { is_default: true }), admin);
    const job = await t.post(
      '/api/v1/printing/print-jobs',
      { printer_id: used.body.id, document_type: 'receipt', reference_id: 'S-1', status: 'completed' },
      admin,
    );
    expect(job.status).toBe(201);
    expect((await t.delete(`${URL}/${used.body.id}`, admin)).status).toBe(204);
    expect(await t.count('printers')).toBe(before);
    const inactive = await listOf(admin, '?is_active=false');
    expect(inactive.find((p) => p.id === used.body.id)).toMatchObject({
      is_active: false,
      is_default: false,
    });
    expect((await t.delete(`${URL}/0190a0a0-0000-7000-8000-000000000000`, admin)).status).toBe(404);
  });
});

describe('printers: roles and branch scoping', () => {
  it('a branch manager manages their own branch only; other roles read', async () => {
    const manager = await t.userWithRole('branch_manager', other);
    const cashier = await t.userWithRole('cashier', other);
    const mainPrinter = await t.post<Printer>(URL, tcp('Main only'), admin);

    const before = await t.count('printers');
    expect((await t.post(URL, tcp('Intruder', { branch_id: main }), manager.token)).status).toBe(403);
    expect((await t.put(`${URL}/${mainPrinter.body.id}`, { name: 'Hijack' }, manager.token)).status).toBe(
      403,
    );
    expect((await t.delete(`${URL}/${mainPrinter.body.id}`, manager.token)).status).toBe(403);
    expect((await t.post(URL, tcp('Cashier printer'), cashier.token)).status).toBe(403);
    expect(await t.count('printers')).toBe(before);

    const own = await t.post<Printer>(URL, tcp('Branch 2 counter'), manager.token);
    expect(own.status).toBe(201);
    expect(own.body.branch_id).toBe(other);
    expect((await t.put(`${URL}/${own.body.id}`, { name: 'Branch 2 front' }, manager.token)).status).toBe(
      200,
    );

    for (const token of [manager.token, cashier.token]) {
      const seen = await listOf(token, `?branch_id=${main}`);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((p) => p.branch_id === other)).toBe(true);
    }
    expect((await t.get(`${URL}/${mainPrinter.body.id}/status`, cashier.token)).status).toBe(403);
    expect((await t.get(URL)).status).toBe(401);
  });
});

describe('device discovery', () => {
  it('answers with lists and never fails, even without udevadm on the PATH', async () => {
    const res = await t.get<PrinterDevices>('/api/v1/printing/devices', admin);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.serial) && Array.isArray(res.body.usb)).toBe(true);

    const emptyBin = fs.mkdtempSync(path.join(os.tmpdir(), 'no-udevadm-'));
    const saved = process.env.PATH;
    process.env.PATH = emptyBin;
    try {
      const bare = await t.get<PrinterDevices>('/api/v1/printing/devices', admin);
      expect(bare.status).toBe(200);
      expect(bare.body.serial).toEqual([]);
      expect(bare.body.warnings.join(' ')).toMatch(/Serial ports could not be listed/);
    } finally {
      process.env.PATH = saved;
      fs.rmSync(emptyBin, { recursive: true, force: true });
    }
  });
});

describe('receipt templates', () => {
  const TPL = '/api/v1/printing/receipt-templates';

  it('creates branch and organisation-wide templates, one default per scope and type', async () => {
    const a = await t.post<ReceiptTemplate>(TPL, { name: 'Main A', footer: 'A', is_default: true }, admin);
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({
      branch_id: main,
      document_type: 'receipt',
      show_vat_breakdown: true,
      show_qr: true,
      is_default: true,
      logo_key: null,
    });
    const b = await t.post<ReceiptTemplate>(TPL, { name: 'Main B', is_default: true, show_qr: false }, admin);
    const org = await t.post<ReceiptTemplate>(TPL, { name: 'Org', branch_id: null, is_default: true }, admin);
    const label = await t.post<ReceiptTemplate>(
      TPL,
      { name: 'Label', document_type: 'label', is_default: true },
      admin,
    );
    expect([b.status, org.status, label.status]).toEqual([201, 201, 201]);
    expect(org.body.branch_id).toBeNull();

    const all = (await t.get<{ items: ReceiptTemplate[] }>(`${TPL}?branch_id=${main}`, admin)).body.items;
    const defaults = all
      .filter((x) => x.is_default)
      .map((x) => x.name)
      .sort();
    expect(defaults).toEqual(['Label', 'Main B', 'Org']);
  });

  it('scopes by branch: a manager cannot create organisation-wide or for another branch', async () => {
    const manager = await t.userWithRole('branch_manager', other);
    const cashier = await t.userWithRole('cashier', other);
    const before = await t.count('receipt_templates');
    expect((await t.post(TPL, { name: 'X', branch_id: null }, manager.token)).status).toBe(403);
    expect((await t.post(TPL, { name: 'X', branch_id: main }, manager.token)).status).toBe(403);
    expect((await t.post(TPL, { name: 'X' }, cashier.token)).status).toBe(403);
    expect((await t.post(TPL, { name: 'X', document_type: 'poster' }, admin)).status).toBe(400);
    expect((await t.post(TPL, { name: '' }, admin)).status).toBe(400);
    expect(await t.count('receipt_templates')).toBe(before);

    expect((await t.post(TPL, { name: 'Branch 2' }, manager.token)).status).toBe(201);
    const seen = (await t.get<{ items: ReceiptTemplate[] }>(`${TPL}?branch_id=${main}`, cashier.token)).body
      .items;
    expect(seen.map((x) => x.name).sort()).toEqual(['Branch 2', 'Org']);
  });
});

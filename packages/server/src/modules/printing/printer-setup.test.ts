import type { Printer, PrinterActionResult, ReceiptTemplate, TemplatePreview } from '@pharmacy/contracts';
import { CODE_PAGE_SAMPLE } from '@pharmacy/hardware';
import { decodeEscPos, startVirtualPrinter, type VirtualPrinter } from '@pharmacy/hardware/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';

let t: TestServer;
let admin: string;
let printer: VirtualPrinter;
let counter: Printer;
let otherBranch: string;

const PRINTERS = '/api/v1/printing/printers';

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
  otherBranch = await t.createBranch('SETUP2');
  printer = await startVirtualPrinter();
  await t.put(
    '/api/v1/settings',
    { printer_extra_ports: [printer.port], organization_name: 'Cedar Pharmacy' },
    admin,
  );
  const res = await t.post<Printer>(
    PRINTERS,
    { name: 'Counter', transport: 'tcp', address: printer.address },
    admin,
  );
  expect(res.status).toBe(201);
  counter = res.body;
});
afterAll(async () => {
  await t.close();
  await printer.close();
});

describe('POST /printing/printers/:id/test', () => {
  it('prints the test page through the ESC/POS renderer and says so', async () => {
    const job = printer.nextJob();
    const res = await t.post<PrinterActionResult>(`${PRINTERS}/${counter.id}/test`, {}, admin);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ printer_id: counter.id, outcome: 'printed', error: null });
    const bytes = await job;
    expect(res.body.bytes_written).toBe(bytes.length);
    expect([...bytes.subarray(0, 2)]).toEqual([0x1b, 0x40]);
    const decoded = decodeEscPos(bytes);
    const text = decoded.lines.join('\n');
    expect(text).toContain('Cedar Pharmacy');
    expect(text).toContain('TEST PAGE');
    expect(text).toContain(CODE_PAGE_SAMPLE.slice(0, 10));
    expect(decoded.commands.map((c) => c.type)).toEqual(expect.arrayContaining(['qr', 'cut']));
  });

  it('reports a printer that is off as failed, with its reason, not as an error', async () => {
    const off = await startVirtualPrinter();
    const port = off.port;
    await off.close();
    await t.put('/api/v1/settings', { printer_extra_ports: [printer.port, port] }, admin);
    const gone = await t.post<Printer>(
      PRINTERS,
      { name: 'Gone', transport: 'tcp', address: `127.0.0.1:${port}` },
      admin,
    );
    const res = await t.post<PrinterActionResult>(`${PRINTERS}/${gone.body.id}/test`, {}, admin);
    expect(res.status).toBe(200);
    expect(res.body.outcome).toBe('failed');
    expect(res.body.error?.code).toBe('OFFLINE');
  });

  it('refuses another branch, unknown printers and cashiers, and audits what it did', async () => {
    const manager = await t.userWithRole('branch_manager', otherBranch);
    expect((await t.post(`${PRINTERS}/${counter.id}/test`, {}, manager.token)).status).toBe(403);
    const cashier = await t.userWithRole('cashier');
    expect((await t.post(`${PRINTERS}/${counter.id}/test`, {}, cashier.token)).status).toBe(403);
    expect((await t.post(`${PRINTERS}/no-such-printer/test`, {}, admin)).status).toBe(404);
    expect((await t.post(`${PRINTERS}/${'x'.repeat(500)}/test`, {}, admin)).status).toBe(400);
    const audit = await t.get<{ items: { action: string }[] }>('/api/v1/audit?entity=printer', admin);
    expect(audit.body.items.map((a) => a.action)).toContain('printer.test_print');
  });
});

describe('POST /printing/printers/:id/drawer', () => {
  it('sends the Epson drawer kick, ESC p', async () => {
    const job = printer.nextJob();
    const res = await t.post<PrinterActionResult>(`${PRINTERS}/${counter.id}/drawer`, {}, admin);
    expect(res.body.outcome).toBe('printed');
    const bytes = await job;
    expect([...bytes.subarray(0, 2)]).toEqual([0x1b, 0x70]);
  });
});

describe('receipt templates: preview and update', () => {
  it('previews header and footer at the paper width, as the worker applies them', async () => {
    const res = await t.post<TemplatePreview>(
      '/api/v1/printing/receipt-templates/preview',
      {
        document_type: 'receipt',
        paper_width_mm: 58,
        header: 'Open 8-22 every day',
        footer: 'Get well soon',
      },
      admin,
    );
    expect(res.status).toBe(200);
    expect(res.body.columns).toBe(32);
    const lines = res.body.text.split('\n');
    expect(lines.every((l) => [...l].length <= 32)).toBe(true);
    expect(res.body.text).toContain('Open 8-22 every day');
    expect(res.body.text).toContain('Get well soon');
    expect(res.body.text).toContain('Cedar Pharmacy');
    expect(res.body.text).toContain('[QR]');
    const noQr = await t.post<TemplatePreview>(
      '/api/v1/printing/receipt-templates/preview',
      { show_qr: false },
      admin,
    );
    expect(noQr.body.columns).toBe(48);
    expect(noQr.body.text).not.toContain('[QR]');
  });

  it('refuses bad preview input with 400 and a cashier with 403', async () => {
    const bad = await t.post('/api/v1/printing/receipt-templates/preview', { paper_width_mm: 70 }, admin);
    expect(bad.status).toBe(400);
    const huge = await t.post(
      '/api/v1/printing/receipt-templates/preview',
      { header: 'x'.repeat(5000) },
      admin,
    );
    expect(huge.status).toBe(400);
    const cashier = await t.userWithRole('cashier');
    expect((await t.post('/api/v1/printing/receipt-templates/preview', {}, cashier.token)).status).toBe(403);
  });

  it('updates a template and keeps one default per type and scope', async () => {
    const a = await t.post<ReceiptTemplate>(
      '/api/v1/printing/receipt-templates',
      { name: 'A', header: 'old', is_default: true },
      admin,
    );
    const b = await t.post<ReceiptTemplate>('/api/v1/printing/receipt-templates', { name: 'B' }, admin);
    const res = await t.put<ReceiptTemplate>(
      `/api/v1/printing/receipt-templates/${b.body.id}`,
      { header: 'new header', is_default: true, show_qr: false },
      admin,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ header: 'new header', is_default: true, show_qr: false, name: 'B' });
    const list = await t.get<{ items: ReceiptTemplate[] }>('/api/v1/printing/receipt-templates', admin);
    expect(list.body.items.find((x) => x.id === a.body.id)?.is_default).toBe(false);
    expect((await t.put(`/api/v1/printing/receipt-templates/${b.body.id}`, {}, admin)).status).toBe(400);
    expect((await t.put('/api/v1/printing/receipt-templates/nope', { name: 'x' }, admin)).status).toBe(404);
    const manager = await t.userWithRole('branch_manager', otherBranch);
    expect(
      (await t.put(`/api/v1/printing/receipt-templates/${b.body.id}`, { name: 'x' }, manager.token)).status,
    ).toBe(403);
  });
});

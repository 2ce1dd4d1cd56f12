import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Printer, PrintJob, ReceiptTemplate } from '@pharmacy/contracts';
import { buildSaleReceipt } from '@pharmacy/hardware';
import { decodeEscPos, startVirtualPrinter, type VirtualPrinter } from '@pharmacy/hardware/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/connection';
import { migrate } from '../../db/migrate';
import { MIGRATIONS } from '../../db/migrations';
import { startTestServer, type TestServer } from '../../testing/harness';
import { effectiveTemplate } from './templates';
import { registerDocumentSource } from './service';

/**
 * Receipt templates per paper width: a printer prints with its width's default template, else the
 * both-widths one (every template saved before widths existed), and one default per scope, type and width.
 */
const TEMPLATES = '/api/v1/printing/receipt-templates';
let t: TestServer;
let admin: string;
let main: string;
const virtual: VirtualPrinter[] = [];
const printers: Record<58 | 80, Printer> = {} as Record<58 | 80, Printer>;
let undoSource: () => void;

const isStatusQuery = (b: Buffer) => b.length % 3 === 0 && b.length > 0 && b[0] === 0x10 && b[1] === 0x04;

beforeAll(async () => {
  // A worker that polls often: the printed receipts are awaited.
  t = await startTestServer({ printing: { pollMs: 100 } });
  admin = await t.adminToken();
  main = await t.mainBranchId();
  virtual.push(await startVirtualPrinter(), await startVirtualPrinter());
  await t.put('/api/v1/settings', { printer_extra_ports: virtual.map((v) => v.port) }, admin);
  for (const [i, width] of [58, 80].entries()) {
    const res = await t.post<Printer>(
      '/api/v1/printing/printers',
      { name: `Paper ${width}`, transport: 'tcp', address: virtual[i]?.address, paper_width_mm: width },
      admin,
    );
    expect(res.status).toBe(201);
    printers[width as 58 | 80] = res.body;
  }
  undoSource = registerDocumentSource('receipt', (_app, job) =>
    buildSaleReceipt(
      {
        organization_name: 'Width Pharmacy',
        invoice_number: job.reference_id,
        sold_at: '2024-05-01T11:03:00Z',
        currency_code: 'USD',
        subtotal_amount: '4.00',
        vat_amount: '0.00',
        total_amount: '4.00',
        vat_breakdown: [],
        payment_lines: [{ method: 'card', amount: '4.00' }],
        items: [{ name: 'Plasters', quantity: 1, unit_price: '4.00', line_total: '4.00', vat_rate: '0' }],
      },
      { timeZone: 'UTC', qrFormat: 'simple' },
    ),
  );
});

afterAll(async () => {
  undoSource();
  await t.close();
  await Promise.all(virtual.map((v) => v.close()));
});

/** Prints a receipt on the printer of that width and returns the printed text. */
async function printedOn(width: 58 | 80, invoice: string): Promise<string> {
  const vp = virtual[width === 58 ? 0 : 1] as VirtualPrinter;
  const bytes = new Promise<Buffer>((resolve) => {
    const next = () => void vp.nextJob().then((b) => (isStatusQuery(b) ? next() : resolve(b)));
    next();
  });
  const res = await t.post<PrintJob>(
    '/api/v1/printing/print-jobs',
    { document_type: 'receipt', reference_id: invoice, printer_id: printers[width].id },
    admin,
  );
  expect(res.status).toBe(201);
  return decodeEscPos(await bytes).lines.join('\n');
}

async function template(body: Record<string, unknown>, token = admin): Promise<ReceiptTemplate> {
  const res = await t.post<ReceiptTemplate>(
    TEMPLATES,
    { document_type: 'receipt', is_default: true, ...body },
    token,
  );
  expect(res.status).toBe(201);
  return res.body;
}

describe('receipt templates per paper width', () => {
  it('prints each printer with its width’s template, the both-widths one where its width has none', async () => {
    const both = await template({ name: 'Both', branch_id: null, footer: 'FOOTER FOR BOTH' });
    expect(both.paper_width_mm).toBeNull();
    expect(await printedOn(58, 'INV-W1')).toContain('FOOTER FOR BOTH');
    expect(await printedOn(80, 'INV-W2')).toContain('FOOTER FOR BOTH');

    const small = await template({
      name: 'Small',
      branch_id: null,
      paper_width_mm: 58,
      footer: 'SMALL ROLL',
    });
    expect(small).toMatchObject({ paper_width_mm: 58, is_default: true });
    const on58 = await printedOn(58, 'INV-W3');
    expect(on58).toContain('SMALL ROLL');
    expect(on58).not.toContain('FOOTER FOR BOTH');
    expect(await printedOn(80, 'INV-W4')).toContain('FOOTER FOR BOTH');

    await template({ name: 'Wide', branch_id: null, paper_width_mm: 80, footer: 'WIDE ROLL' });
    expect(await printedOn(80, 'INV-W5')).toContain('WIDE ROLL');
    expect(await printedOn(58, 'INV-W6')).toContain('SMALL ROLL');

    // Each width keeps its own default: all three are still in use.
    const list = await t.get<{ items: ReceiptTemplate[] }>(`${TEMPLATES}?document_type=receipt`, admin);
    const inUse = list.body.items.filter((x) => x.is_default).map((x) => [x.name, x.paper_width_mm]);
    expect(inUse.sort()).toEqual([
      ['Both', null],
      ['Small', 58],
      ['Wide', 80],
    ]);
  });

  it('keeps one default per scope, type and width, and lets a template change its width', async () => {
    const second = await template({
      name: 'Small 2',
      branch_id: null,
      paper_width_mm: 58,
      footer: 'SMALL TWO',
    });
    let list = (await t.get<{ items: ReceiptTemplate[] }>(`${TEMPLATES}?document_type=receipt`, admin)).body
      .items;
    expect(list.filter((x) => x.is_default && x.paper_width_mm === 58).map((x) => x.id)).toEqual([second.id]);
    expect(list.find((x) => x.name === 'Both')?.is_default).toBe(true);
    expect(list.find((x) => x.name === 'Wide')?.is_default).toBe(true);

    // Moved to both widths, it takes the both-widths default's place and leaves 58 mm to none.
    const moved = await t.put<ReceiptTemplate>(`${TEMPLATES}/${second.id}`, { paper_width_mm: null }, admin);
    expect(moved.body).toMatchObject({ paper_width_mm: null, is_default: true });
    list = (await t.get<{ items: ReceiptTemplate[] }>(`${TEMPLATES}?document_type=receipt`, admin)).body
      .items;
    expect(list.find((x) => x.name === 'Both')?.is_default).toBe(false);
    expect(await printedOn(58, 'INV-W7')).toContain('SMALL TWO');
  });

  it('prefers the branch’s own template, of any width, to the organisation’s', async () => {
    await template({ name: 'Branch both', branch_id: main, footer: 'BRANCH FOOTER' });
    expect(await printedOn(80, 'INV-W8')).toContain('BRANCH FOOTER');
    await template({ name: 'Branch wide', branch_id: main, paper_width_mm: 80, footer: 'BRANCH WIDE' });
    expect(await printedOn(80, 'INV-W9')).toContain('BRANCH WIDE');
    expect(await printedOn(58, 'INV-W10')).toContain('BRANCH FOOTER');
  });

  it('refuses a width that is not 58 or 80, naming the field', async () => {
    for (const bad of [70, '80', 0, -58, 80.5]) {
      const res = await t.post<{ errors: { path: string }[] }>(
        TEMPLATES,
        { name: 'Bad', paper_width_mm: bad },
        admin,
      );
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e) => e.path)).toContain('paper_width_mm');
    }
    const before = await t.count('receipt_templates');
    const any = (await t.get<{ items: ReceiptTemplate[] }>(TEMPLATES, admin)).body.items[0];
    const res = await t.put(`${TEMPLATES}/${any?.id}`, { paper_width_mm: 57 }, admin);
    expect(res.status).toBe(400);
    expect(await t.count('receipt_templates')).toBe(before);
  });
});

describe('migration 0016_template_paper_width', () => {
  it('keeps a template saved before widths existed as the default for both widths', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pharmacy-0016-'));
    const conn = openDatabase(path.join(dir, 'pharmacy.db'));
    try {
      const { '0016_template_paper_width': _, ...before } = MIGRATIONS;
      await migrate(conn, before);
      conn.sqlite
        .prepare(
          `INSERT INTO receipt_templates (id, branch_id, name, document_type, footer, is_default, created_at, updated_at)
           VALUES ('old', NULL, 'Old', 'receipt', 'OLD FOOTER', 1, 'c', 'u')`,
        )
        .run();
      expect((await migrate(conn)).applied).toEqual(['0016_template_paper_width']);
      for (const width of [58, 80]) {
        expect(await effectiveTemplate(conn.db, 'any-branch', 'receipt', width)).toMatchObject({
          id: 'old',
          paper_width_mm: null,
          footer: 'OLD FOOTER',
        });
      }
      const insert = (id: string, width: number | null) =>
        conn.sqlite
          .prepare(
            `INSERT INTO receipt_templates (id, branch_id, name, document_type, paper_width_mm, is_default, created_at, updated_at)
             VALUES (?, NULL, ?, 'receipt', ?, 1, 'c', 'u')`,
          )
          .run(id, id, width);
      insert('small', 58); // a 58 mm default beside the both-widths one
      expect(() => insert('small-2', 58)).toThrow(/UNIQUE/);
      expect(() => insert('both-2', null)).toThrow(/UNIQUE/);
      expect(() => insert('odd', 70)).toThrow(/CHECK/);
    } finally {
      await conn.db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

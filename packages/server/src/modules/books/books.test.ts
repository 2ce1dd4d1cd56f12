import type { BooksComparison, BooksReport, BooksWarnings, DayBook } from '@pharmacy/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStock, makeMedicineId, makeSupplier, openSessionFor } from '../../testing/factory';
import { startTestServer, type TestServer } from '../../testing/harness';
import { localDate } from '@pharmacy/contracts/time';
import { compareBooks } from './compare';
import { dayBook } from './figures';

/**
 * Books (issue 28): one day of a branch as central holds it, computed by the queries a till runs too (on
 * SQLite here, on PostgreSQL in the pg run), and a till's figures compared with it through POST /sync/books.
 */
let t: TestServer;
let admin: string;
let main: string;
let day: string;
let till: { id: string; token: string };
let manager: { id: string; token: string };
const sold: Array<{ id: string; invoice_number: string; total_amount: string }> = [];

beforeAll(async () => {
  t = await startTestServer({ mode: 'central' });
  admin = await t.adminToken();
  main = await t.mainBranchId();
  manager = await t.userWithRole('branch_manager');
  till = await t.registerDevice('Books till');
  const tz = (await t.query<{ timezone: string }>('SELECT timezone FROM branches WHERE id = ?', main))[0]!;
  day = localDate(tz.timezone);
  const medicine = await makeMedicineId(t, { price: 10 });
  await addStock(t, medicine, 100);
  await openSessionFor(t, manager.token);
  for (const quantity of [1, 2]) {
    const res = await t.post<{
      id: string;
      invoice_number: string;
      total_amount: string;
      items: Array<{ id: string }>;
    }>(
      '/api/v1/sales',
      { items: [{ medicine_id: medicine, quantity }], payment_lines: [{ method: 'cash', amount: 100 }] },
      manager.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    sold.push(res.body);
  }
  const supplier = await makeSupplier(t);
  const invoice = await t.post<{ id: string }>(
    '/api/v1/supplier-finance/invoices',
    { supplier_id: supplier.id, total_amount: 100, invoice_no: 'BOOKS-1' },
    admin,
  );
  expect(invoice.status).toBe(201);
  const paid = await t.post(
    `/api/v1/supplier-finance/invoices/${invoice.body.id}/payments`,
    { amount: 40, method: 'cash' },
    admin,
  );
  expect(paid.status, JSON.stringify(paid.body)).toBe(201);
}, 60_000);
afterAll(() => t.close());

const sendBooks = (book: DayBook) =>
  t.request<BooksComparison>('POST', '/api/v1/sync/books', {
    body: { device_id: till.id, book },
    headers: { 'x-device-token': till.token },
  });

describe('books: one day of a branch, counted and summed the same way on every side', () => {
  it("books: central's day holds its sales, fiscal documents and supplier payments, each with the records behind it", async () => {
    const book = await dayBook(t.context, main, day);
    const minor = (amount: string) => Math.round(Number(amount) * 100);
    expect(book.kinds.sales.count).toBe(2);
    expect(book.kinds.sales.total).toBe(sold.reduce((s, x) => s + minor(x.total_amount), 0));
    expect(book.kinds.sales.records.map((r) => r.label).sort()).toEqual(
      sold.map((s) => s.invoice_number).sort(),
    );
    expect(book.kinds.fiscal_documents.count).toBe(2);
    expect(book.kinds.fiscal_documents.records.every((r) => (r.fingerprint ?? '').length > 0)).toBe(true);
    expect(book.kinds.supplier_payments).toMatchObject({ count: 1, total: 4000 });
    expect(book.kinds.supplier_payments.records[0]!.label).toBe('Payment of invoice BOOKS-1');
    expect(book.kinds.returns.count).toBe(0);
    // Another day holds none of them.
    const before = await dayBook(t.context, main, '2001-01-01');
    expect(before.kinds.sales).toEqual({ count: 0, total: 0, records: [] });
  });

  it('books: the same books agree; a sale missing on one side, or held differently, is named', () => {
    const book: DayBook = {
      branch_id: main,
      day,
      kinds: {
        sales: { count: 1, total: 500, records: [{ id: 'a', label: 'MAIN-1-000001', amount: 500 }] },
        returns: { count: 0, total: 0, records: [] },
        customer_payments: { count: 0, total: 0, records: [] },
        supplier_payments: { count: 0, total: 0, records: [] },
        fiscal_documents: {
          count: 1,
          total: 500,
          records: [{ id: 'a', label: 'MAIN-1-000001', amount: 500, fingerprint: 'h1' }],
        },
      },
    };
    expect(compareBooks(book, book).agree).toBe(true);
    const central = structuredClone(book);
    central.kinds.sales = { count: 0, total: 0, records: [] };
    central.kinds.fiscal_documents.records[0]!.fingerprint = 'h2';
    const { agree, kinds } = compareBooks(book, central);
    expect(agree).toBe(false);
    expect(kinds.find((k) => k.kind === 'sales')).toMatchObject({
      missing_at_central: ['MAIN-1-000001'],
      missing_at_till: [],
      till: { count: 1, total: 500 },
      central: { count: 0, total: 0 },
    });
    expect(kinds.find((k) => k.kind === 'fiscal_documents')?.differing).toEqual(['MAIN-1-000001']);
  });

  it("books: a till reporting a sale central lacks is told so, central's Books and dashboard warning name it; the same books clear it", async () => {
    const own = await dayBook(t.context, main, day);
    const extra = { id: 'rejected-sale', label: 'MAIN-3C37-000004', amount: 684 };
    const withExtra = structuredClone(own);
    withExtra.kinds.sales.records.push(extra);
    withExtra.kinds.sales.count += 1;
    withExtra.kinds.sales.total += 684;
    const differs = await sendBooks(withExtra);
    expect(differs.status, JSON.stringify(differs.body)).toBe(200);
    expect(differs.body.agree).toBe(false);
    expect(differs.body.kinds.find((k) => k.kind === 'sales')?.missing_at_central).toEqual([
      'MAIN-3C37-000004',
    ]);

    const report = await t.get<BooksReport>(`/api/v1/books?branch_id=${main}&date=${day}`, manager.token);
    expect(report.status).toBe(200);
    const mine = report.body.comparisons.find((c) => c.device_id === till.id);
    expect(mine).toMatchObject({ reported: true, agree: false, device_name: 'Books till' });
    const warnings = await t.get<BooksWarnings>('/api/v1/books/warnings', manager.token);
    expect(warnings.body.items.map((w) => [w.device_id, w.day])).toContainEqual([till.id, day]);

    const agrees = await sendBooks(own);
    expect(agrees.body.agree).toBe(true);
    expect((await t.get<BooksWarnings>('/api/v1/books/warnings', manager.token)).body.items).toEqual([]);
  });

  it("books: a till may not report another branch's day (403), nor without its credential (401)", async () => {
    const other = await t.createBranch('BOOKSB');
    const book = { ...(await dayBook(t.context, main, day)), branch_id: other };
    expect((await sendBooks(book)).status).toBe(403);
    const anonymous = await t.request('POST', '/api/v1/sync/books', { body: { device_id: till.id, book } });
    expect(anonymous.status).toBe(401);
  });
});

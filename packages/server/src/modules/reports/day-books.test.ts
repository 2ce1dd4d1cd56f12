import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { addStock, makeMedicineId, openSessionFor } from '../../testing/factory';

/**
 * A day at the counter, then its books read back through the API (docs/FIGURES.md): the Z, the VAT report, the
 * dashboard and the sales report equal the sums of what the day did, to the cent. The reads are
 * organisation-wide, so on PostgreSQL central they go through the report summaries (migrations 0019/0020).
 */

// biome-ignore lint/suspicious/noExplicitAny: report bodies are asserted field by field
type Json = Record<string, any>;

let t: TestServer;
let admin: string;
let cashier: { id: string; token: string };
let manager: { id: string; token: string };

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
  cashier = await t.userWithRole('cashier');
  manager = await t.userWithRole('branch_manager');
});
afterAll(() => t.close());

const cents = (s: string | number) => Math.round(Number(s) * 100);
const sum = <T>(rows: readonly T[], f: (r: T) => number) => rows.reduce((a, r) => a + f(r), 0);
/** EUR cents in USD cents at 1.25, rounded half up (the server's rule). */
const eurToUsd = (eur: number) => Math.floor((eur * 125 + 50) / 100);

describe('a day at the counter adds up', () => {
  it('27.3, 27.4, 27.5, 28.5: the Z, the VAT report, the dashboard and the reports equal the sums of the day', async () => {
    const rate = await t.post(
      '/api/v1/currency/rates',
      { from_code: 'EUR', rate: '1.25', effective_at: '2026-01-01T00:00:00Z' },
      admin,
    );
    expect(rate.status).toBe(201);
    // This branch's drawer holds euros: a EUR sale's change is given in EUR (issue 27.4).
    const main = await t.mainBranchId();
    expect((await t.put(`/api/v1/branches/${main}`, { drawer_currencies: ['EUR'] }, admin)).status).toBe(200);
    const std = await makeMedicineId(t, { price: 11.8, name: 'Day standard' });
    const zero = await makeMedicineId(t, { price: 5, name: 'Day zero-rated', vat_category: 'zero' });
    const refunded = await makeMedicineId(t, { price: 2.36, name: 'Day refunded' });
    for (const m of [std, zero, refunded]) await addStock(t, m, 50);
    expect(
      (
        await t.post(
          '/api/v1/coupons',
          { code: 'DAY1', discount_type: 'fixed', discount_value: 1 },
          manager.token,
        )
      ).status,
    ).toBe(201);
    const customer = await t.post<Json>(
      '/api/v1/customers',
      { name: 'Day Customer', credit_limit: 100, is_credit_allowed: true },
      manager.token,
    );
    const session = await openSessionFor(t, cashier.token, 100);

    const sell = async (body: Json) => {
      const res = await t.post<Json>('/api/v1/sales', { print_receipt: false, ...body }, cashier.token);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body;
    };
    const usdCash = await sell({
      items: [{ medicine_id: std, quantity: 2 }],
      payment_lines: [{ method: 'cash', amount: 30 }],
    });
    const eurCash = await sell({
      items: [
        { medicine_id: std, quantity: 1 },
        { medicine_id: zero, quantity: 1 },
      ],
      currency_code: 'EUR',
      payment_lines: [{ method: 'cash', amount: 20 }],
    });
    const coupon = await sell({
      items: [{ medicine_id: zero, quantity: 2 }],
      coupon_code: 'DAY1',
      payment_lines: [{ method: 'card', amount: 9 }],
    });
    const credit = await sell({
      items: [{ medicine_id: std, quantity: 1 }],
      customer_id: customer.body.id,
      payment_lines: [{ method: 'credit', amount: 11.8 }],
    });
    const card = await sell({
      items: [{ medicine_id: refunded, quantity: 1 }],
      payment_lines: [{ method: 'card', amount: 2.36 }],
    });
    const sales = [usdCash, eurCash, coupon, credit, card];
    expect(eurCash).toMatchObject({
      total_amount: '13.44',
      base_total_amount: '16.80',
      change_amount: '6.56',
    });
    expect(coupon.total_amount).toBe('9.00');

    const refund = async (sale: Json, quantity: number) => {
      const line = (sale.items as Json[])[0]!;
      const res = await t.post<Json>(
        '/api/v1/returns',
        { sale_id: sale.id, lines: [{ sale_line_id: line.id, quantity }] },
        cashier.token,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body;
    };
    const returns = [await refund(card, 1), await refund(usdCash, 1)];
    expect(returns.map((r) => r.refund_method)).toEqual(['card', 'cash']);
    const paid = await t.post<Json>(
      `/api/v1/customers/${customer.body.id}/payments`,
      { amount: 5, method: 'cash' },
      cashier.token,
    );
    expect(paid.status).toBe(200);

    // What the day did, in base cents.
    const baseVat = (s: Json) =>
      s.currency_code === 'EUR' ? eurToUsd(cents(s.vat_amount)) : cents(s.vat_amount);
    const gross = sum(sales, (s) => cents(s.base_total_amount));
    const grossVat = sum(sales, baseVat);
    const back = sum(returns, (r) => cents(r.total_amount));
    const backVat = sum(returns, (r) => cents(r.vat_amount));
    const cashIn =
      cents(30) -
      cents(usdCash.change_amount) +
      eurToUsd(cents(20) - cents(eurCash.change_amount)) +
      cents(5) -
      sum(
        returns.filter((r) => r.refund_method === 'cash'),
        (r) => cents(r.total_amount),
      );
    expect(gross).toBe(2360 + 1680 + 900 + 1180 + 236);
    expect(back).toBe(236 + 1180);

    // The Z of the session.
    const x = await t.get<Json>(`/api/v1/sessions/${session}/z-report`, cashier.token);
    expect(cents(x.body.expected_cash)).toBe(cents(100) + cashIn);
    // The close counts each currency the drawer holds, at what the X-report expects of it.
    const expectedIn = (code: string) =>
      sum(
        (x.body.cash_by_currency as Json[]).filter((c) => c.currency_code === code),
        (c) => cents(c.expected),
      ) / 100;
    const close = await t.post<Json>(
      '/api/v1/sessions/close',
      {
        counted_by_currency: [
          { currency_code: 'USD', amount: expectedIn('USD') },
          { currency_code: 'EUR', amount: expectedIn('EUR') },
        ],
      },
      cashier.token,
    );
    expect(close.status, JSON.stringify(close.body)).toBe(200);
    expect(close.body.variance).toBe('0.00');
    const z = (await t.get<Json>(`/api/v1/sessions/${session}/z-report`, cashier.token)).body;
    expect(z.is_final).toBe(true);
    expect(z.sales_count).toBe(5);
    expect(cents(z.gross_sales)).toBe(gross);
    expect(cents(z.net_sales)).toBe(gross - back);
    expect(cents(z.gross_vat)).toBe(grossVat);
    expect(cents(z.vat_total)).toBe(grossVat - backVat);
    expect(sum(z.vat_by_rate, (r: Json) => cents(r.vat_amount))).toBe(grossVat - backVat);
    expect(cents(z.returns.total)).toBe(back);
    expect(z.account_payments).toMatchObject({ count: 1, total: '5.00' });
    expect(cents(z.discounts.coupon)).toBe(100);
    const eur = (z.tenders_by_currency as Json[]).find((l) => l.currency_code === 'EUR');
    expect(eur).toEqual({
      currency_code: 'EUR',
      method: 'cash',
      rate: '1.25',
      count: 1,
      amount: '13.44',
      base_amount: '16.80',
    });
    // every tender line together is the day's net takings plus what was paid on account
    expect(sum(z.tenders_by_currency, (l: Json) => cents(l.base_amount))).toBe(gross - back + cents(5));
    expect(sum(z.cash_by_currency, (c: Json) => cents(c.expected_base))).toBe(cents(z.expected_cash));

    // The VAT report, the dashboard and the sales report: organisation-wide, net of returns.
    const vat = (await t.get<Json>('/api/v1/reports/vat', admin)).body;
    const months = vat.items as Json[];
    expect(sum(months, (m) => cents(m.vat_collected))).toBe(grossVat - backVat);
    expect(sum(months, (m) => cents(m.grand_total))).toBe(gross - back);
    expect(sum(months, (m) => cents(m.returns_total))).toBe(back);
    expect(sum(months, (m) => m.sales_count)).toBe(5);
    for (const m of months) expect(m.taxable_15).toBe(m.taxable_18);
    const dash = (await t.get<Json>('/api/v1/dashboard/summary', admin)).body;
    expect(dash.today_sales_count).toBe(5);
    expect(cents(dash.today_gross_revenue)).toBe(gross);
    expect(cents(dash.today_returns)).toBe(back);
    expect(cents(dash.today_revenue)).toBe(gross - back);
    expect(cents(dash.today_vat)).toBe(grossVat - backVat);
    const report = (await t.get<Json>('/api/v1/reports/sales', admin)).body;
    expect(report.totals).toMatchObject({ sales_count: 5, returns_count: 2 });
    expect(cents(report.totals.gross_revenue)).toBe(gross);
    expect(cents(report.totals.returns_total)).toBe(back);
    expect(cents(report.totals.net_revenue)).toBe(gross - back);
    expect(cents(report.totals.vat)).toBe(grossVat - backVat);
    expect(sum(report.by_payment, (p: Json) => cents(p.total))).toBe(gross - back);
    const gone = (report.top_selling as Json[]).find((m) => m.medicine_id === refunded);
    expect(gone).toMatchObject({ quantity: 0, revenue: '0.00', net_revenue: '0.00', cost: '0.00' });
    expect(sum(report.top_selling, (m: Json) => cents(m.revenue))).toBe(gross - back);
    const comparison = (await t.get<Json>('/api/v1/dashboard/branch-comparison', admin)).body;
    expect(cents(comparison.total_revenue)).toBe(gross - back);
    const sellers = (await t.get<Json>('/api/v1/reports/sales/by-pharmacist', admin)).body;
    expect(sum(sellers.items, (s: Json) => cents(s.revenue))).toBe(gross - back);
  });

  it('27.5: a fully refunded sale leaves 0 revenue, 0 VAT and a 0 top seller on the dashboard and the reports', async () => {
    const branch = await t.createBranch('REF');
    const seller = await t.userWithRole('branch_manager', branch);
    const med = await makeMedicineId(t, { price: 5.9, name: 'Refunded whole' });
    await addStock(t, med, 5, { branchId: branch });
    await openSessionFor(t, seller.token, 0);
    const sale = await t.post<Json>(
      '/api/v1/sales',
      { items: [{ medicine_id: med, quantity: 2 }], payment_lines: [{ method: 'card', amount: 11.8 }] },
      seller.token,
    );
    expect(sale.body.vat_amount).toBe('1.80');
    const line = (sale.body.items as Json[])[0]!;
    const back = await t.post<Json>(
      '/api/v1/returns',
      { sale_id: sale.body.id, lines: [{ sale_line_id: line.id, quantity: 2 }] },
      seller.token,
    );
    expect(back.status).toBe(201);
    const dash = (await t.get<Json>('/api/v1/dashboard/summary', seller.token)).body;
    expect(dash).toMatchObject({
      branch_id: branch,
      today_sales_count: 1,
      today_gross_revenue: '11.80',
      today_returns: '11.80',
      today_revenue: '0.00',
      today_vat: '0.00',
    });
    const report = (await t.get<Json>('/api/v1/reports/sales', seller.token)).body;
    expect(report.totals).toMatchObject({
      gross_revenue: '11.80',
      returns_total: '11.80',
      net_revenue: '0.00',
      gross_vat: '1.80',
      returns_vat: '1.80',
      vat: '0.00',
    });
    expect(report.top_selling).toEqual([
      expect.objectContaining({ medicine_id: med, quantity: 0, revenue: '0.00', net_revenue: '0.00' }),
    ]);
    expect(report.by_payment).toEqual([{ method: 'card', sales_count: 1, refunds: '11.80', total: '0.00' }]);
    const vat = (await t.get<Json>(`/api/v1/reports/vat?branch_id=${branch}`, admin)).body.items[0];
    expect(vat).toMatchObject({
      taxable_18: '0.00',
      taxable_15: '0.00',
      vat_collected: '0.00',
      grand_total: '0.00',
      returns_count: 1,
      returns_total: '11.80',
      returns_vat: '1.80',
    });
    const seller0 = (await t.get<Json>(`/api/v1/reports/sales/by-pharmacist?branch_id=${branch}`, admin))
      .body;
    expect(seller0.items).toEqual([
      expect.objectContaining({ sales_count: 1, revenue: '0.00', vat: '0.00' }),
    ]);
  });
});

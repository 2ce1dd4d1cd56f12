import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { startTestServer, type TestServer } from '../../testing/harness';
import { addStock, makeMedicineId, openSessionFor } from '../../testing/factory';

// biome-ignore lint/suspicious/noExplicitAny: report bodies are asserted field by field
type Json = Record<string, any>;

let t: TestServer;
let admin: string;
let manager: { id: string; token: string };

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
  manager = await t.userWithRole('branch_manager');
});
afterAll(() => t.close());

const cents = (s: string) => Math.round(Number(s) * 100);
const xReport = async (token: string) => {
  const id = (await t.get<Json>('/api/v1/sessions/current', token)).body.id as string;
  const z = await t.get<Json>(`/api/v1/sessions/${id}/z-report`, token);
  expect(z.status).toBe(200);
  return z.body;
};

describe('money taken at the till belongs to an open cash session', () => {
  it('28.5: a branch manager and an admin cannot sell outside an open session of their own on this till', async () => {
    const med = await makeMedicineId(t, { price: 5 });
    await addStock(t, med, 10);
    const body = {
      items: [{ medicine_id: med, quantity: 1 }],
      payment_lines: [{ method: 'cash', amount: 5 }],
    };
    const sales = await t.count('sales');
    for (const token of [manager.token, admin]) {
      const refused = await t.post<Json>('/api/v1/sales', body, token);
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('NO_OPEN_SESSION');
      expect(refused.body.detail).toBe(
        'No cash session of yours is open on this till; open one on the Cash session screen before taking money.',
      );
    }
    expect(await t.count('sales')).toBe(sales);
    const session = await openSessionFor(t, manager.token, 0);
    const sold = await t.post<Json>('/api/v1/sales', body, manager.token);
    expect(sold.status).toBe(201);
    expect(sold.body.session_id).toBe(session);
    expect((await xReport(manager.token)).by_payment).toEqual([{ method: 'cash', count: 1, amount: '5.00' }]);

    // A session the admin opened on another till (replicated to this one) does not take this till's money.
    const admin0 = await t.get<Json>('/api/v1/auth/me', admin);
    const at = nowIso();
    await t.context.db
      .insertInto('cash_sessions')
      .values({
        id: newId(),
        user_id: admin0.body.id,
        branch_id: await t.mainBranchId(),
        device_id: newId(),
        currency_code: 'USD',
        opening_float: 0,
        status: 'open',
        break_minutes: 0,
        break_started_at: null,
        opened_at: at,
        closed_at: null,
        counted_cash: null,
        expected_cash: null,
        variance: null,
        z_number: null,
        notes: '',
        updated_at: at,
      })
      .execute();
    const elsewhere = await t.post<Json>('/api/v1/sales', body, admin);
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.body.code).toBe('SESSION_ON_OTHER_TILL');
    expect(await t.count('sales')).toBe(sales + 1);
  });

  it('27.3: a payment on account is refused without a session, then is in the X and Z by tender and in the expected cash', async () => {
    const cashier = await t.userWithRole('cashier');
    const customer = await t.post<Json>(
      '/api/v1/customers',
      { name: 'Neema Account', credit_limit: 100, is_credit_allowed: true },
      manager.token,
    );
    expect(customer.status).toBe(201);
    const med = await makeMedicineId(t, { price: 30 });
    await addStock(t, med, 5);
    const credit = await t.post<Json>(
      '/api/v1/sales',
      {
        items: [{ medicine_id: med, quantity: 1 }],
        customer_id: customer.body.id,
        payment_lines: [{ method: 'credit', amount: 30 }],
      },
      manager.token,
    );
    expect(credit.status).toBe(201);
    const pay = (body: Json) =>
      t.post<Json>(`/api/v1/customers/${customer.body.id}/payments`, body, cashier.token);

    const ledger = await t.count('customer_ledger');
    const refused = await pay({ amount: 10 });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('NO_OPEN_SESSION');
    expect(refused.body.detail).not.toMatch(/\/sessions|POST/);
    expect(await t.count('customer_ledger')).toBe(ledger);

    const session = await openSessionFor(t, cashier.token, 20);
    const cash = await pay({ amount: 10 });
    expect(cash.status).toBe(200);
    expect(cash.body).toMatchObject({
      session_id: session,
      method: 'cash',
      amount_paid: '10.00',
      new_balance: '20.00',
    });
    expect((await pay({ amount: 5, method: 'card' })).status).toBe(200);
    expect((await pay({ amount: 1, method: 'credit' })).status).toBe(400);

    const x = await xReport(cashier.token);
    expect(x.z_number).toBeNull();
    expect(x.sales_count).toBe(0);
    expect(x.gross_sales).toBe('0.00');
    expect(x.account_payments).toEqual({
      count: 2,
      total: '15.00',
      by_method: [
        { method: 'card', count: 1, amount: '5.00' },
        { method: 'cash', count: 1, amount: '10.00' },
      ],
    });
    expect(x.cash_account_payments).toBe('10.00');
    expect(x.expected_cash).toBe('30.00');
    expect(x.tenders_by_currency).toEqual([
      { currency_code: 'USD', method: 'card', rate: '1', count: 1, amount: '5.00', base_amount: '5.00' },
      { currency_code: 'USD', method: 'cash', rate: '1', count: 1, amount: '10.00', base_amount: '10.00' },
    ]);
    const current = await t.get<Json>('/api/v1/sessions/current', cashier.token);
    expect(current.body.expected_cash).toBe('30.00');

    const closed = await t.post<Json>('/api/v1/sessions/close', { counted_cash: 30 }, cashier.token);
    expect(closed.body).toMatchObject({ expected_cash: '30.00', variance: '0.00', z_number: 1 });
    const z = await t.get<Json>(`/api/v1/sessions/${session}/z-report`, cashier.token);
    expect(z.body).toMatchObject({
      is_final: true,
      expected_cash: '30.00',
      account_payments: x.account_payments,
    });
  });

  it('27.4: the Z lists cash per currency at the rate used and its VAT is net of the refunds in the session', async () => {
    // This branch's drawer holds euros: the EUR sale's change comes out of the EUR cash.
    const main = await t.mainBranchId();
    await t.put(`/api/v1/branches/${main}`, { drawer_currencies: ['EUR'] }, admin);
    expect(
      (
        await t.post(
          '/api/v1/currency/rates',
          { from_code: 'EUR', rate: '1.25', effective_at: '2026-01-01T00:00:00Z' },
          admin,
        )
      ).status,
    ).toBe(201);
    const cashier = await t.userWithRole('cashier');
    const session = await openSessionFor(t, cashier.token, 50);
    const med = await makeMedicineId(t, { price: 11.8 });
    await addStock(t, med, 10);
    const usd = await t.post<Json>(
      '/api/v1/sales',
      { items: [{ medicine_id: med, quantity: 1 }], payment_lines: [{ method: 'cash', amount: 20 }] },
      cashier.token,
    );
    expect(usd.body).toMatchObject({ total_amount: '11.80', vat_amount: '1.80', change_amount: '8.20' });
    const eur = await t.post<Json>(
      '/api/v1/sales',
      {
        items: [{ medicine_id: med, quantity: 1 }],
        currency_code: 'EUR',
        payment_lines: [{ method: 'cash', amount: 10 }],
      },
      cashier.token,
    );
    // 11.80 USD at 1.25 = 9.44 EUR, change 0.56 EUR
    expect(eur.body).toMatchObject({
      total_amount: '9.44',
      base_total_amount: '11.80',
      change_amount: '0.56',
    });
    const line = (usd.body.items as Json[])[0]!;
    const refund = await t.post<Json>(
      '/api/v1/returns',
      { sale_id: usd.body.id, lines: [{ sale_line_id: line.id, quantity: 1 }] },
      cashier.token,
    );
    expect(refund.body).toMatchObject({ refund_method: 'cash', total_amount: '11.80', vat_amount: '1.80' });

    const z = await t.get<Json>(`/api/v1/sessions/${session}/z-report`, cashier.token);
    expect(z.body.gross_sales).toBe('23.60');
    expect(z.body.net_sales).toBe('11.80');
    expect(z.body.gross_vat).toBe('3.60');
    // only the EUR sale is left: its VAT at its own rate, 1.44 EUR = 1.80 USD
    expect(z.body.vat_total).toBe('1.80');
    expect(z.body.vat_by_rate).toEqual([{ rate: 18, taxable_amount: '10.00', vat_amount: '1.80' }]);
    expect(z.body.tenders_by_currency).toEqual([
      { currency_code: 'USD', method: 'cash', rate: '1', count: 1, amount: '0.00', base_amount: '0.00' },
      { currency_code: 'EUR', method: 'cash', rate: '1.25', count: 1, amount: '9.44', base_amount: '11.80' },
    ]);
    expect(z.body.cash_by_currency).toEqual([
      { currency_code: 'USD', rate: '1', expected: '50.00', expected_base: '50.00' },
      { currency_code: 'EUR', rate: '1.25', expected: '9.44', expected_base: '11.80' },
    ]);
    const bases = (z.body.cash_by_currency as Json[]).reduce((a, c) => a + cents(c.expected_base), 0);
    expect(bases).toBe(cents(z.body.expected_cash));
    expect(z.body.expected_cash).toBe('61.80');
  });
  let fresh = 0;
  /** A cashier of their own, with no session yet. */
  const freshCashier = async () => {
    fresh += 1;
    const email = `cashier.fx${fresh}@test.local`;
    const made = await t.post(
      '/api/v1/users',
      {
        email,
        password: 'Set-by-admin#1',
        full_name: `FX cashier ${fresh}`,
        role: 'cashier',
        branch_id: await t.mainBranchId(),
      },
      admin,
    );
    expect(made.status).toBe(201);
    return { token: await t.firstSignIn(email, 'Set-by-admin#1', 'Own#FX-cashier-2026') };
  };

  const eurSession = async (drawer: string[]) => {
    const main = await t.mainBranchId();
    expect((await t.put(`/api/v1/branches/${main}`, { drawer_currencies: drawer }, admin)).status).toBe(200);
    await t.post(
      '/api/v1/currency/rates',
      { from_code: 'EUR', rate: '1.25', effective_at: '2026-01-01T00:00:00Z' },
      admin,
    );
    const cashier = await freshCashier();
    const session = await openSessionFor(t, cashier.token, 50);
    const med = await makeMedicineId(t, { price: 11.8 });
    await addStock(t, med, 10);
    // 11.80 USD at 1.25 = 9.44 EUR; 10.00 EUR handed over
    const sale = await t.post<Json>(
      '/api/v1/sales',
      {
        items: [{ medicine_id: med, quantity: 1 }],
        currency_code: 'EUR',
        payment_lines: [{ method: 'cash', amount: 10 }],
      },
      cashier.token,
    );
    expect(sale.status, JSON.stringify(sale.body)).toBe(201);
    return { cashier, session, sale: sale.body };
  };

  it('27.4: change in base currency unless the till holds that currency', async () => {
    const noEuros = await eurSession([]);
    expect(noEuros.sale).toMatchObject({
      total_amount: '9.44',
      change_amount: '0.56',
      change_currency_code: 'USD',
      change_given: '0.70',
    });
    const z = (await t.get<Json>(`/api/v1/sessions/${noEuros.session}/z-report`, noEuros.cashier.token)).body;
    // the drawer keeps the whole 10.00 EUR and pays 0.70 USD out of its dollars
    expect(z.cash_by_currency).toEqual([
      { currency_code: 'USD', rate: '1', expected: '49.30', expected_base: '49.30' },
      { currency_code: 'EUR', rate: '1.25', expected: '10.00', expected_base: '12.50' },
    ]);
    expect(z.expected_cash).toBe('61.80');

    const euros = await eurSession(['EUR']);
    expect(euros.sale).toMatchObject({ change_currency_code: 'EUR', change_given: '0.56' });
    const z2 = (await t.get<Json>(`/api/v1/sessions/${euros.session}/z-report`, euros.cashier.token)).body;
    expect(z2.cash_by_currency).toEqual([
      { currency_code: 'USD', rate: '1', expected: '50.00', expected_base: '50.00' },
      { currency_code: 'EUR', rate: '1.25', expected: '9.44', expected_base: '11.80' },
    ]);
    expect(z2.expected_cash).toBe('61.80');
  });

  it('27.4: the close counts each currency the drawer holds, expected against counted on the Z', async () => {
    const { cashier, session } = await eurSession([]);
    const before = await t.counts(['cash_sessions', 'change_log', 'audit_log']);
    const baseOnly = await t.post<Json>('/api/v1/sessions/close', { counted_cash: 61.8 }, cashier.token);
    expect(baseOnly.status).toBe(400);
    expect(baseOnly.body.code).toBe('COUNT_EACH_CURRENCY');
    expect(baseOnly.body.detail).toMatch(/USD, EUR/);
    const missing = await t.post<Json>(
      '/api/v1/sessions/close',
      { counted_by_currency: [{ currency_code: 'USD', amount: 49.3 }] },
      cashier.token,
    );
    expect(missing.status).toBe(400);
    const stray = await t.post<Json>(
      '/api/v1/sessions/close',
      {
        counted_by_currency: [
          { currency_code: 'USD', amount: 49.3 },
          { currency_code: 'EUR', amount: 10 },
          { currency_code: 'GBP', amount: 1 },
        ],
      },
      cashier.token,
    );
    expect(stray.status).toBe(400);
    expect(await t.counts(['cash_sessions', 'change_log', 'audit_log'])).toEqual(before);
    expect((await t.get<Json>('/api/v1/sessions/current', cashier.token)).body.status).toBe('open');

    // one euro short: -1.00 EUR is -1.25 USD at the session's rate
    const closed = await t.post<Json>(
      '/api/v1/sessions/close',
      {
        counted_by_currency: [
          { currency_code: 'USD', amount: 49.3 },
          { currency_code: 'EUR', amount: 9 },
        ],
      },
      cashier.token,
    );
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body).toMatchObject({ expected_cash: '61.80', counted_cash: '60.55', variance: '-1.25' });
    const z = (await t.get<Json>(`/api/v1/sessions/${session}/z-report`, cashier.token)).body;
    expect(z.counted_by_currency).toEqual([
      {
        currency_code: 'USD',
        rate: '1',
        expected: '49.30',
        counted: '49.30',
        variance: '0.00',
        expected_base: '49.30',
        counted_base: '49.30',
        variance_base: '0.00',
      },
      {
        currency_code: 'EUR',
        rate: '1.25',
        expected: '10.00',
        counted: '9.00',
        variance: '-1.00',
        expected_base: '12.50',
        counted_base: '11.25',
        variance_base: '-1.25',
      },
    ]);
    expect(z.variance).toBe('-1.25');
  });

  it('27.4: a drawer currency the session took no cash in is counted at the rate in force at the close, not 1:1', async () => {
    // This drawer holds euros (rate 1.25) and shillings (no rate filed); this session takes dollars only.
    const main = await t.mainBranchId();
    expect(
      (await t.put(`/api/v1/branches/${main}`, { drawer_currencies: ['EUR', 'KES'] }, admin)).status,
    ).toBe(200);
    await t.post(
      '/api/v1/currency/rates',
      { from_code: 'EUR', rate: '1.25', effective_at: '2026-01-01T00:00:00Z' },
      admin,
    );
    const dollarsOnly = await freshCashier();
    const session = await openSessionFor(t, dollarsOnly.token, 50);
    const x = await xReport(dollarsOnly.token);
    expect(x.cash_by_currency).toEqual([
      { currency_code: 'USD', rate: '1', expected: '50.00', expected_base: '50.00' },
    ]);

    // 5 shillings found in the drawer cannot be valued without a rate: refused, nothing written.
    const before = await t.counts(['cash_sessions', 'change_log', 'audit_log']);
    const count = (kes: number) => ({
      counted_by_currency: [
        { currency_code: 'USD', amount: 50 },
        { currency_code: 'EUR', amount: 8 },
        { currency_code: 'KES', amount: kes },
      ],
    });
    const noRate = await t.post<Json>('/api/v1/sessions/close', count(5), dollarsOnly.token);
    expect(noRate.status).toBe(409);
    expect(noRate.body.code).toBe('NO_EXCHANGE_RATE');
    expect(noRate.body.detail).toMatch(/KES to USD/);
    expect(await t.counts(['cash_sessions', 'change_log', 'audit_log'])).toEqual(before);

    // 8.00 EUR found (a tender rung up as dollars): +8.00 EUR is +10.00 USD at 1.25, not +8.00.
    const closed = await t.post<Json>('/api/v1/sessions/close', count(0), dollarsOnly.token);
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body).toMatchObject({ expected_cash: '50.00', counted_cash: '60.00', variance: '10.00' });
    const z = (await t.get<Json>(`/api/v1/sessions/${session}/z-report`, dollarsOnly.token)).body;
    expect(z.counted_by_currency.slice(1)).toEqual([
      {
        currency_code: 'EUR',
        rate: '1.25',
        expected: '0.00',
        counted: '8.00',
        variance: '8.00',
        expected_base: '0.00',
        counted_base: '10.00',
        variance_base: '10.00',
      },
      {
        currency_code: 'KES',
        rate: '1',
        expected: '0.00',
        counted: '0.00',
        variance: '0.00',
        expected_base: '0.00',
        counted_base: '0.00',
        variance_base: '0.00',
      },
    ]);
    expect(z.variance).toBe('10.00');
    expect((await t.put(`/api/v1/branches/${main}`, { drawer_currencies: [] }, admin)).status).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { addStock, makeMedicineId, openSessionFor } from '../../testing/factory';

type Body = Record<string, unknown>;
let t: TestServer;
let cashier: { id: string; token: string };
let manager: { id: string; token: string };

beforeAll(async () => {
  t = await startTestServer();
  cashier = await t.userWithRole('cashier');
  manager = await t.userWithRole('branch_manager');
});
afterAll(() => t.close());

describe('customers and credit', () => {
  it('creates, searches, charges credit, takes payments and keeps the ledger', async () => {
    const refused = await t.post<Body>('/api/v1/customers', { name: 'X', credit_limit: 100 }, cashier.token);
    expect(refused.status).toBe(403);
    const c = await t.post<Body>(
      '/api/v1/customers',
      {
        name: 'Amina Juma',
        phone: '+255700111222',
        national_id: 'NID-9',
        credit_limit: 100,
        is_credit_allowed: true,
      },
      manager.token,
    );
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({
      credit_limit: '100.00',
      current_balance: '0.00',
      is_credit_allowed: true,
    });
    expect((await t.get<{ total: number }>('/api/v1/customers?search=amina', cashier.token)).body.total).toBe(
      1,
    );
    expect((await t.get<{ total: number }>('/api/v1/customers?search=0111', cashier.token)).body.total).toBe(
      1,
    );
    expect((await t.get<{ total: number }>('/api/v1/customers?search=NID', cashier.token)).body.total).toBe(
      0,
    );
    expect((await t.get<{ total: number }>('/api/v1/customers?search=NID-9', cashier.token)).body.total).toBe(
      1,
    );
    expect((await t.put<Body>(`/api/v1/customers/${c.body.id}`, {}, cashier.token)).body.detail).toContain(
      'No fields to update',
    );
    await openSessionFor(t, manager.token);
    const med = await makeMedicineId(t, { price: 30 });
    await addStock(t, med, 10);
    const sale = await t.post<Body>(
      '/api/v1/sales',
      {
        items: [{ medicine_id: med, quantity: 2 }],
        customer_id: c.body.id,
        payment_lines: [{ method: 'credit', amount: 60 }],
      },
      manager.token,
    );
    expect(sale.status).toBe(201);
    expect(sale.body.customer_display_name).toBe('Amina Juma');
    // The answer is built from what the sale wrote; it must read back the same.
    expect((await t.get<Body>(`/api/v1/sales/${sale.body.id}`, manager.token)).body).toEqual(sale.body);
    const over = await t.post<Body>(`/api/v1/customers/${c.body.id}/payments`, { amount: 61 }, cashier.token);
    expect(over.status).toBe(400);
    expect(over.body.detail).toContain('61.00');
    expect(over.body.detail).toContain('60.00');
    expect(
      (await t.post<Body>(`/api/v1/customers/${c.body.id}/payments`, { amount: 0 }, cashier.token)).status,
    ).toBe(400);
    // a payment on account is money taken at the till: it needs the cashier's open session (27.3)
    await openSessionFor(t, cashier.token);
    const changes = await t.count('change_log');
    const pay = await t.post<Body>(
      `/api/v1/customers/${c.body.id}/payments`,
      { amount: 25.5 },
      cashier.token,
    );
    expect(pay.body).toMatchObject({ amount_paid: '25.50', previous_balance: '60.00', new_balance: '34.50' });
    expect(await t.count('change_log')).toBe(changes + 2);
    const ledger = await t.get<{ items: Body[] }>(`/api/v1/customers/${c.body.id}/ledger`, cashier.token);
    expect(ledger.body.items.map((r) => [r.transaction_type, r.balance_after])).toEqual([
      ['PAYMENT', '34.50'],
      ['SALE', '60.00'],
    ]);
    expect(ledger.body.items[0]!.created_by_name).toBe('Test cashier');
    // a return of the credit sale goes back to the account
    const line = (sale.body.items as Body[])[0]!;
    const ret = await t.post<Body>(
      '/api/v1/returns',
      { sale_id: sale.body.id, lines: [{ sale_line_id: line.id, quantity: 1 }] },
      manager.token,
    );
    expect(ret.body.refund_method).toBe('credit');
    expect((await t.get<Body>(`/api/v1/customers/${c.body.id}`, cashier.token)).body.current_balance).toBe(
      '4.50',
    );
  });
});

describe('possible duplicates (issue 29)', () => {
  it('names a customer with the same phone digits or the same name, never the one being edited', async () => {
    const amina = await t.post<Body>(
      '/api/v1/customers',
      { name: 'Amina Hassan', phone: '0712 345-678' },
      cashier.token,
    );
    const namesake = await t.post<Body>('/api/v1/customers', { name: ' amina HASSAN' }, cashier.token);
    await t.post<Body>('/api/v1/customers', { name: 'Baraka Ali', phone: '0799000111' }, cashier.token);
    const ids = async (query: string) =>
      (await t.get<Body[]>(`/api/v1/customers/possible-duplicates?${query}`, cashier.token)).body.map(
        (c) => c.id,
      );
    expect(await ids('name=Zawadi&phone=0712345678')).toEqual([amina.body.id]);
    expect((await ids('name=Amina%20Hassan&phone=0700000000')).sort()).toEqual(
      [amina.body.id, namesake.body.id].sort(),
    );
    expect(await ids(`name=Amina%20Hassan&phone=0712345678&exclude_id=${amina.body.id}`)).toEqual([
      namesake.body.id,
    ]);
    expect(await ids('name=Someone%20Else&phone=')).toEqual([]);
    expect(await ids('name=&phone=')).toEqual([]);
    const bad = await t.get<Body>('/api/v1/customers/possible-duplicates?exclude_id=nope', cashier.token);
    expect(bad.status).toBe(400);
  });

  it('leaves creating a duplicate to the person: the same customer twice is still created', async () => {
    const first = await t.post<Body>(
      '/api/v1/customers',
      { name: 'Twin Case', phone: '0711' },
      cashier.token,
    );
    const second = await t.post<Body>(
      '/api/v1/customers',
      { name: 'Twin Case', phone: '0711' },
      cashier.token,
    );
    expect([first.status, second.status]).toEqual([201, 201]);
  });
});

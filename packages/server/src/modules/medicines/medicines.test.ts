import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { barcodeKey } from './service';
import { inDays, makeMedicine, makeSupplier, receive, setExpiry, setStatus } from '../../testing/factory';

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
  await t.post('/api/v1/categories', { name: 'Analgesics' }, admin);
});
afterAll(() => t.close());

type Page = { items: Array<Record<string, unknown>>; total: number };

describe('barcodeKey', () => {
  it('makes a GTIN-14 with leading zero, the EAN-13 and a UPC-A meet', () => {
    expect(barcodeKey('05012345678900')).toBe(barcodeKey('5012345678900'));
    expect(barcodeKey('012345678905')).toBe(barcodeKey('0012345678905'));
    expect(barcodeKey('abc-1')).toBe('ABC-1');
  });
});

describe('POST /medicines', () => {
  it('creates with every field of the spec table, money as decimal strings', async () => {
    const res = await t.post(
      '/api/v1/medicines',
      {
        name: 'Panadol 500',
        generic_name: 'Paracetamol',
        barcode: '5012345678900',
        category: 'analgesics',
        form: 'tablet',
        strength: '500 mg',
        unit: 'box',
        selling_price: 3.5,
        max_public_price: 4,
        low_stock_threshold: 5,
        requires_prescription: false,
        is_controlled: false,
        requires_cold_chain: false,
        vat_category: 'zero',
        regulator_registration_no: 'TZ-123',
      },
      admin,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Panadol 500',
      generic_name: 'Paracetamol',
      barcode: '5012345678900',
      category: 'analgesics',
      selling_price: '3.50',
      max_public_price: '4.00',
      stock_quantity: 0,
      low_stock_threshold: 5,
      is_active: true,
      vat_category: 'zero',
      image_key: null,
      image_url: null,
    });
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'id',
        'name',
        'generic_name',
        'barcode',
        'category',
        'form',
        'strength',
        'unit',
        'selling_price',
        'max_public_price',
        'stock_quantity',
        'low_stock_threshold',
        'requires_prescription',
        'is_controlled',
        'requires_cold_chain',
        'is_active',
        'vat_category',
        'regulator_registration_no',
        'image_key',
        'image_url',
        'created_at',
        'updated_at',
      ].sort(),
    );
    const [row] = await t.query(
      'SELECT selling_price, max_public_price FROM medicines WHERE id = ?',
      res.body.id,
    );
    expect(row).toEqual({ selling_price: 350, max_public_price: 400 });
  });

  it('refuses bad money, a price above the maximum, unknown vat category and category; writes nothing', async () => {
    const before = await t.count('medicines');
    const cases: Array<[Record<string, unknown>, number]> = [
      [{}, 400],
      [{ name: 'X' }, 400],
      [{ name: 'X', selling_price: '3' }, 400],
      [{ name: 'X', selling_price: -1 }, 400],
      [{ name: 'X', selling_price: 1.005 }, 400],
      [{ name: 'X', selling_price: 1e13 }, 400],
      [{ name: 'X', selling_price: 5, max_public_price: 4 }, 400],
      [{ name: 'X', selling_price: 1, vat_category: 'luxury' }, 400],
      [{ name: 'X', selling_price: 1, low_stock_threshold: 1.5 }, 400],
      [{ name: 'X', selling_price: 1, stock_quantity: 10 }, 400],
      [{ name: 'X', selling_price: 1, barcode: 'has space' }, 400],
      [{ name: 'X', selling_price: 1, category: 'nope' }, 404],
      [{ name: '', selling_price: 1 }, 400],
    ];
    for (const [body, status] of cases) {
      const res = await t.post('/api/v1/medicines', body, admin);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.detail).toBeTruthy();
    }
    const above = await t.post(
      '/api/v1/medicines',
      { name: 'X', selling_price: 5, max_public_price: 4 },
      admin,
    );
    expect(above.body.detail).toMatch(/exceeds the maximum public price/);
    expect(await t.count('medicines')).toBe(before);
  });

  it('keeps barcodes unique among active medicines only (409), GTIN-aware', async () => {
    const a = await makeMedicine(t, { barcode: '4006381333931' });
    const dup = await t.post(
      '/api/v1/medicines',
      { name: 'Y', selling_price: 1, barcode: '04006381333931' },
      admin,
    );
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('DUPLICATE_BARCODE');
    expect((await t.delete(`/api/v1/medicines/${a.id}`, admin)).status).toBe(204);
    const b = await makeMedicine(t, { barcode: '4006381333931' });
    // reactivating the old one would clash now
    expect((await t.put(`/api/v1/medicines/${a.id}`, { is_active: true }, admin)).status).toBe(409);
    const found = await t.get(`/api/v1/medicines/barcode/04006381333931`, admin);
    expect(found.status).toBe(200);
    expect(found.body.id).toBe(b.id);
    const q = await t.get<Page>('/api/v1/medicines?barcode=04006381333931', admin);
    expect(q.body.items.map((m) => m.id)).toEqual([b.id]);
    expect((await t.get('/api/v1/medicines/barcode/0000000000000', admin)).status).toBe(404);
  });
});

describe('PUT and DELETE /medicines/{id}', () => {
  it('updates given fields, checks the merged price ceiling, and deactivates on DELETE', async () => {
    const m = await makeMedicine(t, { selling_price: 2, max_public_price: 3 });
    const up = await t.put(
      `/api/v1/medicines/${m.id}`,
      { selling_price: 2.75, requires_prescription: true },
      admin,
    );
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({
      selling_price: '2.75',
      max_public_price: '3.00',
      requires_prescription: true,
    });
    expect((await t.put(`/api/v1/medicines/${m.id}`, { selling_price: 3.01 }, admin)).status).toBe(400);
    expect(
      (await t.put(`/api/v1/medicines/${m.id}`, { max_public_price: null, selling_price: 9 }, admin)).status,
    ).toBe(200);
    expect((await t.put(`/api/v1/medicines/${m.id}`, {}, admin)).status).toBe(400);
    expect((await t.put(`/api/v1/medicines/${m.id}`, { stock_quantity: 4 }, admin)).status).toBe(400);
    expect(
      (await t.put('/api/v1/medicines/0192f2c4-0000-7000-8000-000000000000', { name: 'Z' }, admin)).status,
    ).toBe(404);
    expect((await t.put('/api/v1/medicines/not-a-uuid', { name: 'Z' }, admin)).status).toBe(400);
    expect((await t.delete(`/api/v1/medicines/${m.id}`, admin)).status).toBe(204);
    const got = await t.get(`/api/v1/medicines/${m.id}`, admin);
    expect(got.body.is_active).toBe(false);
    const [audit] = await t.query<{ n: number }>(
      "SELECT count(*) AS n FROM audit_log WHERE entity = 'medicine' AND entity_id = ?",
      m.id,
    );
    expect(audit!.n).toBe(4); // create, two updates, deactivate
  });
});

describe('GET /medicines', () => {
  it('searches as you type over name, generic name and barcode with prefixes', async () => {
    const amox = await makeMedicine(t, {
      name: 'Amoxil 250 Capsules',
      generic_name: 'Amoxicillin',
      barcode: '8901234567890',
    });
    await makeMedicine(t, { name: 'Augmentin', generic_name: 'Amoxicillin Clavulanate' });
    await makeMedicine(t, { name: 'Brufen', generic_name: 'Ibuprofen' });
    const r1 = await t.get<Page>('/api/v1/medicines?search=amo', admin);
    expect(r1.body.items.map((m) => m.name)).toEqual(['Amoxil 250 Capsules', 'Augmentin']);
    const r2 = await t.get<Page>('/api/v1/medicines?search=amox%20clav', admin);
    expect(r2.body.items.map((m) => m.name)).toEqual(['Augmentin']);
    const r3 = await t.get<Page>('/api/v1/medicines?search=890123', admin);
    expect(r3.body.items.map((m) => m.id)).toEqual([amox.id]);
    for (const s of ['"', '*', "'; DROP TABLE medicines; --", 'NEAR(', '🙂', 'ibu OR x']) {
      const r = await t.get<Page>(`/api/v1/medicines?search=${encodeURIComponent(s)}`, admin);
      expect(r.status, s).toBe(200);
    }
    expect((await t.get(`/api/v1/medicines?search=${'a'.repeat(101)}`, admin)).status).toBe(400);
  });

  it('filters and pages, with stock_quantity from active unexpired batches of the caller branch', async () => {
    const sup = await makeSupplier(t);
    const rx = await makeMedicine(t, {
      name: 'Zz Rx Med',
      requires_prescription: true,
      low_stock_threshold: 5,
    });
    const ctl = await makeMedicine(t, { name: 'Zz Controlled', is_controlled: true, low_stock_threshold: 5 });
    await receive(t, rx.id, sup.id, { qty_received: 20 });
    const b2 = await receive(t, rx.id, sup.id, { qty_received: 7 });
    const b3 = await receive(t, rx.id, sup.id, { qty_received: 3 });
    await setStatus(t, b2.id, 'quarantined');
    await setExpiry(t, b3.id, inDays(-1));
    const got = await t.get(`/api/v1/medicines/${rx.id}`, admin);
    expect(got.body.stock_quantity).toBe(20);
    expect((got.body.batches as unknown[]).length).toBe(3);
    const rxOnly = await t.get<Page>('/api/v1/medicines?requires_prescription=true&search=zz', admin);
    expect(rxOnly.body.items.map((m) => m.name)).toEqual(['Zz Rx Med']);
    const ctlOnly = await t.get<Page>('/api/v1/medicines?is_controlled=true', admin);
    expect(ctlOnly.body.items.map((m) => m.name)).toEqual(['Zz Controlled']);
    const low = await t.get<Page>('/api/v1/medicines?low_stock=true&search=zz', admin);
    expect(low.body.items.map((m) => m.id)).toEqual([ctl.id]);
    const out = await t.get<Page>('/api/v1/medicines?out_of_stock=false&search=zz', admin);
    expect(out.body.items.map((m) => m.id)).toEqual([rx.id]);
    const paged = await t.get<Page & { page_size: number }>('/api/v1/medicines?page=2&page_size=2', admin);
    expect(paged.body.items.length).toBe(2);
    expect(paged.body.total).toBeGreaterThan(4);
    // another branch has none of it
    const other = await t.createBranch('MEDS2');
    const cashier = await t.userWithRole('cashier', other);
    expect((await t.get(`/api/v1/medicines/${rx.id}`, cashier.token)).body.stock_quantity).toBe(0);
    // a branch-bound caller cannot read another branch's stock by asking
    const main = await t.mainBranchId();
    expect(
      (await t.get(`/api/v1/medicines/${rx.id}?branch_id=${main}`, cashier.token)).body.stock_quantity,
    ).toBe(0);
    expect((await t.get(`/api/v1/medicines/${rx.id}?branch_id=${other}`, admin)).body.stock_quantity).toBe(0);
    for (const bad of ['page=0', 'page_size=201', 'is_active=maybe', 'low_stock=yes', 'branch_id=x']) {
      expect((await t.get(`/api/v1/medicines?${bad}`, admin)).status, bad).toBe(400);
    }
  });
});

describe('movements and the controlled registry', () => {
  it('pages a medicine ledger and shows controlled running balances that match stock', async () => {
    const sup = await makeSupplier(t);
    const m = await makeMedicine(t, { name: 'Morphine 10mg', is_controlled: true });
    const b = await receive(t, m.id, sup.id, { qty_received: 10 });
    await receive(t, m.id, sup.id, { qty_received: 5 });
    expect(
      (await t.put(`/api/v1/purchases/${b.id}/write-off`, { quantity: 2, reason: 'broken ampoules' }, admin))
        .status,
    ).toBe(200);
    const mv = await t.get<Page>(`/api/v1/medicines/${m.id}/movements?page_size=2`, admin);
    expect(mv.status).toBe(200);
    expect(mv.body.total).toBe(3);
    expect(mv.body.items[0]).toMatchObject({ type: 'write_off', quantity: -2, reason: 'broken ampoules' });
    const writeOffs = await t.get<Page>(`/api/v1/medicines/${m.id}/movements?type=write_off`, admin);
    expect(writeOffs.body.total).toBe(1);
    const reg = await t.get<{
      items: Array<Record<string, unknown> & { movements: Array<{ balance_after: number }> }>;
    }>(`/api/v1/medicines/controlled/registry?medicine_id=${m.id}`, admin);
    expect(reg.status).toBe(200);
    expect(reg.body.items).toHaveLength(1);
    expect(reg.body.items[0]).toMatchObject({
      opening_balance: 0,
      closing_balance: 13,
      on_hand: 13,
      balanced: true,
    });
    expect(reg.body.items[0]!.movements.map((x) => x.balance_after)).toEqual([10, 15, 13]);
    const cashier = await t.userWithRole('cashier');
    expect((await t.get('/api/v1/medicines/controlled/registry', cashier.token)).status).toBe(403);
    expect(
      (await t.get(`/api/v1/medicines/0192f2c4-0000-7000-8000-000000000000/movements`, admin)).status,
    ).toBe(404);
    expect((await t.get(`/api/v1/medicines/${m.id}/movements?from=2024-13-01`, admin)).status).toBe(400);
  });
});

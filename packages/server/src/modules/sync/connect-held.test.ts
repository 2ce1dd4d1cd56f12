import fs from 'node:fs';
import path from 'node:path';
import type { HeldRecords, SyncStatus } from '@pharmacy/contracts';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@pharmacy/sync/testing';
import { addStock, makeMedicineId, openSessionFor } from '../../testing/factory';
import { ADMIN, startTestServer, type TestServer, USER_PASSWORD } from '../../testing/harness';
import { getLocalDeviceId, shortDeviceId } from '../fiscal/device';

/**
 * Connecting a till that already holds records of its own (issue 28.2), the fiscal identity a connected till
 * sells under (28.3), and the verifier the disconnecting admin keeps (26, leftover 5): a real central and real
 * tills on loopback, in process.
 */
let central: TestServer;
let mainBranch: string;
let otherBranch: string;
const tills: TestServer[] = [];

type Sale = { id: string; invoice_number: string };

async function newTill(demoCatalogue = false): Promise<TestServer> {
  const till = await startTestServer({
    mode: 'till',
    syncIntervalMs: 200,
    syncBackoffMaxMs: 400,
    demoCatalogue: demoCatalogue ? 'true' : 'false',
  });
  tills.push(till);
  return till;
}

const tillAdmin = (till: TestServer) => till.login(ADMIN.email, ADMIN.password);
const connect = async (till: TestServer, branchId: string, name = 'Front counter 1') =>
  till.post<SyncStatus & { code?: string; detail?: string }>(
    '/api/v1/sync/connect',
    { central_url: central.baseUrl, email: ADMIN.email, password: ADMIN.password, name, branch_id: branchId },
    await tillAdmin(till),
  );
const status = async (till: TestServer) =>
  (await till.get<SyncStatus>('/api/v1/sync/status', await tillAdmin(till))).body;
/** Connected, bootstrapped, and every change of the till answered by central. */
const settled = (till: TestServer) =>
  eventually('the till to settle with head office', async () => {
    const s = await status(till);
    return s.bootstrapped && s.last_push_at !== null && s.pending === 0 && s;
  });
const held = async (till: TestServer) =>
  (await till.get<HeldRecords>('/api/v1/sync/connect/held-records', await tillAdmin(till))).body;
const conflictsOf = async (deviceId: string) =>
  central.query<{ code: string; entity: string }>(
    'SELECT code, entity FROM sync_conflicts WHERE device_id = ?',
    deviceId,
  );
const devicesOnCentral = async () =>
  (
    await central.get<{ items: { id: string; name: string }[] }>(
      '/api/v1/compliance/devices',
      await central.adminToken(),
    )
  ).body.items;

async function sell(till: TestServer, token: string, medicineId: string, quantity = 1): Promise<Sale> {
  const res = await till.post<Sale>(
    '/api/v1/sales',
    { items: [{ medicine_id: medicineId, quantity }], payment_lines: [{ method: 'cash', amount: 50 }] },
    token,
  );
  if (res.status !== 201) throw new Error(`sale: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

beforeAll(async () => {
  central = await startTestServer({ mode: 'central' });
  mainBranch = await central.mainBranchId();
  otherBranch = await central.createBranch('EAST');
}, 60_000);
afterAll(async () => {
  for (const till of tills) await till.close();
  await central?.close();
});

describe('connecting a till that holds records of its own', () => {
  it("28.2: a fresh till's demo data is never pushed", async () => {
    const till = await newTill(true);
    expect(await till.count('stock_movements')).toBeGreaterThan(0);
    expect((await held(till)).total).toBe(0);
    expect((await connect(till, mainBranch)).status).toBe(200);
    const done = await settled(till);
    expect([done.rejected, done.open_conflicts]).toEqual([0, 0]);
    expect(await conflictsOf(done.device_id!)).toEqual([]);
  }, 60_000);

  it('28.2: a till that sold before connecting is refused, with the reason, until it archives its records; the archive keeps every sale', async () => {
    const till = await newTill(true);
    const admin = await tillAdmin(till);
    const [medicine] = await till.query<{ id: string }>(
      `SELECT m.id FROM medicines m JOIN batches b ON b.medicine_id = m.id
       WHERE m.requires_prescription = 0 AND m.is_controlled = 0 AND b.qty_on_hand > 5 LIMIT 1`,
    );
    await openSessionFor(till, admin);
    const sold = [await sell(till, admin, medicine!.id), await sell(till, admin, medicine!.id)];
    expect(await held(till)).toMatchObject({
      sales: 2,
      cash_sessions: 1,
      first_invoice: sold[0]!.invoice_number,
      last_invoice: sold[1]!.invoice_number,
      branch_id: null,
      open_session: true,
    });
    const open = await connect(till, mainBranch);
    expect([open.status, open.body.code]).toEqual([409, 'SESSION_OPEN']);
    expect((await till.post('/api/v1/sessions/close', { counted_cash: 100 }, admin)).status).toBe(200);
    const devicesBefore = (await devicesOnCentral()).length;
    const refused = await connect(till, mainBranch);
    expect([refused.status, refused.body.code]).toEqual([409, 'TILL_HOLDS_RECORDS']);
    expect(refused.body.detail).toContain(
      `2 sales (${sold[0]!.invoice_number} to ${sold[1]!.invoice_number})`,
    );
    expect(refused.body.detail).toMatch(/Archive/);
    expect((await devicesOnCentral()).length).toBe(devicesBefore);
    expect(fs.existsSync(path.join(till.dataDir, 'sync-device.json'))).toBe(false);

    const archive = await till.post<{ file: string; archived: HeldRecords }>(
      '/api/v1/sync/connect/archive',
      {},
      admin,
    );
    expect(archive.status).toBe(200);
    expect(archive.body.archived.sales).toBe(2);
    expect(fs.statSync(archive.body.file).mode & 0o777).toBe(0o600);
    const copy = new BetterSqlite3(archive.body.file, { readonly: true });
    try {
      const invoices = copy.prepare('SELECT invoice_number FROM sales ORDER BY invoice_number').all();
      expect(invoices).toEqual(sold.map((s) => ({ invoice_number: s.invoice_number })));
    } finally {
      copy.close();
    }
    expect((await held(till)).total).toBe(0);

    expect((await connect(till, mainBranch)).status).toBe(200);
    const done = await settled(till);
    expect([done.rejected, done.open_conflicts]).toEqual([0, 0]);
    expect(await conflictsOf(done.device_id!)).toEqual([]);
  }, 60_000);
});

describe('a till connected, disconnected and connected again', () => {
  let till: TestServer;
  let medicine: string;
  let firstDevice: string;
  let manager: string;

  beforeAll(async () => {
    medicine = await makeMedicineId(central, { price: 5 });
    await addStock(central, medicine, 50);
    const managerEmail = (await central.userWithRole('branch_manager')).email;
    till = await newTill();
    expect((await connect(till, mainBranch)).status).toBe(200);
    firstDevice = (await settled(till)).device_id!;
    manager = await till.login(managerEmail, USER_PASSWORD);
  }, 60_000);

  it('28.3: a sale at head office names the registered device', async () => {
    await eventually('the stock from head office', async () => {
      const [row] = await till.query<{ n: number }>(
        'SELECT count(*) AS n FROM batches WHERE medicine_id = ?',
        medicine,
      );
      return Number(row?.n) > 0;
    });
    await openSessionFor(till, manager);
    const sale = await sell(till, manager, medicine);
    expect(sale.invoice_number).toContain(`-${shortDeviceId(firstDevice)}-000001`);
    await settled(till);
    const atCentral = await central.row('sales', sale.id);
    expect(atCentral?.device_id).toBe(firstDevice);
    expect((await devicesOnCentral()).find((d) => d.id === atCentral?.device_id)?.name).toBe(
      'Front counter 1',
    );
    expect((await till.post('/api/v1/sessions/close', { counted_cash: 105 }, manager)).status).toBe(200);
    await settled(till);
  }, 60_000);

  it('26 leftover 5: the disconnecting admin confirms their password and keeps a verifier on the till', async () => {
    const admin = await tillAdmin(till);
    const wrong = await till.post<{ code: string; errors?: { path: string }[] }>(
      '/api/v1/sync/disconnect',
      { password: 'Not#The-Password-9' },
      admin,
    );
    expect([wrong.status, wrong.body.code]).toEqual([400, 'WRONG_PASSWORD']);
    expect(wrong.body.errors?.map((e) => e.path)).toEqual(['password']);
    expect((await status(till)).configured).toBe(true);
    const res = await till.post<SyncStatus>('/api/v1/sync/disconnect', { password: ADMIN.password }, admin);
    expect(res.status).toBe(200);
    expect(res.body.configured).toBe(false);
    // No head office to ask any more: the till checks the admin's password itself.
    expect(
      (await till.post('/api/v1/auth/login', { email: ADMIN.email, password: ADMIN.password })).status,
    ).toBe(200);
    expect(
      (await till.post('/api/v1/auth/login', { email: ADMIN.email, password: 'Not#The-Password-9' })).status,
    ).toBe(401);
  }, 60_000);

  it('28.2: a till that sold while disconnected sends those sales to its branch once it connects there again', async () => {
    await openSessionFor(till, manager);
    const offline = [await sell(till, manager, medicine), await sell(till, manager, medicine)];
    expect((await till.post('/api/v1/sessions/close', { counted_cash: 110 }, manager)).status).toBe(200);
    expect(await held(till)).toMatchObject({ sales: 2, cash_sessions: 1, branch_id: mainBranch });
    const elsewhere = await connect(till, otherBranch, 'Front counter 1 again');
    expect([elsewhere.status, elsewhere.body.code]).toEqual([409, 'TILL_HOLDS_RECORDS']);
    expect((await connect(till, mainBranch, 'Front counter 1 again')).status).toBe(200);
    const done = await settled(till);
    expect([done.rejected, done.open_conflicts]).toEqual([0, 0]);
    for (const sale of offline) {
      const rows = await central.query<{ branch_id: string; device_id: string }>(
        'SELECT branch_id, device_id FROM sales WHERE invoice_number = ?',
        sale.invoice_number,
      );
      expect(rows).toEqual([{ branch_id: mainBranch, device_id: firstDevice }]);
    }
    // A push that is answered again (a retry after a crash) adds nothing.
    await till.post('/api/v1/sync/now', {}, await tillAdmin(till));
    const [n] = await central.query<{ n: number }>(
      'SELECT count(*) AS n FROM sales WHERE device_id = ?',
      firstDevice,
    );
    expect(Number(n?.n)).toBe(3);
    // Sales from now on are the new registered device's, its chain from 1.
    await openSessionFor(till, manager);
    const next = await sell(till, manager, medicine);
    expect(next.invoice_number).toContain(`-${shortDeviceId(done.device_id!)}-000001`);
  }, 90_000);
});

describe('a till registered before its fiscal identity followed the registration', () => {
  it('28.3: takes the registered identity at its first start with no cash session open, never leaving one open', async () => {
    const standalone = await startTestServer({ mode: 'till' });
    const dataDir = standalone.dataDir;
    const before = await getLocalDeviceId(standalone.context.db);
    const admin = await tillAdmin(standalone);
    await openSessionFor(standalone, admin);
    await standalone.server.close();
    // Head office out of reach: only the start itself is under test, no snapshot replaces the till's tables.
    const device = await central.registerDevice('Counter 2');
    const asRegistered = {
      mode: 'till' as const,
      dataDir,
      centralUrl: 'http://127.0.0.1:1',
      syncDeviceId: device.id,
      syncDeviceToken: device.token,
    };
    const open = await startTestServer(asRegistered);
    expect(await getLocalDeviceId(open.context.db)).toBe(before);
    const token = await tillAdmin(open);
    expect((await open.post('/api/v1/sessions/close', { counted_cash: 100 }, token)).status).toBe(200);
    await open.server.close();
    const closed = await startTestServer(asRegistered);
    tills.push(closed);
    expect(await getLocalDeviceId(closed.context.db)).toBe(device.id);
  }, 60_000);
});

import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Api } from './api';
import {
  ADMIN,
  expect,
  NEW_ADMIN_PASSWORD,
  signIn,
  startTill,
  stopTill,
  testOwnServers as test,
} from './fixtures';

const CENTRAL_ADMIN = { email: ADMIN.email, password: NEW_ADMIN_PASSWORD };

test.describe.configure({ timeout: 120_000 });

const empty = { count: 0, total: 0, records: [] };

/** A till's figures of a day as it sends them (POST /sync/books, the device credential). */
function book(branchId: string, day: string, sales: Array<{ id: string; label: string; amount: number }>) {
  const total = sales.reduce((s, r) => s + r.amount, 0);
  return {
    branch_id: branchId,
    day,
    kinds: {
      sales: { count: sales.length, total, records: sales },
      returns: empty,
      customer_payments: empty,
      supplier_payments: empty,
      fiscal_documents: {
        count: sales.length,
        total,
        records: sales.map((s) => ({ ...s, fingerprint: `hash-${s.id}` })),
      },
    },
  };
}

test("head office's Books show a till whose day differs, with the sale behind it, then agreeing books; rejected changes read in words", async ({
  page,
}) => {
  const { till: central, child } = await startTill({ PHARMACY_MODE: 'central' });
  try {
    const hq = await Api.admin(central);
    const branches = await hq.call<{ items: Array<{ id: string }> }>('GET', '/branches');
    const main = branches.items[0]!.id;
    const device = await hq.call<{ device_id: string; device_token: string }>(
      'POST',
      '/sync/devices/register',
      {
        name: 'Front counter 1',
      },
    );
    const today = (await hq.call<{ day: string }>('GET', `/books?branch_id=${main}`)).day;
    const asTill = (path: string, body: unknown) =>
      fetch(`${central.url}/api/v1${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-device-token': device.device_token },
        body: JSON.stringify({ device_id: device.device_id, ...(body as object) }),
      });

    // The till reports a sale head office does not hold (it was rejected there).
    const sale = { id: '01890000-0000-7000-8000-000000000004', label: 'MAIN-3C37-000004', amount: 684 };
    expect((await asTill('/sync/books', { book: book(main, today, [sale]) })).status).toBe(200);
    // And a catalogue edit head office refuses (it owns the catalogue).
    const supplier = await hq.supplier();
    const medicineId = await hq.medicine(supplier, {
      name: 'Bookol 5 mg',
      barcode: '4000000000099',
      price: 5,
      stock: 0,
    });
    const pushed = await asTill('/sync/push', {
      changes: [
        {
          client_mutation_id: 'e2e-books-1',
          entity: 'medicine',
          op: 'upsert',
          entity_id: medicineId,
          payload: { id: medicineId, name: 'Bookol 5 mg', selling_price: 1 },
        },
      ],
    });
    expect(pushed.status).toBe(200);

    await page.goto(central.url);
    await signIn(page, CENTRAL_ADMIN);
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();

    // The dashboard warns, and leads to the Books.
    await page.goto(`${central.url}/back-office/dashboard`);
    const warning = page.getByRole('alert').filter({ hasText: "Books differ from head office's" });
    await expect(warning).toContainText(`Main Branch on ${today} (Front counter 1)`);
    await page.screenshot({ path: 'e2e/screenshots/books-01-dashboard-warning.png', fullPage: true });
    await warning.getByRole('link', { name: 'Open Books' }).click();

    await expect(page.getByRole('heading', { name: 'Books', level: 1 })).toBeVisible();
    const counter = page.getByRole('region', { name: 'Front counter 1' });
    await expect(counter.getByRole('status')).toContainText('The books differ in 2 kinds of record');
    const table = counter.getByRole('table', { name: /Books of Front counter 1 and head office/ });
    await expect(table.getByRole('row', { name: /^Sales/ })).toContainText(
      'Missing at head office: MAIN-3C37-000004',
    );
    await expect(table.getByRole('row', { name: /^Sales/ })).toContainText('1 · 6.84');
    await expect(table.getByRole('row', { name: /^Returns/ })).toContainText('Same');
    await page.screenshot({ path: 'e2e/screenshots/books-02-difference.png', fullPage: true });

    // The refused change is a review item in words on the Head office screen; raw data only under Details.
    await page
      .getByRole('navigation', { name: 'Back office' })
      .getByRole('link', { name: 'Head office' })
      .click();
    const review = page.getByRole('list', { name: 'Changes to review' });
    const item = review.getByRole('listitem').filter({ hasText: 'Medicine Bookol 5 mg' });
    await expect(item).toContainText(
      'Rejected: head office manages these records; make the change at head office.',
    );
    await expect(item.getByText('"selling_price"')).toBeHidden();
    await expect(item.getByRole('button', { name: 'Apply now' })).toHaveCount(0);
    await page.screenshot({ path: 'e2e/screenshots/books-03-review-item.png', fullPage: true });
    await item.getByRole('button', { name: 'Dismiss…' }).click();
    const dismiss = page.getByRole('dialog', { name: 'Dismiss: Medicine Bookol 5 mg' });
    await dismiss.getByRole('button', { name: 'Dismiss' }).click();
    await expect(dismiss.getByRole('alert')).toBeVisible();
    await dismiss.getByLabel('Reason').fill('Price changes are made at head office');
    await dismiss.getByRole('button', { name: 'Dismiss' }).click();
    await expect(dismiss).toBeHidden();
    await expect(page.getByText('Nothing to review.')).toBeVisible();

    // The till's books once the sale landed: the same records on both sides.
    expect((await asTill('/sync/books', { book: book(main, today, []) })).status).toBe(200);
    await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Books' }).click();
    await expect(counter.getByRole('status')).toContainText('The books agree');
    await expect(counter.getByRole('table')).not.toContainText('Missing');
    await page.screenshot({ path: 'e2e/screenshots/books-04-agree.png', fullPage: true });
    await page
      .getByRole('navigation', { name: 'Back office' })
      .getByRole('link', { name: 'Dashboard' })
      .click();
    await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
    await expect(page.getByText("Books differ from head office's")).toHaveCount(0);
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    fs.rmSync(central.dataDir, { recursive: true, force: true });
  }
});

/** A write to a running server's SQLite file behind its back (head office losing a record). */
function writeBehind(dataDir: string, text: string, ...params: unknown[]): void {
  const db = new Database(path.join(dataDir, 'pharmacy.db'));
  db.pragma('busy_timeout = 5000');
  try {
    db.prepare(text).run(...params);
  } finally {
    db.close();
  }
}

test("a connected till's Books and Changes to review: a sale head office refused, sent again once the coupon exists, and the books agree", async ({
  page,
}) => {
  const hqProcess = await startTill({ PHARMACY_MODE: 'central' });
  const central = hqProcess.till;
  let tillProcess: Awaited<ReturnType<typeof startTill>> | undefined;
  try {
    const hq = await Api.admin(central);
    const supplier = await hq.supplier();
    const medicineId = await hq.medicine(supplier, {
      name: 'Bookol 5 mg',
      barcode: '4000000000105',
      price: 5,
      stock: 10,
    });
    const coupon = await hq.call<{ id: string }>('POST', '/coupons', {
      code: 'WELCOME10',
      discount_type: 'fixed',
      discount_value: 1,
    });
    const device = await hq.call<{ device_id: string; device_token: string }>(
      'POST',
      '/sync/devices/register',
      {
        name: 'Front counter 1',
      },
    );
    tillProcess = await startTill({
      PHARMACY_MODE: 'till',
      CENTRAL_URL: central.url,
      SYNC_DEVICE_ID: device.device_id,
      SYNC_DEVICE_TOKEN: device.device_token,
      SYNC_INTERVAL_MS: '300',
    });
    const till = tillProcess.till;
    let api: Api | undefined;
    await expect(async () => {
      api = await Api.login(till, CENTRAL_ADMIN);
      const s = await api.call<{ bootstrapped: boolean }>('GET', '/sync/status');
      expect(s.bootstrapped).toBe(true);
      expect((await api.call<{ items: unknown[] }>('GET', '/coupons')).items).toHaveLength(1);
    }).toPass({ timeout: 60_000 });
    await api!.call('POST', '/sessions/open', { opening_float: 20 });
    // Head office loses the coupon the till still holds; the till sells with it.
    const reader = new Database(path.join(central.dataDir, 'pharmacy.db'), { readonly: true });
    const saved = reader.prepare('SELECT * FROM coupons WHERE id = ?').get(coupon.id) as Record<
      string,
      unknown
    >;
    reader.close();
    writeBehind(central.dataDir, 'DELETE FROM coupons WHERE id = ?', coupon.id);
    const sale = await api!.call<{ invoice_number: string }>('POST', '/sales', {
      items: [{ medicine_id: medicineId, quantity: 2 }],
      payment_lines: [{ method: 'cash', amount: 20 }],
      coupon_code: 'WELCOME10',
    });
    await expect(async () => {
      const s = await api!.call<{ pending: number; rejected: number }>('GET', '/sync/status');
      expect(s).toMatchObject({ pending: 0 });
      expect(s.rejected).toBeGreaterThan(0);
    }).toPass({ timeout: 30_000 });

    await page.goto(till.url);
    await signIn(page, CENTRAL_ADMIN);
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await page.goto(`${till.url}/back-office/head-office`);
    const item = page
      .getByRole('list', { name: 'Changes to review' })
      .getByRole('listitem')
      .filter({ hasText: `Sale ${sale.invoice_number}` });
    await expect(item).toContainText('Rejected: the coupon WELCOME10 is not known at head office.');
    await expect(item.getByRole('button', { name: 'Send again' })).toBeVisible();
    await page.screenshot({ path: 'e2e/screenshots/books-05-till-review.png', fullPage: true });

    const nav = page.getByRole('navigation', { name: 'Back office' });
    await nav.getByRole('link', { name: 'Books' }).click();
    const counter = page.getByRole('region', { name: 'Front counter 1' });
    await expect(counter.getByRole('row', { name: /^Sales/ })).toContainText(
      `Missing at head office: ${sale.invoice_number}`,
    );
    await page.screenshot({ path: 'e2e/screenshots/books-06-till-difference.png', fullPage: true });

    // Head office holds the coupon again; the manager sends the sale again from the till.
    const columns = Object.keys(saved);
    writeBehind(
      central.dataDir,
      `INSERT INTO coupons (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      ...columns.map((c) => saved[c]),
    );
    await nav.getByRole('link', { name: 'Head office' }).click();
    await item.getByRole('button', { name: 'Send again' }).click();
    await expect(item).toBeHidden();
    await nav.getByRole('link', { name: 'Books' }).click();
    await expect(async () => {
      await page.getByRole('button', { name: 'Compare again' }).click();
      await expect(counter.getByRole('status')).toContainText('The books agree', { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await page.screenshot({ path: 'e2e/screenshots/books-07-till-agree.png', fullPage: true });
  } finally {
    if (tillProcess) await stopTill(tillProcess);
    await stopTill(hqProcess);
    for (const dir of [central.dataDir, tillProcess?.till.dataDir])
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
});

import fs from 'node:fs';
import { Api } from './api';
import {
  ADMIN,
  adminReady,
  expect,
  NEW_ADMIN_PASSWORD,
  signIn,
  startTill,
  type Till,
  test,
  testOwnServers,
} from './fixtures';
import { scan } from './till';

const BARCODE = '4000000000037';
const CENTRAL_ADMIN = { email: ADMIN.email, password: NEW_ADMIN_PASSWORD };

test.describe.configure({ timeout: 150_000 });

/** Head office as a real process (PHARMACY_MODE=central) with a medicine in stock at the main branch. */
async function startCentral() {
  const { till: central, child } = await startTill({ PHARMACY_MODE: 'central' });
  const hq = await Api.admin(central);
  const supplier = await hq.supplier();
  await hq.medicine(supplier, { name: 'Centralin 10 mg', barcode: BARCODE, price: 3.5, stock: 10 });
  const stop = async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    fs.rmSync(central.dataDir, { recursive: true, force: true });
  };
  return { central, hq, stop };
}

async function fillConnect(page: import('@playwright/test').Page, url: string, password: string) {
  const form = page.getByRole('form', { name: 'Connect to head office' });
  await form.getByLabel('Central URL').fill(url);
  await form.getByLabel('Email').fill(ADMIN.email);
  await form.getByLabel('Password').fill(password);
  await form.getByLabel('Till name').fill('Front till');
  return form;
}

async function tillStatus(till: Till) {
  const api = await Api.login(till, CENTRAL_ADMIN);
  return api.call<{ configured: boolean; bootstrapped: boolean }>('GET', '/sync/status');
}

test('connect a fresh till from the Head office screen, watch it load, sell, and see the sale on central', async ({
  page,
  till,
}) => {
  const { central, hq, stop } = await startCentral();
  try {
    await adminReady(page);
    // The status bar's Sync entry leads to the Head office section.
    await page.getByRole('link', { name: /Sync: Not set up/ }).click();
    await expect(page.getByRole('heading', { name: 'Head office', level: 1 })).toBeVisible();

    // Bad input first: each says what to fix, and nothing is stored.
    let form = await fillConnect(page, 'http://127.0.0.1:1', NEW_ADMIN_PASSWORD);
    await form.getByRole('button', { name: 'Connect' }).click();
    await expect(form.getByRole('alert')).toContainText('No head office answered at that address');
    await form.getByLabel('Central URL').fill(central.url);
    await form.getByLabel('Password').fill('Wrong#Password-2026');
    await form.getByRole('button', { name: 'Connect' }).click();
    await expect(form.getByRole('alert')).toContainText('refused the sign-in');
    await expect(form.getByText(/refused the sign-in/).last()).toBeVisible();
    await page.screenshot({ path: 'e2e/screenshots/head-office-01-wrong-password.png', fullPage: true });
    await form.getByLabel('Central URL').fill(till.url);
    await form.getByLabel('Password').fill(NEW_ADMIN_PASSWORD);
    await form.getByRole('button', { name: 'Connect' }).click();
    await expect(form.getByRole('alert')).toContainText('not the head office');
    expect((await tillStatus(till)).configured).toBe(false);
    expect((await hq.call<{ total: number }>('GET', '/compliance/devices')).total).toBe(0);

    // The real thing: sign in, pick the branch from head office's list, connect.
    form = await fillConnect(page, central.url, NEW_ADMIN_PASSWORD);
    await form.getByRole('button', { name: 'Sign in and list branches' }).click();
    await form.getByLabel('Branch').selectOption({ label: 'Main Branch (MAIN)' });
    await page.screenshot({ path: 'e2e/screenshots/head-office-02-connect.png', fullPage: true });
    await form.getByRole('button', { name: 'Connect' }).click();
    await expect(page.getByRole('heading', { name: 'Connected to head office' })).toBeVisible();
    await page.screenshot({ path: 'e2e/screenshots/head-office-03-loading.png', fullPage: true });
    // Loading ends with head office's users in place of the till's own: sign in again with the head office account.
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible({ timeout: 60_000 });
    await signIn(page, CENTRAL_ADMIN);
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await page.goto('/back-office/head-office');
    await expect(page.getByRole('status').filter({ hasText: 'Ready to sell' })).toBeVisible({
      timeout: 30_000,
    });
    await expect(page.getByText(central.url)).toBeVisible();
    await page.screenshot({ path: 'e2e/screenshots/head-office-04-connected.png', fullPage: true });
    expect((await hq.call<{ items: { name: string }[] }>('GET', '/compliance/devices')).items).toEqual([
      expect.objectContaining({ name: 'Front till' }),
    ]);

    // Sell the medicine that came from head office.
    const admin = await Api.login(till, CENTRAL_ADMIN);
    await admin.call('POST', '/sessions/open', { opening_float: 20 });
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Sell', level: 1 })).toBeVisible();
    await page.getByRole('heading', { name: 'Sell', level: 1 }).click();
    await scan(page, BARCODE);
    await expect(page.getByRole('table', { name: 'Cart' })).toContainText('Centralin 10 mg');
    await page.keyboard.press('F8');
    const pay = page.getByRole('dialog', { name: 'Payment' });
    await pay.getByLabel('Cash received').fill('5');
    await pay.getByRole('button', { name: 'Complete sale' }).click();
    const done = page.getByRole('dialog', { name: /^Sale / });
    await expect(done).toBeVisible();
    const invoice = ((await done.getByRole('heading').textContent()) ?? '').replace(/^Sale /, '').trim();

    await expect(async () => {
      const sales = await hq.call<{ items: { invoice_number: string }[] }>('GET', '/sales?page_size=50');
      expect(sales.items.map((s) => s.invoice_number)).toContain(invoice);
    }).toPass({ timeout: 30_000 });

    // Disconnect is offered to the admin; with nothing pending it would go through (not done here).
    await page.goto('/back-office/head-office');
    await page.getByRole('button', { name: 'Sync now' }).click();
    await page.getByRole('button', { name: 'Disconnect…' }).click();
    await expect(page.getByRole('dialog', { name: 'Disconnect from head office?' })).toContainText(
      'Every sale made here has reached head office',
    );
    await page.screenshot({ path: 'e2e/screenshots/head-office-05-disconnect.png', fullPage: true });
    await page.getByRole('button', { name: 'Cancel' }).click();
  } finally {
    await stop();
  }
});

testOwnServers(
  'head office lists its registered tills with their branch, with revoke and restore',
  async ({ page }) => {
    const { central, hq, stop } = await startCentral();
    try {
      await hq.call('POST', '/sync/devices/register', { name: 'Back till' });
      await page.goto(central.url);
      await signIn(page, CENTRAL_ADMIN);
      await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
      await page.goto(`${central.url}/back-office/head-office`);
      // The Devices section's list (one component serves both screens).
      const table = page.getByRole('table', { name: 'Registered tills' });
      const row = table.getByRole('row', { name: /Back till/ });
      await expect(row).toContainText('Main Branch');
      await row.getByRole('button', { name: 'Revoke Back till' }).click();
      await expect(row).toContainText('Revoked');
      await page.screenshot({ path: 'e2e/screenshots/head-office-06-central-devices.png', fullPage: true });
      await row.getByRole('button', { name: 'Restore Back till' }).click();
      await expect(row).toContainText('Active');
      const devices = await hq.call<{ items: { status: string }[] }>('GET', '/compliance/devices');
      expect(devices.items[0]?.status).toBe('active');
    } finally {
      await stop();
    }
  },
);

test('disconnect a till with nothing pending: it asks first, forgets head office and offers to connect again', async ({
  page,
  till,
}) => {
  const { central, hq, stop } = await startCentral();
  try {
    // Connected through the API (the test above connects through the screen), then loaded.
    const local = await Api.admin(till);
    await local.call('POST', '/sync/connect', {
      central_url: central.url,
      email: ADMIN.email,
      password: NEW_ADMIN_PASSWORD,
      name: 'Counter till',
    });
    await expect(async () => {
      const s = await (await Api.login(till, CENTRAL_ADMIN)).call<{
        bootstrapped: boolean;
        pending: number;
        last_push_at: string | null;
        last_pull_at: string | null;
      }>('GET', '/sync/status');
      expect(s).toMatchObject({ bootstrapped: true, pending: 0 });
      expect(s.last_push_at).not.toBeNull();
      expect(s.last_pull_at).not.toBeNull();
    }).toPass({ timeout: 60_000 });

    await page.goto('/');
    await signIn(page, CENTRAL_ADMIN);
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await page.goto('/back-office/head-office');
    await expect(page.getByRole('heading', { name: 'Connected to head office' })).toBeVisible();
    // Last push and last pull are two separate times.
    const facts = page.locator('dl.facts');
    await expect(facts.getByText('Last push', { exact: true })).toBeVisible();
    await expect(facts.getByText('Last pull', { exact: true })).toBeVisible();
    for (const term of ['Last push', 'Last pull'])
      await expect(facts.locator(`dt:text-is("${term}") + dd`)).not.toHaveText('—');
    await page.screenshot({ path: 'e2e/screenshots/head-office-07-last-push-pull.png', fullPage: true });

    // An organisation-wide account has no verifier on a connected till (issue 26 H1): the disconnecting admin
    // confirms their password, which head office checks, and the till keeps a verifier for them.
    await page.getByRole('button', { name: 'Disconnect…' }).click();
    const confirm = page.getByRole('dialog', { name: 'Disconnect from head office?' });
    await expect(confirm).toContainText('Every sale made here has reached head office');
    await confirm.getByLabel('Your password').fill('Wrong#Password-2026');
    await confirm.getByRole('button', { name: 'Disconnect' }).click();
    await expect(confirm.getByText('incorrect')).toBeVisible();
    await page.screenshot({ path: 'e2e/screenshots/head-office-08-confirm-disconnect.png', fullPage: true });
    await confirm.getByLabel('Your password').fill(NEW_ADMIN_PASSWORD);
    await confirm.getByRole('button', { name: 'Disconnect' }).click();
    await expect(confirm).toBeHidden();
    const form = page.getByRole('form', { name: 'Connect to head office' });
    await expect(form).toBeVisible();
    await expect(form.getByLabel('Central URL')).toHaveValue('');
    await expect(page.getByRole('link', { name: /Sync: Not set up/ })).toBeVisible();
    await page.screenshot({ path: 'e2e/screenshots/head-office-09-disconnected.png', fullPage: true });

    // The credential is gone: the till reports no connection, and its file was deleted. The admin still signs
    // in here, with no head office to ask.
    const admin = await Api.login(till, CENTRAL_ADMIN);
    const after = await admin.call<{
      configured: boolean;
      central_url: string | null;
      device_id: string | null;
    }>('GET', '/sync/status');
    expect(after).toMatchObject({ configured: false, central_url: null, device_id: null });
    expect(fs.existsSync(`${till.dataDir}/sync-device.json`)).toBe(false);
    // Head office still lists the till until an admin there revokes it.
    expect((await hq.call<{ items: { name: string }[] }>('GET', '/compliance/devices')).items).toEqual([
      expect.objectContaining({ name: 'Counter till' }),
    ]);
  } finally {
    await stop();
  }
});

test('a till that has sold is told what happens to its sales before it connects, archives them, then connects', async ({
  page,
  till,
}) => {
  const { central, stop } = await startCentral();
  try {
    // A single shop sells on its own catalogue before anyone thinks of head office.
    const local = await Api.admin(till);
    const medicine = await local.medicine(await local.supplier(), {
      name: 'Localin 5 mg',
      barcode: '4000000000044',
      price: 2,
      stock: 10,
    });
    await local.call('POST', '/sessions/open', { opening_float: 20 });
    const sold: string[] = [];
    for (let i = 0; i < 2; i++) {
      const sale = await local.call<{ invoice_number: string }>('POST', '/sales', {
        items: [{ medicine_id: medicine, quantity: 1 }],
        payment_lines: [{ method: 'cash', amount: 5 }],
      });
      sold.push(sale.invoice_number);
    }

    await page.goto('/');
    await signIn(page, CENTRAL_ADMIN);
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await page.goto('/back-office/head-office');
    const form = page.getByRole('form', { name: 'Connect to head office' });
    const notice = form.getByRole('region', { name: 'This till has sold' });
    await expect(notice).toContainText('A cash session is open on this till');
    await local.call('POST', '/sessions/close', { counted_cash: 24 });
    await page.reload();
    await expect(notice).toContainText(`2 sales (${sold[0]} to ${sold[1]})`);
    await expect(notice).toContainText('Archive them first');
    await fillConnect(page, central.url, NEW_ADMIN_PASSWORD);
    await form.getByRole('button', { name: 'Connect' }).click();
    await expect(form.getByRole('alert')).toContainText('This till holds 2 sales');
    await page.screenshot({ path: 'e2e/screenshots/head-office-10-till-has-sold.png', fullPage: true });

    await notice.getByRole('button', { name: "Archive this till's records" }).click();
    await expect(form.getByRole('status')).toContainText('Archived 2 sales');
    await page.screenshot({ path: 'e2e/screenshots/head-office-11-archived.png', fullPage: true });
    await form.getByRole('button', { name: 'Connect' }).click();
    await expect(page.getByRole('heading', { name: 'Connected to head office' })).toBeVisible();
  } finally {
    await stop();
  }
});

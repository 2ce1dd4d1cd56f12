import fs from 'node:fs';
import { Api } from './api';
import { ADMIN, expect, NEW_ADMIN_PASSWORD, signIn, startTill, test } from './fixtures';

const CENTRAL_ADMIN = { email: ADMIN.email, password: NEW_ADMIN_PASSWORD };

test.describe.configure({ timeout: 150_000 });

/**
 * Issue 28.1 on the screen: a coupon made on a connected till's Coupons screen is made at head office and
 * listed at the till; with head office gone, the form says why it cannot save, beside the form.
 */
test('28.1: Coupons on a connected till: made at head office, and offline the form says so in words', async ({
  page,
  till,
}) => {
  const { till: central, child } = await startTill({ PHARMACY_MODE: 'central' });
  const hq = await Api.admin(central);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    fs.rmSync(central.dataDir, { recursive: true, force: true });
  };
  try {
    const local = await Api.admin(till);
    await local.call('POST', '/sync/connect', {
      central_url: central.url,
      email: ADMIN.email,
      password: NEW_ADMIN_PASSWORD,
      name: 'Front counter 1',
    });
    await expect(async () => {
      const s = await (await Api.login(till, CENTRAL_ADMIN)).call<{ bootstrapped: boolean }>(
        'GET',
        '/sync/status',
      );
      expect(s.bootstrapped).toBe(true);
    }).toPass({ timeout: 60_000 });

    await page.goto('/');
    await signIn(page, CENTRAL_ADMIN);
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await page.goto('/back-office/coupons');
    await expect(page.getByRole('heading', { name: 'Coupons', level: 1 })).toBeVisible();

    const create = async (code: string) => {
      await page.getByRole('button', { name: 'New coupon' }).click();
      const dialog = page.getByRole('dialog', { name: 'New coupon' });
      await dialog.getByLabel('Code').fill(code);
      await dialog.getByLabel('Percent off').fill('10');
      await dialog.getByRole('button', { name: 'Create coupon' }).click();
      return dialog;
    };
    const made = await create('WELCOME10');
    await expect(made).toBeHidden();
    await expect(page.getByRole('table', { name: 'Coupons' })).toContainText('WELCOME10');
    const atCentral = await hq.call<{ items: { code: string }[] }>('GET', '/coupons');
    expect(atCentral.items.map((c) => c.code)).toContain('WELCOME10');
    await page.screenshot({ path: 'e2e/screenshots/central-owned-01-coupon-made-at-head-office.png' });

    await stop();
    const refused = await create('LATER5');
    const alert = refused.getByRole('alert');
    await expect(alert).toContainText(
      'Coupons are managed by head office; this till is offline — try again when it is connected.',
    );
    await expect(alert).toBeInViewport();
    await page.screenshot({ path: 'e2e/screenshots/central-owned-02-offline-refusal.png' });
  } finally {
    await stop();
  }
});

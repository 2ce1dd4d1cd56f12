import { expect, test } from '@playwright/test';
import { Api } from './api';
import { ADMIN, NEW_ADMIN_PASSWORD, signIn, startTill, type Till } from './fixtures';
import { openBackOffice } from './manager-api';

/** Head office (`npm run central`'s mode) with the built UI: its own process and data folder. */
const central = test.extend<{ hq: Till }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  hq: async ({}, use) => {
    const { till, child } = await startTill({ PHARMACY_MODE: 'central' });
    await use(till);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  },
});

async function push(hq: Till, device: { device_id: string; device_token: string }) {
  return fetch(`${hq.url}/api/v1/sync/push`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-device-token': device.device_token,
      'x-app-version': '0.1.0',
    },
    body: JSON.stringify({ device_id: device.device_id, changes: [] }),
  });
}

central('head office sees the registered tills, revokes one and restores it', async ({ page, hq }) => {
  const admin = await Api.admin(hq);
  const kko = await admin.call<{ id: string }>('POST', '/branches', { name: 'Kariakoo', code: 'KKO' });
  const till1 = await admin.call<{ device_id: string; device_token: string }>(
    'POST',
    '/sync/devices/register',
    {
      name: 'Main till 1',
    },
  );
  await admin.call('POST', '/sync/devices/register', { name: 'Kariakoo till', branch_id: kko.id });
  // Till 1 has synced once (its version and last-seen time are recorded); the Kariakoo till never has.
  expect((await push(hq, till1)).status).toBe(200);

  await page.goto(`${hq.url}/`);
  await signIn(page, { email: ADMIN.email, password: NEW_ADMIN_PASSWORD });
  await openBackOffice(page);
  const nav = page.getByRole('navigation', { name: 'Back office' });
  await nav.getByRole('link', { name: 'Devices' }).click();
  await expect(page.getByRole('heading', { name: 'Devices', level: 1 })).toBeVisible();
  const table = page.getByRole('table', { name: 'Registered tills' });
  const row = table.getByRole('row', { name: /Main till 1/ });
  await expect(row).toContainText('Main Branch');
  await expect(row).toContainText('0.1.0');
  await expect(row).toContainText('Active');
  await expect(table.getByRole('row', { name: /Kariakoo till/ })).toContainText('Never');

  await row.getByRole('button', { name: 'Revoke Main till 1' }).click();
  await expect(row).toContainText('Revoked');
  expect((await push(hq, till1)).status).toBe(403);
  await page.screenshot({ path: 'e2e/screenshots/manager-12-devices.png', fullPage: true });
  await row.getByRole('button', { name: 'Restore Main till 1' }).click();
  await expect(row).toContainText('Active');
  expect((await push(hq, till1)).status).toBe(200);

  // One branch's tills.
  await page.getByLabel('Branch', { exact: true }).selectOption({ label: 'Kariakoo' });
  await expect(table.getByRole('row')).toHaveCount(2);
});

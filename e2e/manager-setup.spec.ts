import { Api } from './api';
import { expect, signIn, test } from './fixtures';
import { adminSignsIn, figure, MANAGER, openBackOffice } from './manager-api';
import type { Page } from '@playwright/test';

async function openSection(page: Page, name: string) {
  await page
    .getByRole('navigation', { name: 'Back office' })
    .getByRole('link', { name, exact: true })
    .click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
}

test('a manager creates, validates, edits and deactivates a coupon', async ({ page, till }) => {
  const admin = await Api.admin(till);
  await admin.createUser(MANAGER);
  await page.goto('/');
  await signIn(page, MANAGER);
  await openBackOffice(page);
  await openSection(page, 'Coupons');

  await page.getByRole('button', { name: 'New coupon' }).click();
  const dialog = page.getByRole('dialog', { name: 'New coupon' });
  await dialog.getByLabel('Code').fill('welcome10');
  await dialog.getByLabel('Percent off').fill('150');
  await dialog.getByLabel('Largest discount (cap)').fill('5');
  await dialog.getByLabel('Usage limit').fill('100');
  await dialog.getByLabel('Limit per customer').fill('1');
  await dialog.getByRole('button', { name: 'Create coupon' }).click();
  // The server's message beside the field; what was typed stays.
  await expect(dialog.locator('.field-error').first()).toBeVisible();
  await expect(dialog.getByLabel('Code')).toHaveValue('welcome10');
  await dialog.getByLabel('Percent off').fill('10');
  await dialog.getByRole('button', { name: 'Create coupon' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row', { name: /WELCOME10/ });
  await expect(row).toContainText('Percent');
  await expect(row).toContainText('10.00 %');
  await expect(row).toContainText('0 / 100');
  await expect(row).toContainText('Active');

  const check = page.getByRole('form', { name: 'Validate a code' });
  await check.getByLabel('Coupon code').fill('welcome10');
  await check.getByLabel('Basket subtotal').fill('80');
  await check.getByRole('button', { name: 'Validate' }).click();
  // A limit per customer needs the customer to count against.
  await expect(check.getByRole('status')).toHaveText(
    'WELCOME10 does not apply (it has a limit per customer: choose the customer).',
  );
  await page.screenshot({ path: 'e2e/screenshots/manager-08-coupons.png', fullPage: true });

  await row.getByRole('button', { name: 'Edit WELCOME10' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit WELCOME10' });
  await expect(edit.getByLabel('Limit per customer')).toHaveValue('1');
  await edit.getByLabel('Limit per customer').fill('');
  await edit.getByLabel('Percent off').fill('15');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText('15.00 %');
  await check.getByRole('button', { name: 'Validate' }).click();
  // 15 % of 80 is 12, capped at 5.
  await expect(check.getByRole('status')).toHaveText('WELCOME10 applies: 5.00 off.');
  await row.getByRole('button', { name: 'Deactivate WELCOME10' }).click();
  await expect(row).toContainText('Inactive');
  await check.getByRole('button', { name: 'Validate' }).click();
  await expect(check.getByRole('status')).toHaveText('WELCOME10 does not apply (inactive).');

  const stored = await admin.call<{
    items: Array<{
      code: string;
      discount_value: string;
      is_active: boolean;
      per_customer_limit: number | null;
    }>;
  }>('GET', '/coupons');
  expect(stored.items).toEqual([
    expect.objectContaining({
      code: 'WELCOME10',
      discount_value: '15.00',
      is_active: false,
      per_customer_limit: null,
    }),
  ]);
});

test('admin files exchange rates with effective dates; the history and the FX tolerance show', async ({
  page,
  till,
}) => {
  const admin = await Api.admin(till);
  await admin.createUser(MANAGER);
  await adminSignsIn(page);
  await openBackOffice(page);
  await openSection(page, 'Currencies');
  const registry = page.getByRole('table', { name: 'Currency registry' });
  await expect(registry.getByRole('row', { name: /KWD/ })).toContainText('3');
  await expect(registry.getByRole('row', { name: /USD/ })).toContainText('Base');
  const money = page.getByRole('region', { name: 'Money settings' });
  await expect(figure(money, 'FX tolerance')).toHaveText('2 %');
  await expect(figure(money, 'Base currency')).toHaveText('USD');

  for (const [rate, day] of [
    ['1.08', '2026-01-05'],
    ['1.1', '2026-02-01'],
  ] as const) {
    await page.getByRole('button', { name: 'Add a rate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add an exchange rate' });
    await dialog.getByLabel('From', { exact: true }).selectOption('EUR');
    await dialog.getByLabel('To', { exact: true }).selectOption('USD');
    await dialog.getByLabel('Rate').fill(rate === '1.1' ? '-1' : rate);
    await dialog.getByLabel('Effective from').fill(day);
    await dialog.getByRole('button', { name: 'Add rate' }).click();
    if (rate === '1.1') {
      await expect(dialog.locator('.field-error')).toBeVisible();
      await dialog.getByLabel('Rate').fill(rate);
      await dialog.getByRole('button', { name: 'Add rate' }).click();
    }
    await expect(dialog).toBeHidden();
  }
  await page.getByLabel('From currency').selectOption('EUR');
  const rates = page.getByRole('table', { name: 'Exchange rates' });
  await expect(rates.getByRole('row')).toHaveCount(3);
  // Newest effective first: the history of the pair.
  await expect(rates.getByRole('row').nth(1)).toContainText('1.1');
  await expect(rates.getByRole('row').nth(2)).toContainText('1.08');
  await page.screenshot({ path: 'e2e/screenshots/manager-10-currencies.png', fullPage: true });
  const filed = await admin.call<{ items: Array<{ rate: string; effective_at: string }> }>(
    'GET',
    '/currency/rates?from_code=EUR',
  );
  expect(filed.items.map((r) => r.effective_at.slice(0, 10))).toEqual(['2026-02-01', '2026-01-05']);

  // A branch manager reads the same page; the write button stays, disabled, and says who can.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await signIn(page, MANAGER);
  await openBackOffice(page);
  await openSection(page, 'Currencies');
  await expect(page.getByRole('table', { name: 'Exchange rates' }).getByRole('row')).toHaveCount(3);
  await expect(page.getByRole('button', { name: 'Add a rate' })).toBeDisabled();
});

test('admin publishes an announcement that a branch manager then reads', async ({ page, till }) => {
  const admin = await Api.admin(till);
  await admin.createUser(MANAGER);
  await adminSignsIn(page);
  await openBackOffice(page);
  await openSection(page, 'Announcements');
  await page.getByRole('button', { name: 'New announcement' }).click();
  const dialog = page.getByRole('dialog', { name: 'New announcement' });
  await dialog.getByLabel('Title').fill('All branches close at noon on 9 December');
  await dialog.getByLabel('Text').fill('Independence Day.\nTills stay signed in; cash up before noon.');
  await dialog.getByLabel('Version (release notes)').fill('not a version!');
  await dialog.getByRole('button', { name: 'Publish' }).click();
  await expect(dialog.getByText('must be a version such as 1.4.0', { exact: true })).toBeVisible();
  await dialog.getByLabel('Version (release notes)').fill('');
  await dialog.getByRole('button', { name: 'Publish' }).click();
  await expect(dialog).toBeHidden();
  const entry = page.getByRole('article', { name: 'All branches close at noon on 9 December' });
  await expect(entry).toContainText('Announcement');
  await expect(entry).toContainText('cash up before noon');
  await page.screenshot({ path: 'e2e/screenshots/manager-11-announcements.png', fullPage: true });
  const stored = await admin.call<{ items: Array<{ title: string; kind: string; version: string | null }> }>(
    'GET',
    '/changelog',
  );
  expect(stored.items[0]).toMatchObject({
    title: 'All branches close at noon on 9 December',
    kind: 'announcement',
    version: null,
  });

  await page.getByRole('button', { name: 'Sign out' }).click();
  await signIn(page, MANAGER);
  await openBackOffice(page);
  await openSection(page, 'Announcements');
  await expect(page.getByRole('article', { name: 'All branches close at noon on 9 December' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New announcement' })).toBeDisabled();
});

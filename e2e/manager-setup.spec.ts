import { Api } from './api';
import { expect, signIn, test } from './fixtures';
import { MANAGER, openBackOffice } from './manager-api';
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

import { Api } from './api';
import { expect, signIn, test } from './fixtures';
import { CASHIER, MANAGER } from './manager-api';

const SHOTS = 'e2e/screenshots';

test('a cashier is warned of a duplicate customer and opens the existing one; a manager edits credit terms', async ({
  page,
  till,
}) => {
  await page.setViewportSize({ width: 1024, height: 600 });
  const admin = await Api.admin(till);
  await admin.createUser(CASHIER);
  await admin.createUser(MANAGER);

  await page.goto('/');
  await signIn(page, CASHIER);
  await expect(page.getByRole('heading', { name: 'Sell', level: 1 })).toBeVisible();
  await page.keyboard.press('F3');
  await expect(page.getByRole('heading', { name: 'Customers', level: 1 })).toBeVisible();

  // The first Amina Hassan is created and opened.
  await page.getByRole('button', { name: 'New customer' }).click();
  let dialog = page.getByRole('dialog', { name: 'New customer' });
  await dialog.getByLabel('Customer name').fill('Amina Hassan');
  await dialog.getByLabel('Customer phone').fill('0712345678');
  await dialog.getByRole('button', { name: 'Create customer' }).click();
  await expect(page.getByRole('heading', { name: 'Amina Hassan', level: 2 })).toBeVisible();

  // The same person again, the phone spaced differently: a warning, and the existing record opens.
  await page.getByRole('button', { name: 'New customer' }).click();
  dialog = page.getByRole('dialog', { name: 'New customer' });
  await dialog.getByLabel('Customer name').fill('Amina Hassan');
  await dialog.getByLabel('Customer phone').fill('0712 345 678');
  await dialog.getByRole('button', { name: 'Create customer' }).click();
  const warning = dialog.getByRole('alert', { name: 'Possible duplicate customer' });
  await expect(warning).toContainText('A customer with the same phone number or name already exists');
  await expect(warning).toContainText('0712345678');
  await page.screenshot({ path: `${SHOTS}/customers-01-duplicate-warning.png` });
  await warning.getByRole('button', { name: 'Use existing Amina Hassan' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('table', { name: 'Customers' }).getByRole('row')).toHaveCount(2);

  // The cashier edits the details; the credit terms are the manager's, and say so.
  await page.getByRole('button', { name: 'Edit customer' }).click();
  let edit = page.getByRole('dialog', { name: 'Edit customer Amina Hassan' });
  await expect(edit.getByLabel('Credit limit')).toBeDisabled();
  await expect(edit.getByText('Only a branch manager or an admin can change credit terms.')).toBeVisible();
  await edit.getByLabel('National ID').fill('NID-7788');
  await page.screenshot({ path: `${SHOTS}/customers-02-edit-as-cashier.png` });
  await edit.getByRole('button', { name: 'Save customer' }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByText('NID-7788')).toBeVisible();

  // The manager grants credit; a failed save keeps the dialog and what was typed, the reason beside the field.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await signIn(page, MANAGER);
  await expect(page.getByRole('heading', { name: 'Sell', level: 1 })).toBeVisible();
  await page.keyboard.press('F3');
  await page.getByLabel('Search customers').fill('Amina');
  await page.getByRole('button', { name: 'Amina Hassan' }).click();
  await page.getByRole('button', { name: 'Edit customer' }).click();
  edit = page.getByRole('dialog', { name: 'Edit customer Amina Hassan' });
  await edit.getByLabel('Credit allowed').check();
  await edit.getByLabel('Credit limit').fill('50');
  await edit.getByLabel('Name', { exact: true }).fill('');
  await edit.getByRole('button', { name: 'Save customer' }).click();
  await expect(edit.getByLabel('Name', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(edit.getByLabel('Credit limit')).toHaveValue('50');
  await edit.getByLabel('Name', { exact: true }).fill('Amina Hassan');
  await page.screenshot({ path: `${SHOTS}/customers-03-edit-credit-as-manager.png` });
  await edit.getByRole('button', { name: 'Save customer' }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByText('Allowed up to 50.00')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/customers-04-credit-granted.png` });
});

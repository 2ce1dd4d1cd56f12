import { Api } from './api';
import { expect, signIn, test } from './fixtures';
import { MANAGER, openBackOffice } from './manager-api';
import { scan } from './till';

const PANADOL = '4000000000273';

/**
 * Issue 27.4 end to end: a branch manager sets the currencies the branch's drawer holds in Back office →
 * Branches (keyboard only; the server's refusal shows beside the field), then sells at the till for euros in
 * cash and gives the change in euros, on screen and on the receipt.
 */
test("27.4: a branch manager sets the drawer's currencies in the back office, and a EUR cash sale gets its change in EUR", async ({
  page,
  till,
}) => {
  const admin = await Api.admin(till);
  await admin.createUser(MANAGER);
  await admin.call('POST', '/currency/rates', {
    from_code: 'EUR',
    rate: '1.25',
    effective_at: '2026-01-01T00:00:00Z',
  });
  const supplier = await admin.supplier();
  await admin.medicine(supplier, { name: 'Panadol Drawer', barcode: PANADOL, price: 11.8, stock: 10 });
  const manager = await Api.login(till, MANAGER);
  await manager.call('POST', '/sessions/open', { opening_float: 50 });
  const branchUrl = `/branches/${manager.branchId}`;
  expect((await manager.call<{ drawer_currencies: string[] }>('GET', branchUrl)).drawer_currencies).toEqual(
    [],
  );

  await page.goto('/');
  await signIn(page, MANAGER);
  await expect(page.getByRole('heading', { name: 'Sell', level: 1 })).toBeVisible();
  await openBackOffice(page);
  await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Branches' }).click();
  await expect(page.getByRole('heading', { name: 'Branches', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Edit Main Branch' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Main Branch' });
  const drawer = dialog.getByRole('group', { name: 'Currencies held in the drawer' });
  await expect(drawer).toBeVisible();
  const eur = drawer.getByRole('checkbox', { name: 'EUR — Euro' });
  const gbp = drawer.getByRole('checkbox', { name: 'GBP — Pound Sterling' });
  await expect(eur).not.toBeChecked();
  // The base currency is in every drawer: it is not offered.
  await expect(drawer.getByRole('checkbox', { name: /^USD/ })).toHaveCount(0);
  await expect(drawer).toContainText('any other foreign currency gets its change in USD');

  // Keyboard only: Space ticks, Shift+Tab moves back to the euro, Enter on the button saves.
  await gbp.focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('Shift+Tab');
  await expect(eur).toBeFocused();
  await page.keyboard.press('Space');
  await expect(eur).toBeChecked();
  await expect(gbp).toBeChecked();
  // Meanwhile head office withdraws the pound: the server refuses it, beside the field, and writes nothing.
  await admin.call('PATCH', '/currency/GBP', { is_active: false });
  const save = dialog.getByRole('button', { name: 'Save changes' });
  await save.focus();
  await page.keyboard.press('Enter');
  const error = drawer.getByText('GBP: not an active currency');
  await expect(error).toBeVisible();
  await expect(drawer).toHaveAttribute('aria-describedby', /-error/);
  await expect(gbp).toHaveAttribute('aria-invalid', 'true');
  expect((await manager.call<{ drawer_currencies: string[] }>('GET', branchUrl)).drawer_currencies).toEqual(
    [],
  );
  await drawer.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: 'e2e/screenshots/drawer-currencies-1-refused.png' });

  await gbp.focus();
  await page.keyboard.press('Space');
  await expect(gbp).not.toBeChecked();
  await save.focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  expect((await manager.call<{ drawer_currencies: string[] }>('GET', branchUrl)).drawer_currencies).toEqual([
    'EUR',
  ]);
  await page.getByRole('button', { name: 'Edit Main Branch' }).click();
  await expect(eur).toBeChecked();
  await drawer.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: 'e2e/screenshots/drawer-currencies-2-saved.png' });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // At the till: 11.80 USD is 9.44 EUR at 1.25; 10.00 EUR in cash; the drawer holds euros, so 0.56 EUR back.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Sell/ }).click();
  await expect(page.getByRole('heading', { name: 'Sell', level: 1 })).toBeVisible();
  await page.getByRole('heading', { name: 'Sell', level: 1 }).click();
  await scan(page, PANADOL);
  await expect(page.getByRole('status', { name: 'Total' })).toContainText('11.80');
  await page.keyboard.press('F8');
  const pay = page.getByRole('dialog', { name: 'Payment' });
  await pay.getByLabel('Currency').selectOption('EUR');
  await expect(pay.getByText('Total due: 9.44 EUR')).toBeVisible();
  await pay.getByLabel('Cash received').fill('10');
  await expect(pay.getByRole('status', { name: 'Change' })).toHaveText('0.56');
  await expect(pay.getByText(/Change is given in USD/)).toHaveCount(0);
  await page.screenshot({ path: 'e2e/screenshots/drawer-currencies-3-payment.png' });
  await pay.getByRole('button', { name: 'Complete sale' }).click();

  const done = page.getByRole('dialog', { name: /^Sale / });
  await expect(done.getByText('Change due: 0.56 EUR')).toBeVisible();
  const receipt = done.getByRole('figure', { name: 'Receipt preview' });
  await expect(receipt).toContainText(/TOTAL EUR\s+9\.44/);
  await expect(receipt).toContainText(/Change EUR\s+0\.56/);
  await expect(receipt).toContainText(/Rate\s+1 EUR = 1\.25 USD/);
  // Bring the receipt's change line into view for the screenshot.
  await receipt.locator('pre').evaluate((pre) => {
    const lines = (pre.textContent ?? '').split('\n');
    const at = lines.findIndex((l) => l.startsWith('Change'));
    for (const box of [pre, pre.parentElement])
      if (box && box.scrollHeight > box.clientHeight)
        box.scrollTop = Math.max(0, (at / lines.length) * box.scrollHeight - box.clientHeight / 2);
  });
  await page.screenshot({ path: 'e2e/screenshots/drawer-currencies-4-change-in-eur.png' });
  const sales = await manager.call<{ items: Array<Record<string, unknown>> }>('GET', '/sales');
  expect(sales.items[0]).toMatchObject({
    currency_code: 'EUR',
    total_amount: '9.44',
    change_currency_code: 'EUR',
    change_given: '0.56',
  });
});

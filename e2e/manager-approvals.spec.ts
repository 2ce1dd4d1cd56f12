import { Api } from './api';
import { expect, signIn, test } from './fixtures';
import { CASHIER, MANAGER, openBackOffice, seedShop } from './manager-api';
import { scan } from './till';

test("a manager approves a cashier's discount request from the till, and the till's sale goes through", async ({
  browser,
  page,
  till,
}) => {
  const shop = await seedShop(till);
  const cathy = await Api.login(till, CASHIER);
  // Her cash session is already open (seedShop sold through it).

  // The cashier, at the till: a 40 % discount on two packs, above the 10 % a cashier may give alone.
  await page.goto('/');
  await signIn(page, CASHIER);
  await expect(page.getByRole('heading', { name: 'Sell', level: 1 })).toBeVisible();
  await page.getByRole('heading', { name: 'Sell', level: 1 }).click();
  await scan(page, '4006381333931');
  await scan(page, '4006381333931');
  await expect(page.getByLabel('Quantity of Daypara 500')).toHaveValue('2');
  await page.getByLabel('Discount on Daypara 500').fill('2');
  await page.keyboard.press('F8');
  const pay = page.getByRole('dialog', { name: 'Payment' });
  await pay.getByRole('button', { name: 'Rest in cash' }).click();
  await pay.getByRole('button', { name: 'Complete sale' }).click();
  await expect(pay.getByRole('alert')).toContainText("needs a manager's approval");
  await pay.getByLabel('Reason for the discount').fill('Regular customer, damaged box');
  await pay.getByRole('button', { name: 'Ask a manager to approve' }).click();
  await expect(pay.getByRole('status').filter({ hasText: 'Waiting for a manager' })).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/manager-06-till-asks-approval.png' });

  // The manager, at the back office of the same till, in another window.
  const managerContext = await browser.newContext({ baseURL: till.url });
  const manager = await managerContext.newPage();
  await manager.goto('/');
  await signIn(manager, MANAGER);
  await openBackOffice(manager);
  await manager
    .getByRole('navigation', { name: 'Back office' })
    .getByRole('link', { name: 'Approvals' })
    .click();
  await expect(manager.getByRole('heading', { name: 'Approvals', level: 1 })).toBeVisible();
  const row = manager.getByRole('row', { name: /Cathy Cashier/ });
  await expect(row).toContainText('A discount of at most 2.00 USD on 2 × Daypara 500');
  await expect(row).toContainText('Regular customer, damaged box');
  await manager.screenshot({ path: 'e2e/screenshots/manager-05-approvals-inbox.png', fullPage: true });
  await row.getByRole('button', { name: 'Approve the request of Cathy Cashier' }).click();
  const decide = manager.getByRole('dialog', { name: 'Approve the request' });
  await decide.getByLabel('Reason for your decision').fill('Known customer');
  await decide.getByRole('button', { name: 'Approve' }).click();
  await expect(decide).toBeHidden();
  await expect(manager.getByText('No requests are waiting.')).toBeVisible();
  await manager.getByLabel('Show').selectOption({ label: 'All (history)' });
  await expect(manager.getByRole('row', { name: /Cathy Cashier/ })).toContainText(
    'Approved by Mona Manager: Known customer',
  );

  // Back at the till: approved, and the sale goes through with the discount.
  await expect(pay.getByRole('status').filter({ hasText: 'Approved by Mona Manager' })).toBeVisible({
    timeout: 15_000,
  });
  await pay.getByRole('button', { name: /Complete sale|Try again/ }).click();
  const done = page.getByRole('dialog', { name: /^Sale / });
  await expect(done).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/manager-07-till-sale-approved.png' });
  const sales = await cathy.call<{ items: Array<{ total_amount: string; line_discount_amount: string }> }>(
    'GET',
    '/sales?page_size=1',
  );
  expect(sales.items[0]?.total_amount).toBe('3.00');
  const used = await cathy.call<{ items: Array<{ status: string }> }>('GET', '/approvals?status=used');
  expect(used.items).toHaveLength(1);
  expect(shop.sales.length).toBe(6);
  await managerContext.close();
});

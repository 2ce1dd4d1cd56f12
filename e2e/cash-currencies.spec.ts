import { Api } from './api';
import { expect, signIn, test } from './fixtures';

const CASHIER = {
  email: 'cash.fx@pharmacy.local',
  password: 'Cash#2026-fx-till!',
  full_name: 'Faraji Cash',
  role: 'cashier',
};

test('27.3, 27.4: the Cash session screen shows takings and expected cash per currency and payments on account, and the close counts each currency', async ({
  page,
  till,
}, testInfo) => {
  const admin = await Api.admin(till);
  await admin.createUser(CASHIER);
  await admin.call('POST', '/currency/rates', {
    from_code: 'EUR',
    rate: '1.25',
    effective_at: '2026-01-01T00:00:00Z',
  });
  const supplier = await admin.supplier();
  const med = await admin.medicine(supplier, {
    name: 'Panadol FX',
    barcode: '4000000000105',
    price: 11.8,
    stock: 20,
  });
  const customer = await admin.call<{ id: string }>('POST', '/customers', {
    name: 'Zawadi Account',
    credit_limit: 100,
    is_credit_allowed: true,
  });
  const cashier = await Api.login(till, CASHIER);
  await cashier.call('POST', '/sessions/open', { opening_float: 50 });
  const items = [{ medicine_id: med, quantity: 1 }];
  await cashier.call('POST', '/sales', {
    items,
    payment_lines: [{ method: 'cash', amount: 20 }],
    print_receipt: false,
  });
  await cashier.call('POST', '/sales', {
    items,
    currency_code: 'EUR',
    payment_lines: [{ method: 'cash', amount: 10 }],
    print_receipt: false,
  });
  await cashier.call('POST', '/sales', {
    items,
    customer_id: customer.id,
    payment_lines: [{ method: 'credit', amount: 11.8 }],
    print_receipt: false,
  });
  await cashier.call('POST', `/customers/${customer.id}/payments`, { amount: 5, method: 'cash' });

  await page.setViewportSize({ width: 1024, height: 600 });
  await page.goto('/');
  await signIn(page, CASHIER);
  await expect(page.getByRole('heading', { name: 'Sell', level: 1 })).toBeVisible();
  await page.keyboard.press('F6');
  await expect(page.getByRole('heading', { name: 'Cash session', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'X-report (session still open)' })).toBeVisible();

  const takings = page.getByRole('table', { name: 'Takings by currency' });
  // This drawer holds no euros, so the EUR sale's change (0.56 EUR) was given as 0.70 USD (issue 27.4):
  // 20.00 - 8.20 - 0.70 + 5.00 on account = 16.10 USD; the whole 10.00 EUR = 12.50 USD at 1.25 stays in the drawer
  await expect(takings.getByRole('row', { name: /Cash USD/ })).toContainText('16.10');
  const eur = takings.getByRole('row', { name: /Cash EUR/ });
  await expect(eur).toContainText('1.25');
  await expect(eur).toContainText('10.00');
  await expect(eur).toContainText('12.50');
  await expect(takings.getByRole('row', { name: /Customer credit USD/ })).toContainText('11.80');
  const expected = page.getByRole('table', { name: 'Expected cash by currency' });
  await expect(expected.getByRole('row', { name: /^USD/ })).toContainText('66.10');
  await expect(expected.getByRole('row', { name: /EUR at 1\.25/ })).toContainText('10.00');
  const account = page.getByRole('table', { name: 'Payments on account' });
  await expect(account.getByRole('row', { name: /Paid on account \(1\)/ })).toContainText('5.00');
  const drawer = page.getByRole('table', { name: 'Cash drawer' });
  await expect(drawer.getByRole('row', { name: /Cash paid on account/ })).toContainText('5.00');
  // 50.00 float + 11.80 USD + 11.80 (the EUR at its rate) + 5.00 paid on account
  await expect(drawer.getByRole('row', { name: /Expected cash/ })).toContainText('78.60');
  await takings.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/screenshots/cash-currencies-1024x600.png' });
  await page.screenshot({ path: testInfo.outputPath('cash-currencies-full.png'), fullPage: true });

  // The close counts each currency the drawer holds: 66.10 USD, and 9.00 EUR (one euro short).
  const close = page.getByRole('form', { name: 'Close the session' });
  await expect(close.getByText('Count the drawer in each currency it holds.')).toBeVisible();
  await close.getByLabel('Counted cash USD').fill('66.10');
  await close.getByLabel('Counted cash EUR').fill('9');
  await close.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/screenshots/cash-currencies-close-count.png' });
  await close.getByRole('button', { name: 'Close session' }).click();
  await expect(page.getByText('Session closed. Keep the Z-report with the cash.')).toBeVisible();
  const counted = page.getByRole('table', { name: 'Counted cash by currency' });
  await expect(counted.getByRole('row', { name: /^USD/ })).toContainText('66.10');
  const eurCount = counted.getByRole('row', { name: /^EUR at 1\.25/ });
  await expect(eurCount).toContainText('10.00');
  await expect(eurCount).toContainText('9.00');
  await expect(eurCount).toContainText('-1.00');
  await expect(eurCount).toContainText('-1.25');
  await expect(
    page.getByRole('table', { name: 'Cash drawer' }).getByRole('row', { name: /Variance/ }),
  ).toContainText('-1.25');
  await counted.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/screenshots/cash-currencies-z-counted.png' });
});

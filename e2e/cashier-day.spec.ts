import {
  LOGIN_INTERACTIVE_MARK,
  SCAN_DETECTED_TO_LINE_MEASURE,
  SCAN_TO_LINE_MEASURE,
} from '../apps/pos/src/auth/marks';
import { Api } from './api';
import { expect, signIn, test } from './fixtures';
import { lastMeasure, scan } from './till';

const CASHIER = {
  email: 'cathy@pharmacy.local',
  password: 'Cathy#2026-till',
  full_name: 'Cathy Cashier',
  role: 'cashier',
};
const PARA = '4006381333931';
const SYRUP = '5012345678900';

test("a cashier's whole day: session, scans, split payment, park and recall, a return, the Z-report", async ({
  page,
  till,
}, testInfo) => {
  const admin = await Api.admin(till);
  await admin.createUser(CASHIER);
  const supplier = await admin.supplier();
  await admin.medicine(supplier, {
    name: 'Daypara 500',
    generic_name: 'Paracetamol',
    strength: '500 mg',
    form: 'tablet',
    barcode: PARA,
    price: 2.5,
    stock: 50,
  });
  await admin.medicine(supplier, {
    name: 'Daycough Syrup',
    generic_name: 'Dextromethorphan',
    strength: '15 mg/5 ml',
    form: 'syrup',
    barcode: SYRUP,
    price: 6,
    stock: 20,
    vat_category: 'zero',
  });

  await page.goto('/');
  await expect(page.getByLabel('Email')).toBeFocused();
  const interactiveMs = await page.evaluate(
    (mark) => performance.getEntriesByName(mark)[0]?.startTime ?? -1,
    LOGIN_INTERACTIVE_MARK,
  );
  console.log(`login page interactive ${interactiveMs.toFixed(0)} ms after navigation (target < 1500 ms)`);
  testInfo.annotations.push({ type: 'login-interactive-ms', description: interactiveMs.toFixed(0) });
  await signIn(page, CASHIER);
  await expect(page.getByRole('heading', { name: 'Sell', level: 1 })).toBeVisible();
  await expect(page.getByText('No cash session is open.')).toBeVisible();
  const status = page.getByRole('contentinfo');
  await expect(status).toContainText('No cash session');

  // Open the session with a float (F6).
  await page.keyboard.press('F6');
  await expect(page.getByRole('heading', { name: 'Cash session', level: 1 })).toBeVisible();
  await page.getByLabel('Opening float').fill('100');
  await page.getByRole('button', { name: 'Open session' }).click();
  await expect(page.getByRole('heading', { name: 'Session open' })).toBeVisible();
  await expect(status).toContainText('Open');
  await page.getByRole('button', { name: 'Start break' }).click();
  await expect(status).toContainText('On break');
  await page.getByRole('button', { name: 'End break' }).click();
  await expect(status).toContainText('Open');

  // Scan (focus on the page, not in a field): two packs of paracetamol, one syrup.
  await page.keyboard.press('F1');
  await expect(page.getByRole('heading', { name: 'Sell', level: 1 })).toBeVisible();
  await page.getByRole('heading', { name: 'Sell', level: 1 }).click();
  const cart = page.getByRole('table', { name: 'Cart' });
  const timings: string[] = [];
  const measure = async (what: string) => {
    const total = await lastMeasure(page, SCAN_TO_LINE_MEASURE);
    const till = await lastMeasure(page, SCAN_DETECTED_TO_LINE_MEASURE);
    timings.push(`${what}: first key → line ${total.toFixed(1)} ms, Enter → line ${till.toFixed(1)} ms`);
    return { total, till };
  };
  await scan(page, PARA);
  await expect(cart.getByRole('row', { name: /Daypara 500/ })).toBeVisible();
  await measure('first scan (cold server route), 5 ms/key');
  await scan(page, PARA, 0);
  await expect(page.getByLabel('Quantity of Daypara 500')).toHaveValue('2');
  const fast = await measure('same pack again, burst without delay');
  await scan(page, SYRUP);
  await expect(cart.getByRole('row', { name: /Daycough Syrup/ })).toBeVisible();
  const warm = await measure('another medicine, 5 ms/key');
  console.log(`wedge scan to cart line (target < 50 ms):\n  ${timings.join('\n  ')}`);
  testInfo.annotations.push({ type: 'scan-to-line-ms', description: fast.total.toFixed(1) });
  testInfo.annotations.push({ type: 'scan-enter-to-line-ms', description: warm.till.toFixed(1) });
  const scanTillMs = warm.till;
  expect(scanTillMs).toBeGreaterThan(0);

  // A line discount; the estimate follows.
  await page.getByLabel('Discount on Daypara 500').fill('0.4');
  const total = page.getByRole('status', { name: 'Total' });
  await expect(total).toContainText('10.60');
  await page.screenshot({ path: testInfo.outputPath('10-cart.png') });

  // Split tender: 4 by card, 10 in cash; change 3.40 (6.60 paid in cash, enough to refund the syrup in cash).
  await page.keyboard.press('F8');
  const pay = page.getByRole('dialog', { name: 'Payment' });
  await expect(pay.getByText('Total due: 10.60')).toBeVisible();
  await pay.getByLabel('Card').fill('4');
  await pay.getByLabel('Cash received').fill('10');
  await expect(pay.getByRole('status', { name: 'Change' })).toHaveText('3.40');
  await page.screenshot({ path: testInfo.outputPath('11-payment.png') });
  await pay.getByRole('button', { name: 'Complete sale' }).click();
  const done = page.getByRole('dialog', { name: /^Sale / });
  await expect(done).toBeVisible();
  const invoice = ((await done.getByRole('heading').textContent()) ?? '').replace(/^Sale /, '').trim();
  expect(invoice).toMatch(/^[A-Z0-9]+-[A-Z0-9]+-\d+$/);
  await expect(done.getByText('Change due: 3.40')).toBeVisible();
  const receipt = done.getByRole('figure', { name: 'Receipt preview' });
  await expect(receipt).toContainText(new RegExp(`Invoice\\s+${invoice}`));
  await expect(receipt).toContainText('Daypara 500');
  await expect(receipt).toContainText(/TOTAL \w+\s+10\.60/);
  await expect(receipt).toContainText(/Card\s+4\.00/);
  await expect(receipt).toContainText(/Change \w+\s+3\.40/);
  await done.getByRole('button', { name: 'Print receipt' }).click();
  await expect(done.getByRole('status').filter({ hasText: /Print|print/ })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('12-receipt.png') });
  await done.getByRole('button', { name: 'New sale' }).click();
  await expect(cart.getByRole('row')).toHaveCount(1);

  // Park a cart, then recall it and sell it.
  await page.getByRole('heading', { name: 'Sell', level: 1 }).click();
  await scan(page, SYRUP);
  await expect(cart.getByRole('row', { name: /Daycough Syrup/ })).toBeVisible();
  await page.keyboard.press('F10');
  const park = page.getByRole('dialog', { name: 'Park or recall a cart' });
  await park.getByLabel('Cart label').fill('Red coat');
  await park.getByRole('button', { name: 'Park cart' }).click();
  await expect(park).toBeHidden();
  await expect(cart.getByRole('row')).toHaveCount(1);
  await page.keyboard.press('F10');
  await park.getByRole('button', { name: 'Recall Red coat' }).click();
  await expect(park).toBeHidden();
  await expect(cart.getByRole('row', { name: /Daycough Syrup/ })).toBeVisible();
  await page.getByRole('button', { name: /Pay/ }).click();
  await pay.getByRole('button', { name: 'Rest in cash' }).click();
  await pay.getByRole('button', { name: 'Complete sale' }).click();
  await expect(done.getByText('Change due: 0.00')).toBeVisible();
  await done.getByRole('button', { name: 'New sale' }).click();

  // Return the syrup of the first sale, refunded in cash.
  await page.keyboard.press('F2');
  await expect(page.getByRole('heading', { name: 'Returns', level: 1 })).toBeVisible();
  await page.getByLabel('Invoice number').fill(invoice);
  await page.getByRole('button', { name: 'Find sale' }).click();
  await page.getByLabel('Return quantity of Daycough Syrup').fill('1');
  await page.getByLabel('Condition of Daycough Syrup').selectOption('resaleable');
  await page.getByLabel('Refund method').selectOption({ label: 'Cash' });
  await page.getByRole('button', { name: 'Make return' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Credit note' })).toContainText(
    /CN-[A-Z0-9-]+.*6\.00/,
  );
  await page.screenshot({ path: testInfo.outputPath('13-return.png') });

  // Close with the counted cash: 100 float + 6.60 + 6.00 cash sales - 6.00 refund = 106.60.
  await page.keyboard.press('F6');
  await page.getByLabel('Counted cash').fill('106.5');
  const check = page.getByRole('form', { name: 'Close the session' });
  await expect(check.getByText('Expected106.60')).toBeVisible();
  await expect(check.getByText('Variance-0.10')).toBeVisible();
  await page.getByRole('button', { name: 'Close session' }).click();
  await expect(page.getByRole('heading', { name: /^Z-report No\. \d+$/ })).toBeVisible();
  await expect(status).toContainText('No cash session');
  const summary = page.getByRole('definition').filter({ hasText: /^2$/ });
  await expect(summary.first()).toBeVisible();
  const byMethod = page.getByRole('table', { name: 'Sales by payment method' });
  await expect(byMethod.getByRole('row', { name: /Cash/ })).toContainText('12.60');
  await expect(byMethod.getByRole('row', { name: /Card/ })).toContainText('4.00');
  const drawer = page.getByRole('table', { name: 'Cash drawer' });
  await expect(drawer.getByRole('row', { name: /Opening float/ })).toContainText('100.00');
  await expect(drawer.getByRole('row', { name: /Cash refunds/ })).toContainText('6.00');
  await expect(drawer.getByRole('row', { name: /Expected cash/ })).toContainText('106.60');
  await expect(drawer.getByRole('row', { name: /Counted cash/ })).toContainText('106.50');
  await expect(drawer.getByRole('row', { name: /Variance/ })).toContainText('-0.10');
  const other = page.getByRole('table', { name: 'Discounts and returns' });
  await expect(other.getByRole('row', { name: /Line discounts/ })).toContainText('0.40');
  await expect(other.getByRole('row', { name: /Returns \(1\)/ })).toContainText('6.00');
  await page.getByRole('button', { name: 'Print report' }).click();
  await expect(page.getByRole('status').filter({ hasText: /Print|print/ })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('14-z-report.png'), fullPage: true });
});

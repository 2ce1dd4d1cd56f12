import { formatMoney } from '../packages/contracts/src/money';
import { Api } from './api';
import { expect, signIn, test } from './fixtures';
import { AUDITOR, adminSignsIn, CASHIER, figure, MANAGER, openBackOffice, seedShop } from './manager-api';

type Summary = {
  date: string;
  today_revenue: string;
  today_sales_count: number;
  today_vat: string;
  low_stock_count: number;
  expiring_90_count: number;
};
type Totals = { totals: { net_revenue: string; sales_count: number; vat: string; average_sale: string } };

test("a branch manager lands on the dashboard, whose figures are the API's", async ({ page, till }) => {
  const shop = await seedShop(till);
  const mona = await Api.login(till, MANAGER);
  const summary = await mona.call<Summary>('GET', '/dashboard/summary');
  const month = await mona.call<Totals>(
    'GET',
    `/reports/sales?from_date=${summary.date.slice(0, 8)}01&to_date=${summary.date}`,
  );
  // Main sold twice today (the manager's branch); Kariakoo's sale is not in the manager's figures.
  expect(summary.today_sales_count).toBe(2);
  const mainToday = shop.sales.slice(0, 2);
  expect(summary.today_revenue).toBe(
    formatMoney(String(mainToday.reduce((sum, s) => sum + Number(s.total_amount) * 100, 0) / 100), 2),
  );

  await page.goto('/');
  await signIn(page, MANAGER);
  await openBackOffice(page);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  const today = page.getByRole('region', { name: 'Today' });
  await expect(figure(today, 'Net revenue')).toHaveText(formatMoney(summary.today_revenue, 2));
  await expect(figure(today, 'Sales')).toHaveText(String(summary.today_sales_count));
  await expect(figure(today, 'VAT')).toHaveText(formatMoney(summary.today_vat, 2));
  const thisMonth = page.getByRole('region', { name: 'This month' });
  await expect(figure(thisMonth, 'Net revenue')).toHaveText(formatMoney(month.totals.net_revenue, 2));
  await expect(figure(thisMonth, 'Sales')).toHaveText(String(month.totals.sales_count));
  await expect(figure(thisMonth, 'Average basket')).toHaveText(formatMoney(month.totals.average_sale, 2));
  await expect(figure(thisMonth, 'VAT')).toHaveText(formatMoney(month.totals.vat, 2));
  const stock = page.getByRole('region', { name: 'Stock' });
  await expect(figure(stock, 'Low stock')).toHaveText(String(summary.low_stock_count));
  await expect(figure(stock, 'Expiring in 90 days')).toHaveText(String(summary.expiring_90_count));
  await expect(page.getByRole('figure', { name: 'Revenue, last 30 days' }).locator('canvas')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Top sellers' })).toContainText('Daypara 500');
  // No organisation-wide branch filter for a branch-bound manager.
  await expect(page.getByLabel('Branch', { exact: true })).toHaveCount(0);
  await page.screenshot({ path: 'e2e/screenshots/manager-01-dashboard.png', fullPage: true });
});

test('the branch comparison ranks the branches by revenue, with their shares', async ({ page, till }) => {
  const shop = await seedShop(till);
  const ranking = await shop.admin.call<{
    items: Array<{ rank: number; branch_name: string; revenue: string; share_pct: number }>;
  }>('GET', '/dashboard/branch-comparison');
  expect(ranking.items.map((b) => b.branch_name)).toEqual(['Main Branch', 'Kariakoo']);

  await adminSignsIn(page);
  await openBackOffice(page);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  // Devices is head office's section: a till's back office has no such link, even for the admin.
  await expect(
    page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Devices' }),
  ).toHaveCount(0);
  const table = page.getByRole('table', { name: 'Branch comparison' });
  const rows = table.getByRole('row');
  await expect(rows).toHaveCount(3);
  for (const [i, b] of ranking.items.entries()) {
    const row = rows.nth(i + 1);
    await expect(row.getByRole('cell').nth(0)).toHaveText(String(b.rank));
    await expect(row.getByRole('cell').nth(1)).toHaveText(b.branch_name);
    await expect(row.getByRole('cell').nth(2)).toHaveText(formatMoney(b.revenue, 2));
    await expect(row.getByRole('cell').nth(4)).toHaveText(`${b.share_pct.toFixed(1)} %`);
  }
  const chart = page.getByRole('figure', { name: 'Branch comparison, last 30 days' });
  await expect(chart.locator('canvas')).toBeVisible();
  // Labelled axes, no legend for a single series, and the value of the bar under the cursor (issue 29).
  await expect(chart.locator('.u-legend')).toHaveCount(0);
  const plot = await chart.locator('.u-over').boundingBox();
  await page.mouse.move(plot!.x + plot!.width * 0.25, plot!.y + plot!.height * 0.6);
  const tip = chart.locator('output');
  await expect(tip).toContainText(ranking.items[0]!.share_pct.toFixed(1));
  await expect(tip).toContainText(formatMoney(ranking.items[0]!.revenue, 2));
  await chart.screenshot({ path: 'e2e/screenshots/manager-02b-chart-hover.png' });
  // The organisation's figures, then one branch's.
  const today = page.getByRole('region', { name: 'Today' });
  await expect(figure(today, 'Sales')).toHaveText('3');
  await page.getByLabel('Branch', { exact: true }).selectOption({ label: 'Kariakoo' });
  await expect(figure(today, 'Sales')).toHaveText('1');
  await page.screenshot({ path: 'e2e/screenshots/manager-02-branch-comparison.png', fullPage: true });
});

test('an auditor sees the dashboard, reports, approvals and coupons, with no write buttons', async ({
  page,
  till,
}) => {
  const shop = await seedShop(till);
  await shop.admin.createUser(AUDITOR);
  await shop.admin.call('POST', '/coupons', { code: 'AUDIT5', discount_type: 'fixed', discount_value: 5 });
  const cathy = await Api.login(till, CASHIER);
  await cathy.call('POST', '/approvals', {
    kind: 'discount',
    payload: { medicine_id: shop.para, quantity: 1, max_discount: 1 },
    reason: 'Loyal customer',
  });
  await page.goto('/');
  await signIn(page, AUDITOR);
  await openBackOffice(page);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(figure(page.getByRole('region', { name: 'Today' }), 'Sales')).toHaveText('3');
  const nav = page.getByRole('navigation', { name: 'Back office' });
  await nav.getByRole('link', { name: 'Reports' }).click();
  await expect(figure(page.getByRole('region', { name: 'Sales totals' }), 'Sales')).toHaveText('6');
  await nav.getByRole('link', { name: 'Approvals' }).click();
  const row = page.getByRole('row', { name: /Cathy Cashier/ });
  await expect(row).toContainText('A discount of at most 1.00 USD on 1 × Daypara 500');
  await expect(page.getByRole('button', { name: /Approve|Reject/ })).toHaveCount(0);
  await nav.getByRole('link', { name: 'Coupons' }).click();
  await expect(page.getByRole('row', { name: /AUDIT5/ })).toContainText('Fixed amount');
  await expect(page.getByRole('button', { name: /New coupon|Edit|Deactivate/ })).toHaveCount(0);
  // Validating a code changes nothing: an auditor may.
  await expect(page.getByRole('button', { name: 'Validate' })).toBeVisible();
});

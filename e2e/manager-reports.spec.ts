import fs from 'node:fs';
import { addDecimals, formatMoney } from '../packages/contracts/src/money';
import { expect, test } from './fixtures';
import { adminSignsIn, figure, openBackOffice, seedShop } from './manager-api';
import type { Page } from '@playwright/test';

async function openReports(page: Page, tab: string) {
  await openBackOffice(page);
  await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Reports' }).click();
  await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
  await page.getByRole('navigation', { name: 'Reports' }).getByRole('link', { name: tab }).click();
}

/** RFC 4180 rows (no quoted commas in these reports' numbers and dates, but quotes are honoured). */
function parseCsv(text: string): string[][] {
  return text
    .split(/\r\n/)
    .filter(Boolean)
    .map((line) =>
      [...line.matchAll(/("([^"]|"")*"|[^,]*)(,|$)/g)]
        .slice(0, -1)
        .map((m) => m[1]!.replace(/^"|"$/g, '').replaceAll('""', '"')),
    );
}

test("the VAT report's totals equal the sum of the sales' VAT, one row per rate", async ({ page, till }) => {
  const shop = await seedShop(till);
  const vatOfSales = addDecimals(shop.sales.map((s) => s.vat_amount));
  const report = await shop.admin.call<{ items: Array<{ vat_collected: string }> }>('GET', '/reports/vat');
  expect(
    addDecimals(
      report.items.map((m) => m.vat_collected),
      2,
    ),
  ).toBe(formatMoney(vatOfSales, 2));

  await adminSignsIn(page);
  await openReports(page, 'VAT');
  const totals = page.getByRole('region', { name: 'VAT totals' });
  await expect(figure(totals, 'VAT collected')).toHaveText(formatMoney(vatOfSales, 2));
  await expect(figure(totals, 'Sales')).toHaveText(String(shop.sales.length));
  // Paracetamol at the standard 18 %, the syrup zero-rated: two rates, highest first, adding up to the total.
  const byRate = page.getByRole('table', { name: 'VAT by rate' });
  await expect(byRate.getByRole('row')).toHaveCount(3);
  await expect(byRate.getByRole('row').nth(1).getByRole('cell').first()).toHaveText('18 %');
  await expect(byRate.getByRole('row').nth(1).getByRole('cell').nth(2)).toHaveText(
    formatMoney(vatOfSales, 2),
  );
  await expect(byRate.getByRole('row').nth(2).getByRole('cell').first()).toHaveText('0 %');
  await page.screenshot({ path: 'e2e/screenshots/manager-03-vat-report.png', fullPage: true });

  // One branch: Kariakoo's two sales only.
  await page.getByLabel('Branch', { exact: true }).selectOption({ label: 'Kariakoo' });
  const kko = shop.sales.filter((s) => s.branch_id === shop.otherId);
  await expect(figure(totals, 'Sales')).toHaveText(String(kko.length));
  await expect(figure(totals, 'VAT collected')).toHaveText(
    formatMoney(addDecimals(kko.map((s) => s.vat_amount)), 2),
  );
});

test('a CSV download is a real file whose rows match the table', async ({ page, till }) => {
  await seedShop(till);
  await adminSignsIn(page);
  await openReports(page, 'Sales');
  const table = page.getByRole('table', { name: 'Sales by day' });
  await expect(table.getByRole('row')).toHaveCount(31);
  await expect(page.getByRole('figure', { name: 'Net revenue by day' }).locator('canvas')).toBeVisible();
  await expect(page.getByRole('figure', { name: 'Payment mix' }).locator('canvas')).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/manager-04-sales-report.png', fullPage: true });

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV of Sales by day' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^sales-by_day-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
  const file = await download.path();
  const rows = parseCsv(fs.readFileSync(file, 'utf8'));
  expect(rows[0]).toEqual(['date', 'sales_count', 'gross_revenue', 'returns', 'net_revenue', 'vat']);
  const body = rows.slice(1);
  expect(body).toHaveLength(30);
  const shown = await table
    .getByRole('row')
    .evaluateAll((trs) =>
      trs.slice(1).map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
    );
  expect(shown).toEqual(
    body.map(([date, n, gross, returns, net, vat]) => [
      date,
      n,
      formatMoney(gross, 2),
      formatMoney(returns, 2),
      formatMoney(net, 2),
      formatMoney(vat, 2),
    ]),
  );
  expect(body.reduce((n, r) => n + Number(r[1]), 0)).toBe(6);
  await expect(page.getByRole('status').filter({ hasText: /Saved sales-by_day.*\(30 rows\)/ })).toBeVisible();

  // The payment mix section downloads its own rows.
  const second = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV of Sales by payment method' }).click();
  const mix = parseCsv(fs.readFileSync(await (await second).path(), 'utf8'));
  expect(mix[0]).toEqual(['method', 'sales_count', 'refunds', 'total']);
  await expect(page.getByRole('table', { name: 'Sales by payment method' }).getByRole('row')).toHaveCount(
    mix.length,
  );
});

test('inventory, purchases and sales by pharmacist show what the API holds', async ({ page, till }) => {
  const shop = await seedShop(till);
  const inventory = await shop.admin.call<{ total_units: number; total_value: string }>(
    'GET',
    '/reports/inventory',
  );
  const purchases = await shop.admin.call<{ total_spend: string; batch_count: number }>(
    'GET',
    '/reports/purchases',
  );
  await adminSignsIn(page);
  await openReports(page, 'Inventory');
  const stock = page.getByRole('region', { name: 'Inventory totals' });
  await expect(figure(stock, 'Units')).toHaveText(String(inventory.total_units));
  await expect(figure(stock, 'Value at selling price')).toHaveText(formatMoney(inventory.total_value, 2));
  // No date window on a stock valuation.
  await expect(page.getByLabel('From', { exact: true })).toHaveCount(0);
  await page.screenshot({ path: 'e2e/screenshots/manager-13-inventory-report.png', fullPage: true });

  await page.getByRole('navigation', { name: 'Reports' }).getByRole('link', { name: 'Purchases' }).click();
  const bought = page.getByRole('region', { name: 'Purchases totals' });
  await expect(figure(bought, 'Spend')).toHaveText(formatMoney(purchases.total_spend, 2));
  await expect(figure(bought, 'Batches received')).toHaveText(String(purchases.batch_count));
  await expect(page.getByRole('table', { name: 'Purchases by supplier' })).toContainText('E2E Distributors');

  await page
    .getByRole('navigation', { name: 'Reports' })
    .getByRole('link', { name: 'By pharmacist' })
    .click();
  const sellers = page.getByRole('table', { name: 'Sales by pharmacist' });
  await expect(
    sellers
      .getByRole('row', { name: /Cathy Cashier/ })
      .getByRole('cell')
      .nth(2),
  ).toHaveText('4');
  await expect(
    sellers
      .getByRole('row', { name: /Kim Kariakoo/ })
      .getByRole('cell')
      .nth(2),
  ).toHaveText('2');
  await page.screenshot({ path: 'e2e/screenshots/manager-14-by-pharmacist.png', fullPage: true });
});

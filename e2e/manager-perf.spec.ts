import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { DASHBOARD_CHART_MARK } from '../apps/pos/src/dashboard/marks';
import { Api } from './api';
import { ADMIN, NEW_ADMIN_PASSWORD, signIn, startTill } from './fixtures';

/**
 * The dashboard over a 1,000,000-sale history renders in under 1 s from navigation to chart. Skipped unless
 * E2E_LARGE=1 (generating the history takes minutes): E2E_LARGE_DATA_DIR names a folder laid down by
 * `npm run generate:sales -- --sales 1000000 --branches 20 --years 2 --data-dir DIR`; without it the spec
 * generates one under the temp folder once and reuses it.
 *
 *   E2E_LARGE=1 E2E_LARGE_DATA_DIR=/tmp/pharmacy-1m npx playwright test e2e/manager-perf.spec.ts --workers=1
 */
test.skip(!process.env.E2E_LARGE, 'set E2E_LARGE=1 to measure the dashboard over 1,000,000 sales');

const ROOT = path.resolve(import.meta.dirname, '..');

function largeHistory(): string {
  const dir = process.env.E2E_LARGE_DATA_DIR ?? path.join(os.tmpdir(), 'pharmacy-e2e-1m-sales');
  if (!fs.existsSync(path.join(dir, 'pharmacy.db'))) {
    fs.mkdirSync(dir, { recursive: true });
    execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'bench/generate-sales.ts',
        '--sales',
        '1000000',
        '--branches',
        '20',
        '--years',
        '2',
        '--data-dir',
        dir,
      ],
      { cwd: ROOT, stdio: 'inherit' },
    );
  }
  return dir;
}

test('the dashboard over 1,000,000 sales draws its chart within a second of navigation', async ({
  page,
}, testInfo) => {
  test.setTimeout(20 * 60_000);
  const dataDir = largeHistory();
  const { till, child } = await startTill({ DATA_DIR: dataDir });
  try {
    const admin = await Api.admin({ url: till.url, dataDir });
    const sales = await admin.call<{ totals: { sales_count: number } }>(
      'GET',
      `/reports/sales?from_date=${new Date(Date.now() - 3 * 365 * 86_400_000).toISOString().slice(0, 10)}`,
    );
    console.log(`history: ${sales.totals.sales_count} sales`);
    expect(sales.totals.sales_count).toBeGreaterThanOrEqual(900_000);

    await page.goto(`${till.url}/`);
    await signIn(page, { email: ADMIN.email, password: NEW_ADMIN_PASSWORD });
    await expect(page.getByRole('heading', { name: 'Sell', level: 1 })).toBeVisible();
    const measure = async () => {
      await page.evaluate(() => {
        performance.clearMarks();
        performance.mark('navigation');
      });
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: /Back office/ })
        .click();
      await page.waitForFunction((m) => performance.getEntriesByName(m).length > 0, DASHBOARD_CHART_MARK, {
        timeout: 30_000,
      });
      const chart = await page.evaluate(
        (m) =>
          performance.getEntriesByName(m)[0]!.startTime -
          performance.getEntriesByName('navigation')[0]!.startTime,
        DASHBOARD_CHART_MARK,
      );
      await expect(page.getByRole('table', { name: 'Branch comparison' }).getByRole('row')).toHaveCount(21);
      await expect(page.getByRole('table', { name: 'Top sellers' }).getByRole('row').nth(1)).toBeVisible();
      const all = await page.evaluate(
        () => performance.now() - performance.getEntriesByName('navigation')[0]!.startTime,
      );
      return { chart, all };
    };
    const first = await measure();
    await page.keyboard.press('F1');
    await expect(page.getByRole('heading', { name: 'Sell', level: 1 })).toBeVisible();
    // A second visit, past the first minute's cache (a fresh page: nothing kept in the browser).
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Sell', level: 1 })).toBeVisible();
    const second = await measure();
    console.log(
      `dashboard over 1M sales (whole organisation, 20 branches): navigation → revenue chart ${first.chart.toFixed(0)} ms (again ${second.chart.toFixed(0)} ms); every panel loaded ${first.all.toFixed(0)} ms (again ${second.all.toFixed(0)} ms); target < 1000 ms`,
    );
    testInfo.annotations.push({ type: 'dashboard-chart-ms', description: first.chart.toFixed(0) });
    await page.screenshot({ path: 'e2e/screenshots/manager-09-dashboard-1m-sales.png', fullPage: true });
    expect(first.chart).toBeLessThan(1000);
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
});

/// <reference lib="dom" />
import { Api } from './api';
import { expect, NEW_ADMIN_PASSWORD, signIn, startTill, testOwnServers as test } from './fixtures';

/**
 * Issue 17's figure: a page of the Medicines table renders in under 200 ms with the large demo catalogue.
 * Opt-in, so CI stays fast: seed a data folder with `npm run seed:demo -- --size large --data-dir <dir>`, then
 * `E2E_LARGE=1 E2E_LARGE_DATA_DIR=<dir> npx playwright test e2e/inventory-perf.spec.ts --workers=1`.
 * Measured in the page: from the "Next page" click to the new rows in the DOM and the next frame.
 */
test.skip(
  !process.env.E2E_LARGE || !process.env.E2E_LARGE_DATA_DIR,
  'set E2E_LARGE=1 and E2E_LARGE_DATA_DIR',
);

test('a page of 100,000 medicines renders in under 200 ms', async ({ page }) => {
  const { till, child } = await startTill({ DATA_DIR: process.env.E2E_LARGE_DATA_DIR! });
  try {
    await Api.admin(till);
    await page.goto(`${till.url}/`);
    await signIn(page, { email: 'admin@pharmacy.local', password: NEW_ADMIN_PASSWORD });
    await expect(page.getByRole('heading', { name: 'Sell', level: 1 })).toBeVisible();
    await page.getByRole('link', { name: /Back office/ }).click();
    await page
      .getByRole('navigation', { name: 'Back office' })
      .getByRole('link', { name: 'Medicines' })
      .click();
    const table = page.getByRole('table', { name: 'Medicines' });
    await expect(table.getByRole('row')).toHaveCount(51);
    await expect(page.locator('.pager')).toContainText('(100000 medicines)');
    const times: number[] = [];
    for (let n = 2; n <= 11; n++) {
      const ms = await page.evaluate(async () => {
        const body = document.querySelector('table[aria-label="Medicines"] tbody')!;
        const before = body.querySelector('tr')?.textContent;
        const next = [...document.querySelectorAll<HTMLButtonElement>('.pager button')].at(-1)!;
        const start = performance.now();
        next.click();
        await new Promise<void>((resolve) => {
          const o = new MutationObserver(() => {
            if (body.querySelector('tr')?.textContent !== before) {
              o.disconnect();
              resolve();
            }
          });
          o.observe(body, { subtree: true, childList: true, characterData: true });
        });
        await new Promise((r) => requestAnimationFrame(() => r(null)));
        return performance.now() - start;
      });
      times.push(Math.round(ms));
    }
    await page.screenshot({ path: 'e2e/screenshots/inventory-07-large-catalogue.png', fullPage: false });
    const sorted = [...times].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    console.log(
      `Medicines page render, 100,000 medicines: median ${median} ms, max ${sorted.at(-1)} ms (${times.join(', ')})`,
    );
    test.info().annotations.push({ type: 'page render ms', description: times.join(', ') });
    expect(median).toBeLessThan(200);
  } finally {
    child.kill('SIGTERM');
  }
});

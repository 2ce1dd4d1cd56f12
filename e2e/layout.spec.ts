import type { Page } from '@playwright/test';
import { Api } from './api';
import { ADMIN, expect, NEW_ADMIN_PASSWORD, signIn, test } from './fixtures';
import { scan } from './till';

/**
 * Counter PCs are often 1024×600 touch screens: every till screen and set-up screen fits the width without
 * horizontal scrolling there and on a 1920×1080 monitor (screenshots of each under e2e/screenshots/layout-*).
 */
const SCREENS = [
  { path: '/sell', heading: 'Sell' },
  { path: '/returns', heading: 'Returns' },
  { path: '/customers', heading: 'Customers' },
  { path: '/prescriptions', heading: 'Prescriptions' },
  { path: '/cash', heading: 'Cash session' },
  { path: '/back-office/printers', heading: 'Printers' },
  { path: '/back-office/scanners', heading: 'Scanners' },
  { path: '/back-office/head-office', heading: 'Head office' },
];
const SIZES = [
  { width: 1024, height: 600 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
];

/** The rows the main navigation takes (its links' distinct tops): one on every screen size (issue 29). */
function navRows(page: Page) {
  return page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link')
    .evaluateAll((links) => new Set(links.map((l) => Math.round(l.getBoundingClientRect().top))).size);
}

/** What sticks out past the right edge of the window, by its tag and text (empty: nothing). */
function overflowing(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > width)
      out.push(`page ${document.documentElement.scrollWidth}px`);
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > width + 1)
        out.push(
          `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}" ends at ${Math.round(r.right)}px`,
        );
    }
    // A table wider than the column it sits in runs under its neighbour (the cart under the totals).
    for (const table of document.querySelectorAll('table')) {
      const parent = table.parentElement?.getBoundingClientRect();
      const r = table.getBoundingClientRect();
      if (parent && r.width > 0 && r.right > parent.right + 1)
        out.push(
          `table "${table.getAttribute('aria-label') ?? ''}" ends at ${Math.round(r.right)}px, its column at ${Math.round(parent.right)}px`,
        );
    }
    return out.slice(0, 5);
  });
}

test('every till and set-up screen fits 1024×600 and 1920×1080 without horizontal scrolling', async ({
  page,
  till,
}) => {
  test.setTimeout(150_000);
  const admin = await Api.admin(till);
  const supplier = await admin.supplier();
  await admin.medicine(supplier, {
    name: 'Paracetamol 500 mg tablets, pack of 100 (long name)',
    generic_name: 'Paracetamol',
    barcode: '4000000000006',
    price: 12.5,
    stock: 20,
  });
  await page.goto('/');
  await signIn(page, { email: ADMIN.email, password: NEW_ADMIN_PASSWORD });
  await expect(page.getByRole('heading', { name: 'Sell', level: 1 })).toBeVisible();
  // A cart with a line, so the selling screen shows its table next to the totals.
  await scan(page, '4000000000006');
  await expect(page.getByRole('table', { name: 'Cart' })).toContainText('Paracetamol');
  // Each screen is loaded once and measured at every size by resizing the window: the sizes run in turn from
  // the one the window has (up, then down), so a screen costs its resizes, not a reload per size.
  let sizes = SIZES;
  for (const screen of SCREENS) {
    await page.goto(screen.path);
    await expect(page.getByRole('heading', { name: screen.heading, level: 1 })).toBeVisible();
    for (const size of sizes) {
      await page.setViewportSize(size);
      expect(await overflowing(page), `${screen.path} at ${size.width}×${size.height}`).toEqual([]);
      expect(await navRows(page), `navigation rows at ${size.width}×${size.height}`).toBe(1);
      const name = screen.path.split('/').at(-1);
      await page.screenshot({ path: `e2e/screenshots/layout-${size.width}-${name}.png`, fullPage: true });
    }
    sizes = sizes.toReversed();
  }
});

/** An EAN-13 with its check digit, from its first twelve digits. */
function ean13(first12: string): string {
  const sum = [...first12].reduce((acc, d, i) => acc + Number(d) * (i % 2 ? 3 : 1), 0);
  return `${first12}${(10 - (sum % 10)) % 10}`;
}

/** How far the page scrolls: 0 when everything fits the window. */
const pageScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollHeight - document.documentElement.clientHeight);

/** Whether an element lies wholly inside the window. */
async function inWindow(page: Page, name: string, box: { y: number; height: number } | null) {
  const viewport = page.viewportSize();
  expect(box, `${name} is laid out`).not.toBeNull();
  expect(box!.y, `${name} starts inside the window`).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height, `${name} ends inside the window`).toBeLessThanOrEqual(viewport!.height);
}

test('the sell flow fits a 1024×600 counter screen: six cart lines, the totals, Pay and Complete sale', async ({
  page,
  till,
}) => {
  const admin = await Api.admin(till);
  const supplier = await admin.supplier();
  const names = [
    'Amoxicillin 250 mg capsules',
    'Cetirizine 10 mg',
    'Daypara 500',
    'Ferrous sulfate',
    'Gaviscon liquid 200 ml',
    'Ibuprofen 400 mg tablets, pack of 24 (long name)',
  ];
  for (const [i, name] of names.entries())
    await admin.medicine(supplier, { name, barcode: ean13(`4000000001${i}0`), price: 2 + i, stock: 50 });
  await admin.call('POST', '/sessions/open', { opening_float: 20 });
  await page.setViewportSize({ width: 1024, height: 600 });
  await page.goto('/');
  await signIn(page, { email: ADMIN.email, password: NEW_ADMIN_PASSWORD });
  await expect(page.getByRole('heading', { name: 'Sell', level: 1 })).toBeVisible();
  for (const name of names) {
    const search = page.getByRole('combobox', { name: 'Search medicines' });
    await search.fill(name.slice(0, 8));
    await expect(page.getByRole('option', { name: new RegExp(name.slice(0, 8)) })).toBeVisible();
    await search.press('Enter');
  }
  await expect(page.getByRole('table', { name: 'Cart' }).getByRole('row')).toHaveCount(7);
  expect(await pageScroll(page), 'the sell screen scrolls').toBe(0);
  for (const row of await page.getByRole('table', { name: 'Cart' }).getByRole('row').all())
    await inWindow(page, `cart row ${await row.textContent()}`, await row.boundingBox());
  await inWindow(
    page,
    'Total',
    await page
      .getByRole('status', { name: 'Total' })
      .or(page.getByLabel('Total', { exact: true }))
      .first()
      .boundingBox(),
  );
  const pay = page.getByRole('button', { name: /Pay/ });
  await inWindow(page, 'Pay', await pay.boundingBox());
  await page.screenshot({ path: 'e2e/screenshots/layout-1024x600-sell-six-lines.png' });
  await pay.click();
  const dialog = page.getByRole('dialog', { name: /Payment/ });
  const complete = dialog.getByRole('button', { name: 'Complete sale' });
  await inWindow(page, 'Complete sale', await complete.boundingBox());
  await page.screenshot({ path: 'e2e/screenshots/layout-1024x600-payment.png' });
  // Raising a line above the stock on hand shows the shortfall as it is typed, before Pay.
  await dialog.getByRole('button', { name: 'Back to cart' }).click();
  await page.getByLabel('Quantity of Daypara 500').fill('60');
  await expect(page.getByRole('row', { name: /Daypara 500/ }).getByRole('status')).toHaveText(
    'Only 50 in stock: 10 short',
  );
  await page.screenshot({ path: 'e2e/screenshots/layout-1024x600-sell-shortfall.png' });
});

import type { Page } from '@playwright/test';
import { Api } from './api';
import { ADMIN, expect, NEW_ADMIN_PASSWORD, signIn, test } from './fixtures';
import { CASHIER, MANAGER } from './manager-api';

/**
 * Every back-office section at the two counter sizes (issue 29): no control or table cell outside the window
 * horizontally, none covered by another element. Tables hold rows, with long names, so their actions show.
 * A section's "New …" or "Add …" dialog, opened, shows every field inside its box without scrolling sideways.
 */
const SIZES = [
  { width: 1024, height: 600 },
  { width: 1366, height: 768 },
];

/**
 * Controls and cells that stick out past the right edge, or that another element covers at their centre. Then
 * scrolls the section back to its top for its screenshot (in the same round trip), whichever scrolls: main at
 * 1024×600, the page where the sections list is taller than the window.
 */
function hiddenControls(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    // The screen scrolls between the header and the status bar: what lies outside that band is scrolled away.
    const band = document.querySelector('main')!.getBoundingClientRect();
    const out: string[] = [];
    const nameOf = (el: Element) =>
      `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30)}"`;
    const candidates = document.querySelectorAll(
      'main button, main a, main input, main select, main textarea, main td, main th',
    );
    for (const el of candidates) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (r.right > width + 1 || r.left < -1) {
        out.push(`${nameOf(el)} spans ${Math.round(r.left)}-${Math.round(r.right)}px of ${width}`);
        continue;
      }
      // Covered: what the centre point hits, when the centre is on screen, is neither the element nor inside it.
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      if (y < band.top + 4 || y > band.bottom - 4) continue;
      const hit = document.elementFromPoint(x, y);
      if (hit && hit !== el && !el.contains(hit) && !hit.contains(el))
        out.push(`${nameOf(el)} is covered by ${nameOf(hit)}`);
    }
    document.querySelector('main')!.scrollTo(0, 0);
    document.scrollingElement?.scrollTo(0, 0);
    return out.slice(0, 8);
  });
}

/** What a section's dialog shows outside its own box, or a dialog that scrolls sideways. */
function dialogCutOff(page: Page) {
  return page.getByRole('dialog').evaluate((dialog) => {
    const box = dialog.getBoundingClientRect();
    const out: string[] = [];
    if (dialog.scrollWidth > dialog.clientWidth + 1)
      out.push(`dialog scrolls sideways: ${dialog.scrollWidth}px of ${dialog.clientWidth}`);
    for (const el of dialog.querySelectorAll('button, input, select, textarea, label')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (r.right > box.right + 1 || r.left < box.left - 1) {
        const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30);
        out.push(
          `${el.tagName.toLowerCase()} "${name}" spans ${Math.round(r.left)}-${Math.round(r.right)}px`,
        );
      }
    }
    return out.slice(0, 8);
  });
}

/**
 * The section's "New …" or "Add …" dialog opener, when it has one: a button outside any form (an "Add" inside
 * a form, as Settings' "Add category", adds a row in place and opens nothing).
 */
function dialogOpener(page: Page) {
  return page
    .locator('main')
    .getByRole('button', { name: /^(New|Add) / })
    .and(page.locator('button:not(form button)'))
    .first();
}

/** Sets the window size, unless it is that size already. */
async function resize(page: Page, size: { width: number; height: number }) {
  const now = page.viewportSize();
  if (now?.width !== size.width || now.height !== size.height) await page.setViewportSize(size);
}

/**
 * Opens the section's "New …" or "Add …" dialog, when it has one, and lists what it cuts off at each size
 * (resizing the window with the dialog open); closes it. Null when the section opens none.
 */
async function newDialogProblems(
  page: Page,
  sizes: typeof SIZES,
): Promise<Array<{ width: number; problems: string[] }> | null> {
  const opener = dialogOpener(page);
  if (!(await opener.isVisible())) return null;
  await opener.click();
  const dialog = page.getByRole('dialog');
  const opened = await dialog.waitFor({ state: 'visible', timeout: 3_000 }).then(
    () => true,
    () => false,
  );
  if (!opened) return null;
  const found: Array<{ width: number; problems: string[] }> = [];
  for (const size of sizes) {
    await resize(page, size);
    found.push({ width: size.width, problems: await dialogCutOff(page) });
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  return found;
}

test('every back-office section and its New dialog fit 1024×600 and 1366×768: no control or cell cut off or covered', async ({
  page,
  till,
}) => {
  test.setTimeout(180_000);
  const admin = await Api.admin(till);
  await admin.createUser(MANAGER);
  await admin.createUser(CASHIER);
  const supplier = await admin.call<{ id: string }>('POST', '/suppliers', {
    name: 'Kilimanjaro Pharmaceutical Distributors and Wholesalers Limited',
    contact_person: 'Bernadette Nyamwezi-Kaliwa',
    phone: '+255 754 000 111',
    email: 'orders.kilimanjaro-wholesale@example.com',
  });
  await admin.medicine(supplier.id, {
    name: 'Amoxicillin and clavulanic acid 875/125 mg film-coated tablets',
    generic_name: 'Co-amoxiclav',
    strength: '875/125 mg',
    form: 'tablet',
    barcode: '4000000000037',
    price: 12345.5,
    stock: 5,
  });
  await admin.call('POST', '/coupons', {
    code: 'WELCOME-LONG-CODE-2026',
    discount_type: 'percent',
    discount_value: 10,
  });
  await page.goto('/');
  await signIn(page, { email: ADMIN.email, password: NEW_ADMIN_PASSWORD });
  await expect(page.getByRole('heading', { name: 'Sell', level: 1 })).toBeVisible();
  await page.goto('/back-office');
  const nav = page.getByRole('navigation', { name: 'Back office' });
  // allTextContents does not wait: the section list renders with the screen, after the navigation.
  await expect(nav.getByRole('link', { name: 'Audit log' })).toBeVisible();
  const labels = await nav.getByRole('link').allTextContents();
  expect(labels.length).toBeGreaterThan(15);
  const problems: string[] = [];
  const dialogs = new Set<string>();
  // Each section is opened once and measured at both sizes by resizing the window (then its dialog, open, the
  // same way): the sizes run in turn from the one the window has, so a section costs one resize, not a reload.
  let sizes = SIZES;
  for (const label of labels) {
    await nav.getByRole('link', { name: label, exact: true }).click();
    await expect(page.getByRole('heading', { name: label, level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    for (const size of sizes) {
      await resize(page, size);
      for (const p of await hiddenControls(page)) problems.push(`${label} at ${size.width}: ${p}`);
      await page.screenshot({
        path: `e2e/screenshots/layout-${size.width}-back-office-${label.toLowerCase().replaceAll(' ', '-')}.png`,
      });
    }
    sizes = sizes.toReversed();
    const dialog = await newDialogProblems(page, sizes);
    if (dialog) {
      dialogs.add(label);
      sizes = sizes.toReversed();
    }
    for (const { width, problems: found } of dialog ?? [])
      for (const p of found) problems.push(`${label}'s dialog at ${width}: ${p}`);
  }
  expect(problems).toEqual([]);
  // The sections whose New dialog was opened and measured: a renamed button would drop one silently.
  expect([...dialogs].sort()).toEqual([
    'Announcements',
    'Branches',
    'Coupons',
    'Currencies',
    'Medicines',
    'Printers',
    'Suppliers',
    'Users',
  ]);
});

import { contentSecurityPolicy } from '../apps/desktop/src/security';
import { ADMIN, changePassword, expect, NEW_ADMIN_PASSWORD, signIn, test } from './fixtures';

/**
 * The desktop shell adds a stricter Content-Security-Policy than the server's (no inline
 * styles, no frames). Without an Electron binary here, the same header is added to every
 * response in Chromium, and the till must run without a single violation.
 */
test('the till runs under the desktop content security policy', async ({ page, till }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  await page.route(`${till.url}/**`, async (route) => {
    // The scanner event stream never ends, so it cannot be fetched whole; it carries no document to police.
    if (route.request().url().includes('/api/v1/scanners/events')) return route.continue();
    const response = await route.fetch();
    const headers = { ...response.headers() };
    // Both policies apply, as in Electron: the server's own and the shell's.
    headers['content-security-policy'] = [headers['content-security-policy'], contentSecurityPolicy()]
      .filter(Boolean)
      .join(', ');
    // A request the page abandoned meanwhile (a poll cut short by navigating) has nothing left to fulfil.
    await route.fulfill({ response, headers }).catch((error: unknown) => {
      if (!/has been disposed/.test(String(error))) throw error;
    });
  });
  await page.goto('/');
  await signIn(page, ADMIN);
  await changePassword(page, ADMIN.password, NEW_ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Sell', level: 1 })).toBeVisible();
  await page.keyboard.press('F9');
  // The dashboard's chart (uPlot draws on a canvas) runs under the policy too.
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Users' }).click();
  await page.getByRole('button', { name: 'New user' }).click();
  await expect(page.getByRole('dialog', { name: 'New user' })).toBeVisible();
  await page.keyboard.press('Escape');
  await page.goto('/back-office/settings');
  await expect(page.getByLabel('Organisation name')).toBeVisible();
  expect(violations).toEqual([]);
});

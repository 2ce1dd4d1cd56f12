import { expect, PHARMACIST, changePassword, signIn, test } from './fixtures';

test('the sell screen hears a wedge scanner burst and ignores typing', async ({ page }, testInfo) => {
  await page.goto('/');
  await signIn(page, PHARMACIST);
  await changePassword(page, PHARMACIST.password, 'Pharm#2026-own');
  await expect(page.getByRole('heading', { name: 'Sell', level: 1 })).toBeVisible();
  const scanner = page.getByRole('region', { name: 'Scanner' });
  await expect(scanner).toContainText('Waiting for a scan.');

  // A person typing: 150 ms between keys.
  await page.keyboard.type('12345678', { delay: 150 });
  await page.keyboard.press('Enter');
  await expect(scanner).toContainText('Waiting for a scan.');

  // A scanner: a burst of keys milliseconds apart, ending in Enter (no delay keeps CI from flaking).
  await page.keyboard.type('5012345678900');
  await page.keyboard.press('Enter');
  await expect(scanner).toContainText('Last scan: 5012345678900');
  await expect(page.getByRole('contentinfo')).toContainText('Pharmacist');
  await page.screenshot({ path: testInfo.outputPath('08-sell-scan.png') });
});

import { Api } from './api';
import { adminReady, expect, test } from './fixtures';
import { adminSignedIn, type LoopbackPrinter, startLoopbackPrinter } from './printers-api';

const SHOP = 'Cedar Street Pharmacy';
let printer: LoopbackPrinter | undefined;
test.afterEach(async () => {
  await printer?.stop();
  printer = undefined;
});

test('add a network printer, test print, open the drawer, and see it go offline', async ({ page, till }) => {
  printer = await startLoopbackPrinter();
  const admin = await Api.admin(till);
  await admin.call('PUT', '/settings', { organization_name: SHOP });
  await adminSignedIn(page);
  await page.getByRole('link', { name: 'Back office' }).click();
  await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Printers' }).click();
  await expect(page.getByRole('heading', { name: 'Printers', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Add printer' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add printer' });
  await dialog.getByLabel('Name').fill('Counter');
  await dialog.getByLabel('Connection').selectOption('tcp');
  await dialog.getByLabel('Address').fill(printer.address);
  await dialog.getByLabel('Paper width').selectOption('80');
  await dialog.getByLabel('Cash drawer on this printer').check();
  await dialog.getByLabel('Default printer of the branch').check();
  await page.screenshot({ path: 'e2e/screenshots/printers-01-add.png', fullPage: true });
  await dialog.getByRole('button', { name: 'Save printer' }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByRole('row', { name: /Counter/ });
  await expect(row).toContainText('Online');
  await expect(row).toContainText(printer.address);
  await page.screenshot({ path: 'e2e/screenshots/printers-02-list.png', fullPage: true });

  const document = printer.nextDocument();
  await row.getByRole('button', { name: 'Test print' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Test page sent to Counter' })).toBeVisible();
  const bytes = await document;
  expect([...bytes.subarray(0, 2)]).toEqual([0x1b, 0x40]);
  expect(bytes.toString('latin1')).toContain(SHOP);
  expect(bytes.toString('latin1')).toContain('TEST PAGE');

  const kick = printer.nextDocument();
  await row.getByRole('button', { name: 'Open drawer' }).click();
  expect([...(await kick).subarray(0, 2)]).toEqual([0x1b, 0x70]);

  // The status bar now names the default printer and links here.
  await expect(page.getByRole('link', { name: /Printer: Counter/ })).toBeVisible();

  await printer.stop();
  printer = undefined;
  await expect(row).toContainText('Offline', { timeout: 20_000 });
  await page.screenshot({ path: 'e2e/screenshots/printers-03-offline.png', fullPage: true });
  await row.getByRole('button', { name: 'Test print' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'failed' })).toContainText('OFFLINE');
  const saved = await admin.call<{ items: { name: string; transport: string; is_default: boolean }[] }>(
    'GET',
    '/printing/printers',
  );
  expect(saved.items).toEqual([
    expect.objectContaining({ name: 'Counter', transport: 'tcp', is_default: true }),
  ]);
});

test('refuses a device that is not a printer and a port that is not a printer port', async ({ page }) => {
  await adminReady(page);
  await page.goto('/back-office/printers');
  await page.getByRole('button', { name: 'Add printer' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add printer' });
  await dialog.getByLabel('Name').fill('Sneaky');
  await dialog.getByLabel('Connection').selectOption('device');
  await dialog.getByLabel('Address').fill('/dev/sda');
  await dialog.getByRole('button', { name: 'Save printer' }).click();
  await expect(dialog.getByText(/printer device/i).first()).toBeVisible();
  await expect(dialog.getByLabel('Address')).toHaveValue('/dev/sda');
  await page.screenshot({ path: 'e2e/screenshots/printers-04-bad-device.png', fullPage: true });
  await dialog.getByLabel('Connection').selectOption('tcp');
  await dialog.getByLabel('Address').fill('127.0.0.1:22');
  await dialog.getByRole('button', { name: 'Save printer' }).click();
  await expect(dialog.getByText(/printer port/i).first()).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('No printer yet')).toBeVisible();

  await page.getByRole('button', { name: 'Find printers' }).click();
  const find = page.getByRole('dialog', { name: 'Find printers' });
  await expect(find.getByRole('heading', { name: 'USB printers' })).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/printers-05-find.png', fullPage: true });
  await find.getByRole('button', { name: 'Close' }).last().click();
});

test('edit the receipt footer with a live preview, then see the print queue', async ({ page, till }) => {
  const admin = await Api.admin(till);
  await admin.call('PUT', '/settings', { organization_name: SHOP });
  await adminSignedIn(page);
  await page.goto('/back-office/printers');
  await page.getByRole('link', { name: 'Receipt templates' }).click();
  const preview = page.getByRole('figure', { name: 'Receipt preview' });
  await expect(preview).toContainText(SHOP);
  await page.getByLabel('Footer').fill('Get well soon from Cedar Street');
  await expect(preview).toContainText('Get well soon from Cedar Street');
  await page.getByLabel('Preview paper width').selectOption('58');
  await expect(async () => {
    const text = (await preview.locator('pre').textContent()) ?? '';
    expect(text.split('\n').every((l) => [...l].length <= 32)).toBe(true);
    expect(text).toContain('Get well soon');
  }).toPass();
  await page.getByLabel('Fiscal QR code').uncheck();
  await expect(preview).not.toContainText('[QR]');
  await page.screenshot({ path: 'e2e/screenshots/printers-06-template.png', fullPage: true });
  await page.getByRole('button', { name: 'Save template' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Template saved' })).toBeVisible();
  const templates = await admin.call<{ items: { footer: string; show_qr: boolean; is_default: boolean }[] }>(
    'GET',
    '/printing/receipt-templates?document_type=receipt',
  );
  expect(templates.items).toContainEqual(
    expect.objectContaining({ footer: 'Get well soon from Cedar Street', show_qr: false, is_default: true }),
  );

  await page.getByRole('link', { name: 'Print queue' }).click();
  await expect(page.getByRole('table', { name: 'Print jobs' })).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/printers-07-queue.png', fullPage: true });
});

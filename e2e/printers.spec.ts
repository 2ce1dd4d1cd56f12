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

test('edit the receipt footer of 58 mm paper with a live preview, then see the print queue', async ({
  page,
  till,
}) => {
  const admin = await Api.admin(till);
  await admin.call('PUT', '/settings', { organization_name: SHOP });
  // A template saved before widths existed: both widths print with it.
  await admin.call('POST', '/printing/receipt-templates', {
    name: 'Receipt',
    branch_id: null,
    footer: 'Thank you from Cedar Street',
    is_default: true,
  });
  await adminSignedIn(page);
  await page.goto('/back-office/printers');
  await page.getByRole('link', { name: 'Receipt templates' }).click();
  const preview = page.getByRole('figure', { name: 'Receipt preview' });
  await expect(preview).toContainText(SHOP);
  await expect(page.getByLabel('Footer')).toHaveValue('Thank you from Cedar Street');
  await expect(page.getByLabel('Only for 80 mm paper')).not.toBeChecked();

  await page.getByLabel('Paper width').selectOption('58');
  await expect(page.getByLabel('Footer')).toHaveValue('Thank you from Cedar Street');
  await page.getByLabel('Footer').fill('Get well soon from Cedar Street');
  await expect(preview).toContainText('Get well soon from Cedar Street');
  await expect(async () => {
    const text = (await preview.locator('pre').textContent()) ?? '';
    expect(text.split('\n').every((l) => [...l].length <= 32)).toBe(true);
    expect(text).toContain('Get well soon');
  }).toPass();
  await page.getByLabel('Fiscal QR code').uncheck();
  await expect(preview).not.toContainText('[QR]');
  await page.getByLabel('Only for 58 mm paper').check();
  await page.screenshot({ path: 'e2e/screenshots/printers-06-template.png', fullPage: true });
  await page.getByRole('button', { name: 'Save template' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Template saved' })).toBeVisible();

  // 80 mm paper still prints with the both-widths template.
  await page.getByLabel('Paper width').selectOption('80');
  await expect(page.getByLabel('Footer')).toHaveValue('Thank you from Cedar Street');
  await expect(preview).toContainText('Thank you from Cedar Street');
  await page.getByLabel('Paper width').selectOption('58');
  await expect(page.getByLabel('Footer')).toHaveValue('Get well soon from Cedar Street');
  await page.screenshot({ path: 'e2e/screenshots/printers-06b-template-58.png', fullPage: true });
  const templates = await admin.call<{
    items: { footer: string; show_qr: boolean; is_default: boolean; paper_width_mm: number | null }[];
  }>('GET', '/printing/receipt-templates?document_type=receipt');
  expect(templates.items).toContainEqual(
    expect.objectContaining({
      footer: 'Get well soon from Cedar Street',
      show_qr: false,
      is_default: true,
      paper_width_mm: 58,
    }),
  );
  expect(templates.items).toContainEqual(
    expect.objectContaining({
      footer: 'Thank you from Cedar Street',
      is_default: true,
      paper_width_mm: null,
    }),
  );

  await page.getByRole('link', { name: 'Print queue' }).click();
  await expect(page.getByRole('table', { name: 'Print jobs' })).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/printers-07-queue.png', fullPage: true });
});

test('print shelf labels for a category and a searched medicine on a label printer', async ({
  page,
  till,
}) => {
  printer = await startLoopbackPrinter();
  const admin = await Api.admin(till);
  const label = await admin.call<{ id: string }>('POST', '/printing/printers', {
    name: 'Shelf labels',
    transport: 'tcp',
    address: printer.address,
    paper_width_mm: 58,
  });
  const pain = await admin.call<{ slug: string }>('POST', '/categories', { name: 'Pain relief' });
  const supplier = await admin.supplier();
  const medicines = [
    { name: 'Paracetamol 500 mg tablets', barcode: '4006381333931', price: 3.5, category: pain.slug },
    { name: 'Ibuprofen 200 mg tablets', barcode: '5012345678900', price: 4.25, category: pain.slug },
    { name: 'Amoxicillin 250 mg capsules', barcode: '7622210449283', price: 12 },
  ];
  for (const { category, ...m } of medicines) {
    const id = await admin.medicine(supplier, { ...m, stock: 0 });
    if (category) await admin.call('PUT', `/medicines/${id}`, { category });
  }

  await adminSignedIn(page);
  await page.goto('/back-office/printers');
  await page
    .getByRole('navigation', { name: 'Printing' })
    .getByRole('link', { name: 'Shelf labels' })
    .click();
  const picks = page.getByRole('list', { name: 'Medicines' });
  await page.getByLabel('Category').selectOption({ label: 'Pain relief' });
  await expect(picks.getByRole('checkbox')).toHaveCount(2);
  await page.getByRole('button', { name: 'Pick all shown' }).click();
  await page.getByLabel('Category').selectOption({ label: 'Any' });
  await page.getByLabel('Search medicines').fill('amoxi');
  await expect(picks.getByRole('checkbox')).toHaveCount(1);
  await picks.getByRole('checkbox', { name: /Amoxicillin/ }).check();
  await page.getByLabel('Label printer').selectOption({ label: 'Shelf labels' });
  await page.screenshot({ path: 'e2e/screenshots/printers-08-shelf-labels.png', fullPage: true });
  await page.getByRole('button', { name: 'Print 3 labels' }).click();
  await expect(page.getByRole('status').filter({ hasText: '3 label jobs queued' })).toBeVisible();

  const loopback = printer;
  const documents = () =>
    loopback.jobs.filter((b) => !(b.length % 3 === 0 && b[0] === 0x10 && b[1] === 0x04));
  await expect.poll(() => documents().length, { timeout: 15_000 }).toBe(3);
  const printed = documents().map((b) => b.toString('latin1'));
  for (const [name, price] of [
    ['Paracetamol 500 mg tablets', '3.50'],
    ['Ibuprofen 200 mg tablets', '4.25'],
    ['Amoxicillin 250 mg capsules', '12.00'],
  ]) {
    // Each label is its own whole document: the name and its own price on it.
    const own = printed.filter((text) => text.includes(name as string));
    expect(own).toHaveLength(1);
    expect(own[0]).toContain(price);
  }
  const jobs = await admin.call<{ items: { document_type: string; status: string; printer_id: string }[] }>(
    'GET',
    '/printing/print-jobs?document_type=label',
  );
  expect(jobs.items).toHaveLength(3);
  for (const job of jobs.items) expect(job).toMatchObject({ status: 'completed', printer_id: label.id });
  await page.getByRole('link', { name: 'Print queue' }).click();
  await expect(page.getByRole('table', { name: 'Print jobs' })).toContainText('label');
  await page.screenshot({ path: 'e2e/screenshots/printers-09-labels-queue.png', fullPage: true });
});

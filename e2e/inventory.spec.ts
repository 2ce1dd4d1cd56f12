import { Api } from './api';
import { expect, signIn, test } from './fixtures';

/** A 1x1 PNG: the server checks the bytes of an upload are the image type it was signed for. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const MANAGER = { email: 'ines@pharmacy.local', password: 'Ines#2026-stock', full_name: 'Ines Inventory' };

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
/** A GS1 DataMatrix as a keyboard-wedge scanner types it: GTIN (01), expiry (17, YYMMDD), batch (10) last. */
const gs1 = (gtin14: string, expiry: string, batch: string) =>
  `01${gtin14}17${expiry.slice(2, 4)}${expiry.slice(5, 7)}${expiry.slice(8, 10)}10${batch}`;

test('an inventory manager creates a medicine with a photo, receives two batches by GS1 scan, quarantines one, writes one off and reads the ledger', async ({
  page,
  till,
}) => {
  const admin = await Api.admin(till);
  await admin.call('POST', '/suppliers', { name: 'Kilimanjaro Pharma Supplies' });
  await admin.call('POST', '/categories', { name: 'Antibiotics' });
  await admin.createUser({ ...MANAGER, role: 'inventory_manager' });

  await page.goto('/');
  await signIn(page, MANAGER);
  // An inventory manager lands on Medicines, and sees none of the counter's screens (issue 29).
  await expect(page.getByRole('heading', { name: 'Medicines', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/back-office\/medicines$/);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveText([
    /F3/,
    /F4/,
    /F9/,
  ]);
  await page.keyboard.press('F1');
  await expect(page.getByRole('heading', { name: 'Medicines', level: 1 })).toBeVisible();
  await page.goto('/sell');
  await expect(page.getByRole('heading', { name: 'Medicines', level: 1 })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Back office' }).getByRole('link')).toHaveText([
    'Medicines',
    'Stock',
    'Receiving',
    'Alerts',
    'Purchase orders',
    'Transfers',
    'Stock counts',
    'Suppliers',
  ]);
  await page.screenshot({ path: 'e2e/screenshots/inventory-01-medicines.png', fullPage: true });

  // Create: the server's messages land beside their fields and nothing typed is lost.
  await page.getByRole('button', { name: 'New medicine' }).click();
  const dialog = page.getByRole('dialog', { name: 'New medicine' });
  await dialog.getByLabel('Generic name').fill('Amoxicillin');
  await dialog.getByLabel('Strength').fill('500 mg');
  await dialog.getByLabel('Form', { exact: true }).fill('capsule');
  await dialog.getByLabel('Barcode').pressSequentially('5012345678900');
  await dialog.getByLabel('Barcode').press('Enter'); // a scanner's Enter must not submit the form
  await dialog.getByLabel('Category', { exact: true }).selectOption({ label: 'Antibiotics' });
  await dialog.getByLabel('Selling price').fill('4.999');
  await dialog.getByRole('button', { name: 'Create medicine' }).click();
  await expect(dialog.getByLabel('Selling price')).toHaveAccessibleDescription(
    'must be an amount with at most 2 decimals',
  );
  await dialog.getByLabel('Selling price').fill('4.50');
  await dialog.getByRole('button', { name: 'Create medicine' }).click();
  // the server's message, beside Name
  await expect(dialog.getByLabel('Name', { exact: true })).toHaveAccessibleDescription('must not be empty');
  await expect(dialog.getByLabel('Generic name')).toHaveValue('Amoxicillin');
  await dialog.getByLabel('Name', { exact: true }).fill('Amoxil 500');
  await dialog.getByLabel('Photo').setInputFiles({ name: 'amoxil.png', mimeType: 'image/png', buffer: PNG });
  await expect(dialog.getByRole('img', { name: 'Pack of Amoxil 500' })).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/inventory-02-new-medicine.png', fullPage: true });
  await dialog.getByRole('button', { name: 'Create medicine' }).click();
  await expect(dialog).toBeHidden();

  // `/` focuses the search, Enter opens the first match, Escape closes it.
  await page.keyboard.press('/');
  await page.keyboard.type('amox');
  const table = page.getByRole('table', { name: 'Medicines' });
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table).toContainText('5012345678900');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Edit Amoxil 500' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Edit Amoxil 500' })).toBeHidden();

  // Receiving: two batches scanned as GS1 DataMatrix codes.
  await page
    .getByRole('navigation', { name: 'Back office' })
    .getByRole('link', { name: 'Receiving' })
    .click();
  await expect(page.getByRole('heading', { name: 'Receiving', level: 1 })).toBeVisible();
  await page.getByLabel('Supplier').selectOption({ label: 'Kilimanjaro Pharma Supplies' });
  await page.getByLabel('Invoice number').fill('INV-2041');
  const scan = page.getByLabel('Scan or search a medicine');
  const longExpiry = inDays(400);
  const shortExpiry = inDays(60);
  await scan.click();
  await page.keyboard.type(gs1('05012345678900', longExpiry, 'LOT-A1'));
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Batch, line 1')).toHaveValue('LOT-A1');
  await expect(page.getByLabel('Expiry, line 1')).toHaveValue(longExpiry);
  await page.keyboard.type(gs1('05012345678900', shortExpiry, 'LOT-B2'));
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Batch, line 2')).toHaveValue('LOT-B2');
  await expect(page.getByLabel('Expiry, line 2')).toHaveValue(shortExpiry);
  await page.getByLabel('Quantity, line 1').fill('20');
  await page.getByLabel('Unit cost, line 1').fill('1.50');
  await page.getByLabel('Quantity, line 2').fill('12');
  await page.getByLabel('Unit cost, line 2').fill('1.40');
  await page.screenshot({ path: 'e2e/screenshots/inventory-03-receiving.png', fullPage: true });
  await page.getByRole('button', { name: 'Receive delivery (2 lines)' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Received 2 lines.' })).toBeVisible();

  // Stock: the batches, colour-coded; quarantine one, write off from the other.
  await page
    .getByRole('navigation', { name: 'Back office' })
    .getByRole('link', { name: 'Stock', exact: true })
    .click();
  await expect(page.getByRole('heading', { name: 'Stock', level: 1 })).toBeVisible();
  await page.keyboard.press('/');
  await page.keyboard.type('Amoxil');
  await expect(page.getByRole('list', { name: 'Matching medicines' })).toContainText('Amoxil 500');
  await page.keyboard.press('Enter');
  const batches = page.getByRole('table', { name: 'Batches' });
  await expect(batches.getByRole('row')).toHaveCount(3);
  await expect(batches.getByRole('row', { name: /LOT-B2/ })).toHaveClass(/expiry-within-90/);
  await expect(batches.getByRole('row', { name: /LOT-A1/ })).toHaveClass(/expiry-ok/);

  await page.getByRole('button', { name: 'Quarantine LOT-B2' }).click();
  const quarantine = page.getByRole('dialog', { name: /Quarantine batch LOT-B2/ });
  await quarantine.getByLabel('Reason').fill('Supplier recall notice');
  await quarantine.getByRole('button', { name: 'Quarantine' }).click();
  await expect(quarantine).toBeHidden();
  await expect(batches.getByRole('row', { name: /LOT-B2/ })).toContainText('Quarantined');

  await page.getByRole('button', { name: 'Write off LOT-A1' }).click();
  const writeOff = page.getByRole('dialog', { name: /Write off from batch LOT-A1/ });
  await writeOff.getByLabel('Quantity to write off').fill('3');
  await writeOff.getByLabel('Reason').fill('Damaged packs');
  await page.screenshot({ path: 'e2e/screenshots/inventory-04-write-off.png', fullPage: true });
  await writeOff.getByRole('button', { name: 'Write off' }).click();
  await expect(writeOff).toBeHidden();
  await expect(batches.getByRole('row', { name: /LOT-A1/ })).toContainText('17');

  const ledger = page.getByRole('table', { name: 'Movement ledger' });
  await expect(ledger.getByRole('row')).toHaveCount(4);
  await expect(ledger.getByRole('row').nth(1)).toContainText('Write-off');
  await expect(ledger.getByRole('row').nth(1)).toContainText('Ines Inventory');
  await expect(ledger.getByRole('row').nth(1)).toContainText('29');
  await page.screenshot({ path: 'e2e/screenshots/inventory-05-stock-ledger.png', fullPage: true });
  await page.getByRole('button', { name: 'Ledger of LOT-A1' }).click();
  await expect(ledger.getByRole('row')).toHaveCount(3);

  await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Alerts' }).click();
  await expect(page.getByRole('heading', { name: 'Alerts', level: 1 })).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/inventory-06-alerts.png', fullPage: true });

  // Through the API: the stock and the ledger moved exactly.
  const list = await admin.call<{ items: Array<{ id: string; name: string }> }>(
    'GET',
    '/medicines?search=amoxil',
  );
  const id = list.items[0]!.id;
  const medicine = await admin.call<{
    stock_quantity: number;
    image_key: string | null;
    selling_price: string;
    batches: Array<{
      batch_number: string;
      qty_on_hand: number;
      regulator_status: string;
      expiry_date: string;
    }>;
  }>('GET', `/medicines/${id}`);
  expect(medicine.stock_quantity).toBe(17); // LOT-B2 is quarantined: not sellable
  expect(medicine.selling_price).toBe('4.50');
  expect(medicine.image_key).toMatch(/^medicines\//);
  expect(
    medicine.batches.map((b) => [b.batch_number, b.qty_on_hand, b.regulator_status, b.expiry_date]).sort(),
  ).toEqual([
    ['LOT-A1', 17, 'active', longExpiry],
    ['LOT-B2', 12, 'quarantined', shortExpiry],
  ]);
  const movements = await admin.call<{
    total: number;
    items: Array<{
      type: string;
      quantity: number;
      balance_after: number;
      batch_number: string;
      reason: string;
    }>;
  }>('GET', `/medicines/${id}/movements`);
  expect(movements.total).toBe(3);
  expect(movements.items.map((m) => [m.type, m.batch_number, m.quantity, m.balance_after])).toEqual([
    ['write_off', 'LOT-A1', -3, 29],
    ['purchase', 'LOT-B2', 12, 32],
    ['purchase', 'LOT-A1', 20, 20],
  ]);
  expect(movements.items[0]!.reason).toBe('Damaged packs');
  expect(movements.items[2]!.reason).toBe('Invoice INV-2041');
});

import { Api } from './api';
import { expect, signIn, test } from './fixtures';
import { scan } from './till';

const CASHIER = {
  email: 'sam@pharmacy.local',
  password: 'Sam#2026-till!',
  full_name: 'Sam Seller',
  role: 'cashier',
};
const PLASTER = '4000000000006';
const BRAND = '4000000000013';
const UNKNOWN = '9999999999994';

test('a bad scan and an out-of-stock item never lose the cart, and a reload keeps it', async ({
  page,
  till,
}, testInfo) => {
  const admin = await Api.admin(till);
  await admin.createUser(CASHIER);
  const supplier = await admin.supplier();
  await admin.medicine(supplier, {
    name: 'Stripplast',
    generic_name: 'Adhesive bandage',
    barcode: PLASTER,
    price: 2.4,
    stock: 3,
  });
  await admin.medicine(supplier, {
    name: 'Clarityn Brand',
    generic_name: 'Loratadine',
    strength: '10 mg',
    form: 'tablet',
    barcode: BRAND,
    price: 5,
    stock: 0,
  });
  await admin.medicine(supplier, {
    name: 'Lorano Generic',
    generic_name: 'Loratadine',
    strength: '10 mg',
    form: 'tablet',
    barcode: '4000000000020',
    price: 1.9,
    stock: 40,
  });
  const cashier = await Api.login(till, CASHIER);
  await cashier.call('POST', '/sessions/open', { opening_float: 50 });

  await page.goto('/');
  await signIn(page, CASHIER);
  const heading = page.getByRole('heading', { name: 'Sell', level: 1 });
  await expect(heading).toBeVisible();
  const cart = page.getByRole('table', { name: 'Cart' });

  // Typing at human speed is not a scan; search-as-you-type picks with the arrows and Enter.
  const search = page.getByRole('combobox', { name: 'Search medicines' });
  await search.pressSequentially('lor', { delay: 120 });
  const options = page.getByRole('listbox', { name: 'Matching medicines' }).getByRole('option');
  await expect(options).toHaveCount(2);
  await search.press('ArrowDown');
  await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
  await search.press('ArrowUp');
  await page.screenshot({ path: testInfo.outputPath('20-search.png') });
  await search.press('Escape');
  await expect(search).toHaveValue('');

  await heading.click();
  await scan(page, PLASTER);
  await expect(cart.getByRole('row', { name: /Stripplast/ })).toBeVisible();

  // An unknown barcode: a clear message, the cart untouched.
  await scan(page, UNKNOWN);
  await expect(page.getByRole('alert')).toHaveText(
    `Unknown barcode ${UNKNOWN}: no medicine has it. Search by name instead.`,
  );
  await expect(cart.getByRole('row')).toHaveCount(2);

  // Out of stock: the error, and generic substitutes in stock to add instead.
  await scan(page, BRAND);
  await expect(page.getByRole('alert')).toHaveText('Clarityn Brand is out of stock.');
  const subs = page.getByRole('dialog', { name: 'Substitutes for Clarityn Brand' });
  await expect(subs.getByRole('row', { name: /Lorano Generic/ })).toContainText('40');
  await page.screenshot({ path: testInfo.outputPath('21-substitutes.png') });
  await subs.getByRole('button', { name: 'Add Lorano Generic' }).click();
  await expect(subs).toBeHidden();
  await expect(cart.getByRole('row', { name: /Lorano Generic/ })).toBeVisible();
  await expect(cart.getByRole('row', { name: /Stripplast/ })).toBeVisible();

  // More than the shelf holds: the server refuses the sale; the error shows, the cart stays.
  await page.getByLabel('Quantity of Stripplast').fill('5');
  await expect(page.getByRole('status', { name: 'Total' })).toContainText('13.90');
  await page.keyboard.press('F8');
  const pay = page.getByRole('dialog', { name: 'Payment' });
  await pay.getByRole('button', { name: 'Rest in cash' }).click();
  await pay.getByRole('button', { name: 'Complete sale' }).click();
  await expect(page.getByRole('alert')).toContainText(
    'Not enough Stripplast in stock: wanted 5, available 3.',
  );
  await expect(page.getByRole('dialog', { name: 'Substitutes for Stripplast' })).toBeVisible();
  await page
    .getByRole('dialog', { name: 'Substitutes for Stripplast' })
    .getByRole('button', { name: 'Close' })
    .click();
  await expect(cart.getByRole('row')).toHaveCount(3);

  // A reload keeps the cart (quantities and all).
  await page.reload();
  await expect(heading).toBeVisible();
  await expect(cart.getByRole('row')).toHaveCount(3);
  await expect(page.getByLabel('Quantity of Stripplast')).toHaveValue('5');
  await page.getByLabel('Quantity of Stripplast').fill('3');
  await page.keyboard.press('F8');
  await pay.getByRole('button', { name: 'Rest in cash' }).click();
  await pay.getByRole('button', { name: 'Complete sale' }).click();
  await expect(page.getByRole('dialog', { name: /^Sale / })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('22-sold-after-errors.png') });
});

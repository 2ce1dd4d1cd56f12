import { Api } from './api';
import { changePassword, expect, PHARMACIST, signIn, test } from './fixtures';

const shot = (name: string) => `e2e/screenshots/dispense-${name}.png`;

test('27.2: Sell asks for the prescription of an Rx-only medicine, even a pharmacist: a new one, then an emergency supply', async ({
  page,
  till,
}) => {
  await page.setViewportSize({ width: 1024, height: 600 });
  const admin = await Api.admin(till);
  const supplier = await admin.supplier();
  const augmentin = await admin.medicine(supplier, {
    name: 'Augmentin 625',
    generic_name: 'Amoxicillin and clavulanic acid',
    strength: '625 mg',
    form: 'tablet',
    barcode: '4000000000051',
    price: 6,
    stock: 10,
    requires_prescription: true,
  });

  await page.goto('/');
  await signIn(page, PHARMACIST);
  await changePassword(page, PHARMACIST.password, 'Pharm#2026-own');
  const heading = page.getByRole('heading', { name: 'Sell', level: 1 });
  await expect(heading).toBeVisible();
  const pharmacist = await Api.login(till, { email: PHARMACIST.email, password: 'Pharm#2026-own' });
  await pharmacist.call('POST', '/sessions/open', { opening_float: 50 });
  await page.reload();
  await expect(heading).toBeVisible();
  const cart = page.getByRole('table', { name: 'Cart' });
  const addAugmentin = async () => {
    const search = page.getByRole('combobox', { name: 'Search medicines' });
    await search.fill('Augmentin');
    await expect(page.getByRole('option', { name: /Augmentin 625/ })).toBeVisible();
    await search.press('Enter');
    await expect(cart.getByRole('row', { name: /Augmentin 625/ })).toBeVisible();
  };
  const payCash = async () => {
    const pay = page.getByRole('dialog', { name: 'Payment' });
    await pay.getByRole('button', { name: 'Rest in cash' }).click();
    await pay.getByRole('button', { name: 'Complete sale' }).click();
    const done = page.getByRole('dialog', { name: /^Sale / });
    await expect(done).toBeVisible();
    await done.getByRole('button', { name: 'New sale' }).click();
    await expect(cart.getByRole('row', { name: /Augmentin 625/ })).toBeHidden();
  };

  // A pharmacist too is asked for the prescription before payment; none exists yet, so one is recorded.
  await addAugmentin();
  await expect(
    page.getByText('Augmentin 625 is prescription-only: you will be asked for the prescription.'),
  ).toBeVisible();
  await page.keyboard.press('F8');
  const ask = page.getByRole('dialog', { name: 'Prescription needed' });
  await expect(ask).toContainText('Augmentin 625 is prescription-only.');
  await ask.getByLabel('Patient').fill('Neema');
  await expect(ask.getByText('No active prescription found.')).toBeVisible();
  await page.screenshot({ path: shot('01-rx-prompt') });
  await ask.getByRole('button', { name: 'Record a new prescription' }).click();
  const form = ask.getByRole('form', { name: 'New prescription' });
  await form.getByLabel('Patient name').fill('Neema Said');
  await form.getByLabel('Prescriber', { exact: true }).fill('Dr. Baraka Mollel');
  await form.getByLabel('Prescriber licence number').fill('MCT-20931');
  await page.screenshot({ path: shot('02-new-prescription') });
  await form.getByRole('button', { name: 'Record and use' }).click();
  await expect(page.getByRole('dialog', { name: 'Payment' })).toBeVisible();
  await payCash();

  // An emergency supply: the pharmacist's reason instead of a prescription.
  await addAugmentin();
  await page.keyboard.press('F8');
  await ask.getByRole('button', { name: 'Emergency supply' }).click();
  const emergency = ask.getByRole('form', { name: 'Emergency supply' });
  await emergency.getByLabel('Patient name').fill('Juma Ali');
  await emergency
    .getByLabel('Reason for supplying without a prescription')
    .fill('Course interrupted, clinic closed');
  await page.screenshot({ path: shot('03-emergency-supply') });
  await emergency.getByRole('button', { name: 'Supply and pay' }).click();
  await payCash();

  // The books: two sales, both in the prescription book, stock 10 - 2.
  const book = await admin.call<{
    items: Array<{ sale_id: string | null; patient_name: string; prescriber_name: string; quantity: number }>;
  }>('GET', `/compliance/prescription-book?medicine_id=${augmentin}`);
  expect(book.items.map((r) => [r.patient_name, r.prescriber_name, r.quantity])).toEqual([
    ['Neema Said', 'Dr. Baraka Mollel', 1],
    ['Juma Ali', 'Emergency supply (no prescription)', 1],
  ]);
  expect(book.items.every((r) => r.sale_id !== null)).toBe(true);
  const med = await admin.call<{ stock_quantity: number }>('GET', `/medicines/${augmentin}`);
  expect(med.stock_quantity).toBe(8);
});

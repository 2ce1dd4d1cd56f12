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

const CASHIER = {
  email: 'cash.willcall@pharmacy.local',
  password: 'Cash#2026-will-call!',
  full_name: 'Rehema Till',
  role: 'cashier',
};

test('27.1: a will-call pickup is a sale: Sell → Pick up puts the bag in the cart, the payment takes the reserved stock', async ({
  page,
  till,
}) => {
  await page.setViewportSize({ width: 1024, height: 600 });
  const admin = await Api.admin(till);
  await admin.createUser(CASHIER);
  const supplier = await admin.supplier();
  const tramadol = await admin.medicine(supplier, {
    name: 'Tramadol 50',
    barcode: '4000000000271',
    price: 4,
    stock: 41,
    requires_prescription: true,
    is_controlled: true,
  });
  const zithromax = await admin.medicine(supplier, {
    name: 'Zithromax 500',
    barcode: '4000000000272',
    price: 12,
    stock: 83,
    requires_prescription: true,
  });
  // The pharmacist's part: the prescription, dispensed and put on the will-call shelf.
  const issued = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const rx = await admin.call<{ id: string }>('POST', '/prescriptions', {
    patient_name: 'Mwanaidi Hassan',
    patient_id_number: 'NID-88',
    patient_phone: '+255700000271',
    prescriber_name: 'Dr. Mushi',
    prescriber_licence_no: 'MCT-9981',
    prescriber_facility: 'Mnazi Mmoja Hospital',
    issue_date: issued,
    items: [
      { medicine_id: tramadol, quantity: 2 },
      { medicine_id: zithromax, quantity: 1 },
    ],
  });
  await admin.call('POST', `/prescriptions/${rx.id}/dispense`, {});
  const wc = await admin.call<{ id: string }>('POST', '/dispensing/will-call', {
    prescription_id: rx.id,
    bin_location: 'W-27',
  });
  const stock = async (id: string) =>
    (await admin.call<{ stock_quantity: number }>('GET', `/medicines/${id}`)).stock_quantity;
  const onHand = async (id: string) =>
    (await admin.call<{ batches: Array<{ qty_on_hand: number }> }>('GET', `/medicines/${id}`)).batches.reduce(
      (a, b) => a + b.qty_on_hand,
      0,
    );
  // Reserved at dispensing: still on the shelf, no longer available to sell.
  expect([await stock(tramadol), await stock(zithromax)]).toEqual([39, 82]);
  expect([await onHand(tramadol), await onHand(zithromax)]).toEqual([41, 83]);

  const cashier = await Api.login(till, CASHIER);
  await cashier.call('POST', '/sessions/open', { opening_float: 50 });
  await page.goto('/');
  await signIn(page, CASHIER);
  const heading = page.getByRole('heading', { name: 'Sell', level: 1 });
  await expect(heading).toBeVisible();
  // The shelf is the cashier's to hand over from, not to empty: only a pharmacist returns a bag to stock.
  await page.goto('/prescriptions/will-call');
  const shelfRow = page
    .getByRole('table', { name: 'Waiting for pickup' })
    .getByRole('row', { name: /Mwanaidi Hassan/ });
  await expect(shelfRow.getByRole('button', { name: 'Return to stock for Mwanaidi Hassan' })).toBeDisabled();
  await expect(shelfRow).toContainText('Only a pharmacist or an admin can return a bag to stock.');
  await page.screenshot({ path: shot('03b-will-call-cashier') });
  await page.goto('/sell');
  await expect(heading).toBeVisible();
  await page.getByRole('button', { name: 'Pick up', exact: true }).click();
  const pick = page.getByRole('dialog', { name: 'Pick up a will-call' });
  await pick.getByRole('button', { name: 'Pick up for Mwanaidi Hassan' }).click();
  const collector = page.getByRole('dialog', { name: 'Pick up for Mwanaidi Hassan' });
  await expect(collector).toContainText('2 × Tramadol 50');
  await collector.getByLabel('Collector name').fill('Said Hassan');
  await collector.getByLabel('Relationship to the patient').fill('brother');
  await collector.getByRole('button', { name: 'Put in the cart' }).click();
  await expect(collector.getByText('Required: a controlled medicine is handed over.')).toBeVisible();
  await collector.getByLabel('Collector ID number').fill('NID-5150');
  await page.screenshot({ path: shot('04-will-call-collector') });
  await collector.getByRole('button', { name: 'Put in the cart' }).click();
  const cart = page.getByRole('table', { name: 'Cart' });
  await expect(cart.getByRole('row', { name: /Tramadol 50/ })).toBeVisible();
  await expect(cart.getByRole('row', { name: /Zithromax 500/ })).toBeVisible();
  await expect(
    page.getByText('Will-call for Mwanaidi Hassan is in the cart: take the payment.'),
  ).toBeVisible();
  // The whole bag and its Pay button fit the 1024×600 counter screen (issue 29).
  await expect(
    page.getByRole('complementary', { name: 'Totals' }).getByRole('button', { name: /Pay/ }),
  ).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: shot('05-will-call-in-cart') });

  // Nothing has left the shelf until the sale is paid.
  expect(await onHand(tramadol)).toBe(41);
  await page.keyboard.press('F8');
  const pay = page.getByRole('dialog', { name: 'Payment' });
  await pay.getByRole('button', { name: 'Rest in cash' }).click();
  await pay.getByRole('button', { name: 'Complete sale' }).click();
  const done = page.getByRole('dialog', { name: /^Sale / });
  await expect(done).toBeVisible();
  await page.screenshot({ path: shot('06-will-call-sold') });
  await done.getByRole('button', { name: 'New sale' }).click();

  // The books: the sale took the reserved units, the entry is handed over, the register names sale and collector.
  expect([await onHand(tramadol), await onHand(zithromax)]).toEqual([39, 82]);
  expect([await stock(tramadol), await stock(zithromax)]).toEqual([39, 82]);
  const shelf = await admin.call<{
    items: Array<{ id: string; sale_id: string | null; collector_id_number: string }>;
  }>('GET', '/dispensing/will-call?status=picked_up');
  const entry = shelf.items.find((i) => i.id === wc.id)!;
  expect(entry.collector_id_number).toBe('NID-5150');
  expect(entry.sale_id).toBeTruthy();
  const book = await admin.call<{
    items: Array<{ movements: Array<{ quantity: number; reference_id: string; collected_by_name: string }> }>;
  }>('GET', `/compliance/classified-drugs-book?medicine_id=${tramadol}`);
  const out = book.items[0]!.movements.filter((m) => m.quantity < 0);
  expect(out).toEqual([
    expect.objectContaining({ quantity: -2, reference_id: entry.sale_id, collected_by_name: 'Said Hassan' }),
  ]);
  const rxAfter = await admin.call<{ status: string }>('GET', `/prescriptions/${rx.id}`);
  expect(rxAfter.status).toBe('dispensed');
});

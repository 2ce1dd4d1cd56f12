import { Api } from './api';
import { changePassword, expect, PHARMACIST, signIn, test } from './fixtures';

test('a pharmacist dispenses a prescription with a controlled medicine, hands it over, and reads the book', async ({
  page,
  till,
}, testInfo) => {
  const admin = await Api.admin(till);
  const supplier = await admin.supplier();
  await admin.medicine(supplier, {
    name: 'Morfina Retard',
    generic_name: 'Morphine',
    strength: '10 mg',
    form: 'tablet',
    barcode: '4000000000037',
    price: 8.9,
    stock: 30,
    requires_prescription: true,
    is_controlled: true,
  });
  await admin.call('POST', '/customers', {
    name: 'Asha Mrema',
    phone: '+255 700 000 111',
    national_id: 'NID-4455',
  });

  await page.goto('/');
  await signIn(page, PHARMACIST);
  await changePassword(page, PHARMACIST.password, 'Pharm#2026-own');
  await expect(page.getByRole('heading', { name: 'Sell', level: 1 })).toBeVisible();

  // A new prescription: the patient is a customer, one controlled item.
  await page.keyboard.press('F4');
  await expect(page.getByRole('heading', { name: 'Prescriptions', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'New prescription' }).click();
  const form = page.getByRole('dialog', { name: 'New prescription' });
  await form.getByLabel('Search customers').fill('Asha');
  await form.getByRole('button', { name: 'Choose Asha Mrema' }).click();
  await expect(form.getByText('Patient: Asha Mrema')).toBeVisible();
  await form.getByLabel('Prescriber name').fill('Dr. Baraka Mollel');
  await form.getByLabel('Prescriber licence number').fill('MCT-20931');
  await form.getByLabel('Facility').fill('Mnazi Mmoja Hospital');
  const medicine = form.getByRole('combobox', { name: 'Add a medicine' });
  await medicine.fill('Morfina');
  await expect(form.getByRole('option', { name: /Morfina Retard/ })).toBeVisible();
  await medicine.press('Enter');
  await form.getByLabel('Units of Morfina Retard').fill('10');
  await form.getByLabel('Dosage of Morfina Retard').fill('1 tablet every 12 hours');
  await page.screenshot({ path: testInfo.outputPath('30-new-prescription.png') });
  await form.getByRole('button', { name: 'Create prescription' }).click();

  // Dispense it onto the will-call shelf.
  const rx = page.getByRole('dialog', { name: 'Prescription for Asha Mrema' });
  await expect(rx.getByRole('row', { name: /Morfina Retard/ })).toContainText('10');
  await rx.getByLabel('Shelf or bin').fill('C-3');
  // No hand-over from here (issue 27.1): a hand-over is a sale, and the screen points to Sell.
  await expect(rx.getByText(/nothing is handed over here/)).toBeVisible();
  await expect(rx.getByRole('link', { name: 'Sell' })).toHaveAttribute('href', /\/sell$/);
  await expect(rx.getByRole('button', { name: /hand over/i })).toHaveCount(0);
  await expect(rx.getByRole('checkbox', { name: /hand over|collect/i })).toHaveCount(0);
  await rx.getByRole('button', { name: 'Dispense to will-call' }).click();
  await expect(rx.getByRole('status')).toHaveText('Dispensed and placed on the will-call shelf at C-3.');
  await page.screenshot({ path: testInfo.outputPath('31-dispensed.png') });
  await rx.getByRole('button', { name: 'Close' }).click();

  // Pickup is a sale at the till (issue 27.1): Sell → Pick up, the collector's ID number for the controlled
  // medicine, then the payment.
  await page
    .getByRole('navigation', { name: 'Prescriptions' })
    .getByRole('link', { name: 'Will-call' })
    .click();
  const waiting = page.getByRole('table', { name: 'Waiting for pickup' });
  await expect(waiting.getByRole('row', { name: /Asha Mrema/ })).toContainText('10 × Morfina Retard');
  const pharmacist = await Api.login(till, { email: PHARMACIST.email, password: 'Pharm#2026-own' });
  await pharmacist.call('POST', '/sessions/open', { opening_float: 50 });
  await page.keyboard.press('F1');
  await expect(page.getByRole('heading', { name: 'Sell', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Pick up', exact: true }).click();
  await page
    .getByRole('dialog', { name: 'Pick up a will-call' })
    .getByRole('button', { name: 'Pick up for Asha Mrema' })
    .click();
  const pickup = page.getByRole('dialog', { name: 'Pick up for Asha Mrema' });
  await pickup.getByLabel('Collector name').fill('Juma Mrema');
  await pickup.getByLabel('Relationship to the patient').fill('brother');
  await pickup.getByRole('button', { name: 'Put in the cart' }).click();
  await expect(pickup.getByText('Required: a controlled medicine is handed over.')).toBeVisible();
  await pickup.getByLabel('Collector ID number').fill('TZ-ID-778899');
  await page.screenshot({ path: testInfo.outputPath('32-pickup.png') });
  await pickup.getByRole('button', { name: 'Put in the cart' }).click();
  await expect(pickup).toBeHidden();
  await page.keyboard.press('F8');
  const pay = page.getByRole('dialog', { name: 'Payment' });
  await pay.getByRole('button', { name: 'Rest in cash' }).click();
  await pay.getByRole('button', { name: 'Complete sale' }).click();
  const done = page.getByRole('dialog', { name: /^Sale / });
  await done.getByRole('button', { name: 'New sale' }).click();
  await page.keyboard.press('F4');
  await page
    .getByRole('navigation', { name: 'Prescriptions' })
    .getByRole('link', { name: 'Will-call' })
    .click();
  await expect(page.getByText('Nothing is waiting on the shelf.')).toBeVisible();

  // The controlled-drugs book: received 30, dispensed 10 with the collector's ID, balance 20.
  await page.getByRole('link', { name: 'Controlled drugs book' }).click();
  const book = page.getByRole('region', { name: 'Book of Morfina Retard' });
  await expect(book).toContainText('closing balance 20');
  await expect(book.getByText('Balanced')).toBeVisible();
  const movements = book.getByRole('table', { name: 'Movements of Morfina Retard' });
  await expect(movements.getByRole('row')).toHaveCount(3);
  const received = movements.getByRole('row', { name: /Received/ });
  await expect(received).toContainText('+30');
  await expect(received.getByRole('cell').nth(4)).toHaveText('30');
  const dispensed = movements.getByRole('row', { name: /Dispensed/ });
  await expect(dispensed).toContainText('-10');
  await expect(dispensed.getByRole('cell').nth(4)).toHaveText('20');
  await expect(dispensed).toContainText('Asha Mrema / Dr. Baraka Mollel');
  await expect(dispensed).toContainText('Juma Mrema (ID TZ-ID-778899)');
  await page.screenshot({ path: testInfo.outputPath('33-controlled-book.png'), fullPage: true });
});

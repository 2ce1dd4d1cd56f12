import fs from 'node:fs';
import { expect, signIn, test } from './fixtures';
import { inDays, MANAGER, PurchasingApi } from './purchasing-api';

const shot = (name: string) => ({ path: `e2e/screenshots/purchasing-${name}.png`, fullPage: true });

test('a branch manager raises a PO from reorder suggestions, receives it in two parts and pays the invoice partly', async ({
  page,
  till,
}) => {
  const api = await PurchasingApi.start(till);
  const afya = await api.supplier('Afya Distributors', { lead_time_days: 5 });
  const other = await api.supplier('Other Wholesale');
  const amox = await api.medicine(
    { name: 'Amoxicillin 500mg', barcode: '6001234500011', threshold: 50, stock: 10, cost: 0.4 },
    afya.id,
  );
  const ibu = await api.medicine(
    { name: 'Ibuprofen 200mg', barcode: '6001234500028', threshold: 30, stock: 5, cost: 0.25 },
    afya.id,
  );
  const zinc = await api.medicine(
    { name: 'Zinc tablets', barcode: '6001234500035', threshold: 20, stock: 2, cost: 0.1 },
    other.id,
  );
  await api.manager();

  await page.goto('/');
  await signIn(page, MANAGER);
  await page.getByRole('link', { name: /Back office/ }).click();
  const nav = page.getByRole('navigation', { name: 'Back office' });
  await nav.getByRole('link', { name: 'Purchase orders' }).click();
  await expect(page.getByRole('heading', { name: 'Purchase orders', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Order from reorder suggestions' }).click();

  // The suggestions: threshold - stock (no sales yet), the supplier of the last batch and its cost.
  const suggestions = page.getByRole('table', { name: 'Reorder suggestions' });
  await expect(suggestions.getByRole('row', { name: /Amoxicillin 500mg/ })).toContainText(
    'Afya Distributors',
  );
  await expect(page.getByLabel('Quantity to order of Amoxicillin 500mg')).toHaveValue('40');
  await expect(page.getByLabel('Quantity to order of Ibuprofen 200mg')).toHaveValue('25');
  await expect(page.getByLabel('Quantity to order of Zinc tablets')).toHaveValue('18');
  await page.getByLabel('Supplier').selectOption({ label: 'Afya Distributors' });
  await expect(page.getByLabel('Order Zinc tablets')).not.toBeChecked();
  await expect(page.getByLabel('Order Amoxicillin 500mg')).toBeChecked();
  await page.getByLabel('Quantity to order of Amoxicillin 500mg').fill('60');
  await page.screenshot(shot('01-suggestions'));
  await page.getByRole('button', { name: 'Add 2 to the order' }).click();

  const lines = page.getByRole('table', { name: 'Order lines' });
  await expect(page.getByLabel('Quantity of Amoxicillin 500mg')).toHaveValue('60');
  await expect(page.getByLabel('Unit cost of Amoxicillin 500mg')).toHaveValue('0.40');
  await expect(lines.getByRole('row', { name: /Ibuprofen 200mg/ })).toContainText('6.25');
  await page.getByLabel('Expected delivery').fill(inDays(5));
  await page.getByRole('button', { name: 'Create draft order' }).click();

  await expect(page.getByRole('heading', { name: /Order from Afya Distributors/ })).toContainText('Draft');
  const poId = /purchase-orders\/([0-9a-f-]{36})/.exec(page.url())?.[1] ?? '';
  expect(poId).not.toBe('');
  // Only what the API allows from DRAFT: send or cancel, not receive.
  await expect(page.getByRole('button', { name: 'Receive goods' })).toHaveCount(0);
  await expect(page.getByRole('table', { name: 'Ordered items' })).toContainText('24.00');
  await page.screenshot(shot('02-draft'));

  // CSV export, built in the browser from the order.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = fs.readFileSync((await (await download).path()) ?? '', 'utf8');
  expect(csv).toContain('Amoxicillin 500mg,60,0,60,0.40,24.00');
  expect(csv).toContain('Total,,,,,30.25');

  await page.getByRole('button', { name: 'Send to supplier' }).click();
  await expect(page.getByRole('heading', { name: /Order from Afya Distributors/ })).toContainText(
    'Sent to supplier',
  );
  await expect(page.getByRole('button', { name: 'Send to supplier' })).toHaveCount(0);

  // Escape closes the receiving form; then the first delivery: 20 amoxicillin, no ibuprofen yet.
  await page.getByRole('button', { name: 'Receive goods' }).click();
  await page.getByLabel('Batch number of Amoxicillin 500mg').press('Escape');
  await expect(page.getByRole('table', { name: 'Goods received' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Receive goods' }).click();
  await page.getByLabel('Quantity received of Amoxicillin 500mg').fill('20');
  await page.getByLabel('Batch number of Amoxicillin 500mg').fill('AMX-2601');
  await page.getByLabel('Expiry of Amoxicillin 500mg').fill(inDays(400));
  await page.getByLabel('Quantity received of Ibuprofen 200mg').fill('0');
  await page.screenshot(shot('03-receive'));
  await page.getByRole('button', { name: 'Record receipt' }).click();
  await expect(page.getByRole('heading', { name: /Order from Afya Distributors/ })).toContainText(
    'Partly received',
  );
  await expect(page.getByRole('button', { name: 'Cancel order' })).toHaveCount(0);
  await page.screenshot(shot('04-partly-received'));

  // Second delivery: the rest, prefilled with what is outstanding.
  await page.getByRole('button', { name: 'Receive goods' }).click();
  await expect(page.getByLabel('Quantity received of Amoxicillin 500mg')).toHaveValue('40');
  await page.getByLabel('Batch number of Amoxicillin 500mg').fill('AMX-2602');
  await page.getByLabel('Expiry of Amoxicillin 500mg').fill(inDays(500));
  await page.getByLabel('Batch number of Ibuprofen 200mg').fill('IBU-77');
  await page.getByLabel('Expiry of Ibuprofen 200mg').fill(inDays(450));
  await page.getByRole('button', { name: 'Record receipt' }).click();
  await expect(page.getByRole('heading', { name: /Order from Afya Distributors/ })).toContainText('Received');
  await expect(page.getByRole('table', { name: 'Receipts' }).getByRole('row')).toHaveCount(4);
  await page.screenshot(shot('05-received'));

  await page.getByRole('link', { name: 'Back to the list' }).click();
  await page.getByRole('button', { name: /^Total/ }).click();
  await expect(page.getByRole('columnheader', { name: /Total/ })).toHaveAttribute('aria-sort', 'ascending');
  await expect(page.getByRole('table', { name: 'Purchase orders' })).toContainText('Received');
  await page.screenshot(shot('00-list'));

  // Stock and ledgers moved exactly.
  const po = await api.call<{ status: string; items: Array<{ medicine_id: string; received_qty: number }> }>(
    'GET',
    `/purchase-orders/${poId}`,
  );
  expect(po.status).toBe('RECEIVED');
  expect(Object.fromEntries(po.items.map((i) => [i.medicine_id, i.received_qty]))).toEqual({
    [amox]: 60,
    [ibu]: 25,
  });
  expect(await api.stock(amox)).toBe(70);
  expect(await api.stock(ibu)).toBe(30);
  expect(await api.stock(zinc)).toBe(2);
  const ledger = (await api.movements(amox)).map((m) => [
    m.type,
    m.quantity,
    m.batch_number,
    m.reference_id === poId,
  ]);
  expect(ledger).toEqual([
    ['purchase', 10, 'B-0011', false],
    ['purchase', 20, 'AMX-2601', true],
    ['purchase', 40, 'AMX-2602', true],
  ]);
  expect((await api.movements(ibu)).map((m) => [m.type, m.quantity, m.batch_number])).toEqual([
    ['purchase', 5, 'B-0028'],
    ['purchase', 25, 'IBU-77'],
  ]);

  // The supplier's invoice, paid in part.
  await nav.getByRole('link', { name: 'Suppliers' }).click();
  await expect(page.getByRole('heading', { name: 'Suppliers', level: 1 })).toBeVisible();
  await page.keyboard.press('/');
  await expect(page.getByLabel('Search suppliers')).toBeFocused();
  await page.keyboard.type('afya');
  await expect(page.getByRole('table', { name: 'Suppliers' }).getByRole('row')).toHaveCount(2);
  await page.getByRole('link', { name: 'Afya Distributors' }).click();
  await page.getByRole('button', { name: 'Record invoice' }).click();
  const record = page.getByRole('dialog', { name: 'Record an invoice of Afya Distributors' });
  await record.getByLabel('Invoice number').fill('AF-1001');
  await record.getByLabel('Total amount').fill('30.25');
  await record.getByLabel('Due date').fill(inDays(30));
  await record.getByRole('button', { name: 'Record invoice' }).click();
  await expect(record).toBeHidden();
  const row = page.getByRole('table', { name: 'Invoices' }).getByRole('row', { name: /AF-1001/ });
  await expect(row).toContainText('Unpaid');
  await expect(page.getByRole('status').filter({ hasText: 'Due to Afya' })).toContainText('30.25');

  await row.getByRole('button', { name: 'Pay invoice AF-1001' }).click();
  const pay = page.getByRole('dialog', { name: 'Pay invoice AF-1001' });
  await pay.getByLabel('Amount').fill('40');
  await pay.getByLabel('Reference').fill('TRX-88');
  await pay.getByRole('button', { name: 'Record payment' }).click();
  await expect(pay.getByText('at most 30.25')).toBeVisible();
  await expect(pay.getByLabel('Reference')).toHaveValue('TRX-88');
  await pay.getByLabel('Amount').fill('10');
  await pay.getByRole('button', { name: 'Record payment' }).click();
  await expect(pay).toBeHidden();
  await expect(row).toContainText('Partly paid');
  await expect(row).toContainText('20.25');
  await expect(page.getByRole('status').filter({ hasText: 'Due to Afya' })).toContainText('20.25');
  await page.screenshot(shot('06-supplier-invoice'));
  await row.getByRole('button', { name: 'Payments of invoice AF-1001' }).click();
  const payments = page.getByRole('dialog', { name: 'Payments of invoice AF-1001' });
  await expect(payments.getByRole('table', { name: 'Payments' })).toContainText('TRX-88');
  await page.screenshot(shot('07-payments'));
  await page.keyboard.press('Escape');
  await expect(payments).toBeHidden();

  const invoices = await api.call<{
    items: Array<{ invoice_no: string; paid_amount: string; balance: string; status: string; id: string }>;
  }>('GET', `/supplier-finance/invoices?supplier_id=${afya.id}`);
  expect(invoices.items).toHaveLength(1);
  expect(invoices.items[0]).toMatchObject({
    invoice_no: 'AF-1001',
    paid_amount: '10.00',
    balance: '20.25',
    status: 'partial',
  });
  const paid = await api.call<{ items: Array<{ amount: string; method: string; reference: string }> }>(
    'GET',
    `/supplier-finance/invoices/${invoices.items[0]?.id}/payments`,
  );
  expect(paid.items.map((p) => [p.amount, p.method, p.reference])).toEqual([
    ['10.00', 'bank_transfer', 'TRX-88'],
  ]);
});

test('a branch manager keeps the supplier list, orders from scratch and cancels the order', async ({
  page,
  till,
}) => {
  const api = await PurchasingApi.start(till);
  const seed = await api.supplier('Seed Supplier');
  const amox = await api.medicine(
    { name: 'Amoxicillin 500mg', barcode: '6001234500011', threshold: 5, stock: 40, cost: 0.4 },
    seed.id,
  );
  await api.manager();
  await page.goto('/back-office/suppliers');
  await signIn(page, MANAGER);
  await expect(page.getByRole('heading', { name: 'Suppliers', level: 1 })).toBeVisible();

  // Create: the server's messages land beside their fields and nothing typed is lost.
  await page.getByRole('button', { name: 'New supplier' }).click();
  const create = page.getByRole('dialog', { name: 'New supplier' });
  await create.getByLabel('Name').fill('Medsource Ltd');
  await create.getByLabel('Email').fill('orders@');
  await create.getByLabel('Lead time (days)').fill('400');
  await create.getByRole('button', { name: 'Create supplier' }).click();
  await expect(create.getByText('must be an email address', { exact: true })).toBeVisible();
  await expect(create.getByText('must be at most 365', { exact: true })).toBeVisible();
  await expect(create.getByLabel('Name')).toHaveValue('Medsource Ltd');
  await create.getByLabel('Email').fill('orders@medsource.example');
  await create.getByLabel('Lead time (days)').fill('4');
  await page.screenshot(shot('08-new-supplier'));
  await create.getByRole('button', { name: 'Create supplier' }).click();
  await expect(create).toBeHidden();
  const table = page.getByRole('table', { name: 'Suppliers' });
  await expect(table.getByRole('row', { name: /Medsource Ltd/ })).toContainText('4');

  // Sort by lead time, edit, deactivate.
  await page.getByRole('button', { name: /^Lead time/ }).click();
  await expect(page.getByRole('columnheader', { name: /Lead time/ })).toHaveAttribute(
    'aria-sort',
    'ascending',
  );
  await expect(table.getByRole('row').nth(1)).toContainText('Medsource Ltd');
  await page.getByRole('button', { name: 'Edit Medsource Ltd' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Medsource Ltd' });
  await edit.getByLabel('Phone').fill('+255 22 000 111');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  await expect(table.getByRole('row', { name: /Medsource Ltd/ })).toContainText('+255 22 000 111');
  await page.screenshot(shot('09-suppliers'));
  await page.getByRole('button', { name: 'Deactivate Seed Supplier' }).click();
  await page
    .getByRole('dialog', { name: 'Deactivate Seed Supplier' })
    .getByRole('button', { name: 'Deactivate' })
    .click();
  await expect(table.getByRole('row', { name: /Seed Supplier/ })).toHaveCount(0);
  await page.getByLabel('Show').selectOption({ label: 'Inactive suppliers' });
  await expect(table.getByRole('row', { name: /Seed Supplier/ })).toContainText('Inactive');
  const suppliers = await api.call<{
    items: Array<{ name: string; is_active: boolean; phone: string; lead_time_days: number }>;
  }>('GET', '/suppliers?is_active=all&search=Med');
  expect(suppliers.items).toMatchObject([
    { name: 'Medsource Ltd', is_active: true, phone: '+255 22 000 111', lead_time_days: 4 },
  ]);

  // An order from scratch: the medicine search, typed quantity and cost; then cancelled with a reason.
  await page
    .getByRole('navigation', { name: 'Back office' })
    .getByRole('link', { name: 'Purchase orders' })
    .click();
  await page.getByRole('link', { name: 'New order' }).click();
  await page.getByLabel('Supplier').selectOption({ label: 'Medsource Ltd' });
  await page.getByLabel('Add a medicine').fill('Amoxi');
  await expect(page.getByRole('option', { name: /Amoxicillin 500mg/ })).toBeVisible();
  await page.getByLabel('Add a medicine').press('Enter');
  await page.getByLabel('Quantity of Amoxicillin 500mg').fill('12');
  await page.getByRole('button', { name: 'Create draft order' }).click();
  await expect(page.getByText('must be an amount', { exact: true })).toBeVisible();
  await page.getByLabel('Unit cost of Amoxicillin 500mg').fill('0.35');
  await expect(page.getByRole('table', { name: 'Order lines' })).toContainText('4.20');
  await page.getByRole('button', { name: 'Create draft order' }).click();
  const heading = page.getByRole('heading', { name: /Order from Medsource Ltd/ });
  await expect(heading).toContainText('Draft');
  await page.getByRole('button', { name: 'Send to supplier' }).click();
  await expect(heading).toContainText('Sent to supplier');
  await page.getByRole('button', { name: 'Cancel order' }).click();
  const cancel = page.getByRole('dialog', { name: 'Cancel the order from Medsource Ltd' });
  await cancel.getByLabel('Reason').fill('Supplier out of stock');
  await cancel.getByRole('button', { name: 'Cancel order' }).click();
  await expect(heading).toContainText('Cancelled');
  // Final: nothing but print and export.
  for (const action of ['Send to supplier', 'Receive goods', 'Cancel order'])
    await expect(page.getByRole('button', { name: action })).toHaveCount(0);
  await expect(page.getByText('Supplier out of stock')).toBeVisible();
  await page.screenshot(shot('10-cancelled'));
  const orders = await api.call<{
    items: Array<{ status: string; cancel_reason: string; total_amount: string }>;
  }>('GET', '/purchase-orders?status=CANCELLED');
  expect(orders.items).toMatchObject([
    { status: 'CANCELLED', cancel_reason: 'Supplier out of stock', total_amount: '4.20' },
  ]);
  expect(await api.stock(amox)).toBe(40);
});

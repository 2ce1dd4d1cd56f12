import { expect, signIn, test } from './fixtures';
import { inDays, MANAGER, PurchasingApi } from './purchasing-api';

const shot = (name: string) => ({ path: `e2e/screenshots/transfers-counts-${name}.png`, fullPage: true });

test('a transfer between two branches is sent (FEFO and a chosen batch) and received', async ({
  page,
  till,
}) => {
  const api = await PurchasingApi.start(till);
  const main = api.branchId;
  const kariakoo = (await api.branch('Kariakoo', 'KKO-01')).id;
  const supplier = (await api.supplier('Afya Distributors')).id;
  const para = await api.medicine(
    { name: 'Paracetamol 500mg', barcode: '6001234511112', threshold: 5, stock: 0, cost: 0.05 },
    supplier,
  );
  await api.receive(para, supplier, 10, 0.05, 'P-SOON', inDays(60));
  await api.receive(para, supplier, 50, 0.05, 'P-LATE', inDays(400));
  const held = await api.receive(para, supplier, 20, 0.05, 'P-HELD', inDays(30));
  await api.quarantine(held.id);
  const cet = await api.medicine(
    { name: 'Cetirizine 10mg', barcode: '6001234511129', threshold: 5, stock: 0, cost: 0.1 },
    supplier,
  );
  await api.receive(cet, supplier, 30, 0.1, 'C-1', inDays(200));
  const c2 = await api.receive(cet, supplier, 30, 0.1, 'C-2', inDays(300));
  await api.manager();
  const kariakooManager = {
    email: 'kim@pharmacy.local',
    password: 'Kim#2026-kariakoo',
    full_name: 'Kim Kariakoo',
  };
  await api.userIn(kariakoo, { ...kariakooManager, role: 'branch_manager' });

  await page.goto('/');
  await signIn(page, MANAGER);
  await page.getByRole('link', { name: /Back office/ }).click();
  await page
    .getByRole('navigation', { name: 'Back office' })
    .getByRole('link', { name: 'Transfers' })
    .click();
  await expect(page.getByRole('heading', { name: 'Transfers', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Send stock' }).click();
  await page.getByLabel('To branch').selectOption({ label: 'Kariakoo' });
  await page.getByLabel('Notes').fill('Weekend cover');
  const search = page.getByLabel('Add a medicine to send');
  await search.fill('Paracetamol');
  await page.getByRole('option', { name: /Paracetamol 500mg/ }).click();
  await page.getByLabel('Quantity to send of Paracetamol 500mg').fill('25');
  // FEFO by default: the earliest expiry first, the quarantined batch skipped.
  await expect(page.getByText('P-SOON ×10, P-LATE ×15')).toBeVisible();
  await search.fill('Cetirizine');
  await page.getByRole('option', { name: /Cetirizine 10mg/ }).click();
  await page.getByLabel('Quantity to send of Cetirizine 10mg').fill('12');
  await page.getByLabel('Batch to send of Cetirizine 10mg').selectOption(c2.id);
  await page.screenshot(shot('01-send'));
  await page.getByRole('button', { name: 'Send stock' }).last().click();
  await expect(page.getByRole('status').filter({ hasText: 'Sent 37 units to Kariakoo' })).toBeVisible();
  const row = page.getByRole('table', { name: 'Transfers' }).getByRole('row', { name: /Out to Kariakoo/ });
  await expect(row).toContainText('P-SOON');
  await expect(row).toContainText('37');
  await page.screenshot(shot('02-sent'));

  // The manager of the other branch sees it arrived.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await signIn(page, kariakooManager);
  await page.getByRole('link', { name: /Back office/ }).click();
  await page
    .getByRole('navigation', { name: 'Back office' })
    .getByRole('link', { name: 'Transfers' })
    .click();
  await page.getByLabel('Show').selectOption({ label: 'Incoming' });
  const incoming = page
    .getByRole('table', { name: 'Transfers' })
    .getByRole('row', { name: /In from Main Branch/ });
  await expect(incoming).toContainText('Received into stock');
  await expect(incoming).toContainText('Cetirizine 10mg: C-2');
  await page.screenshot(shot('03-received'));

  // Stock and ledgers moved exactly.
  const transfers = await api.call<{ items: Array<{ id: string }> }>(
    'GET',
    `/transfers?branch_id=${kariakoo}&direction=in`,
  );
  expect(transfers.items).toHaveLength(1);
  const transferId = transfers.items[0]?.id;
  expect(await api.stock(para, main)).toBe(35);
  expect(await api.stock(para, kariakoo)).toBe(25);
  expect(await api.stock(cet, main)).toBe(48);
  expect(await api.stock(cet, kariakoo)).toBe(12);
  const out = (await api.movements(para, main)).filter((m) => m.type === 'transfer_out');
  expect(out.map((m) => [m.batch_number, m.quantity, m.reference_id])).toEqual([
    ['P-SOON', -10, transferId],
    ['P-LATE', -15, transferId],
  ]);
  const inn = await api.movements(para, kariakoo);
  expect(inn.map((m) => [m.type, m.batch_number, m.quantity, m.reference_id])).toEqual([
    ['transfer_in', 'P-SOON', 10, transferId],
    ['transfer_in', 'P-LATE', 15, transferId],
  ]);
  expect((await api.movements(cet, kariakoo)).map((m) => [m.type, m.batch_number, m.quantity])).toEqual([
    ['transfer_in', 'C-2', 12],
  ]);
  const heldBatch = await api.batches(para, main);
  expect(heldBatch.items.find((b) => b.batch_number === 'P-HELD')?.qty_on_hand).toBe(20);
});

import { expect, signIn, test } from './fixtures';
import { inDays, MANAGER, PurchasingApi } from './purchasing-api';

const shot = (name: string) => ({ path: `e2e/screenshots/transfers-counts-${name}.png`, fullPage: true });

test('a transfer between two branches is sent (FEFO and a chosen batch), in transit, and received at the other branch with a damaged line', async ({
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
  await expect(
    page.getByRole('status').filter({ hasText: 'Sent 37 units to Kariakoo, in transit' }),
  ).toBeVisible();
  // In transit: out of this branch, not yet at the other.
  const transit = page
    .getByRole('table', { name: 'In transit' })
    .getByRole('row', { name: /Out to Kariakoo/ });
  await expect(transit).toContainText('P-SOON');
  await expect(transit).toContainText('37');
  await expect(transit.getByRole('button', { name: /Cancel transfer to Kariakoo/ })).toBeVisible();
  const row = page.getByRole('table', { name: 'Transfers' }).getByRole('row', { name: /Out to Kariakoo/ });
  await expect(row).toContainText('In transit');
  await page.screenshot(shot('02-in-transit'));
  const sent = await api.call<{ items: Array<{ id: string; status: string }> }>(
    'GET',
    `/transfers?branch_id=${kariakoo}&direction=in&status=in_transit`,
  );
  expect(sent.items).toHaveLength(1);
  const transferId = sent.items[0]?.id;
  expect(await api.stock(para, main)).toBe(35);
  expect(await api.stock(para, kariakoo)).toBe(0);
  expect(await api.stock(cet, kariakoo)).toBe(0);

  // The manager of the other branch receives it: the Cetirizine arrived with two boxes damaged.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await signIn(page, kariakooManager);
  await page.getByRole('link', { name: /Back office/ }).click();
  await page
    .getByRole('navigation', { name: 'Back office' })
    .getByRole('link', { name: 'Transfers' })
    .click();
  const incoming = page
    .getByRole('table', { name: 'In transit' })
    .getByRole('row', { name: /In from Main Branch/ });
  await expect(incoming).toContainText('Cetirizine 10mg: C-2');
  await incoming.getByRole('button', { name: /Receive transfer from Main Branch/ }).click();
  await page.getByLabel('Received of Cetirizine 10mg C-2').fill('10');
  await page.getByRole('button', { name: 'Receive into stock' }).click();
  // a short line needs a reason: the form says so and keeps what was typed
  await expect(page.getByText('say why fewer arrived')).toBeVisible();
  await expect(page.getByLabel('Received of Cetirizine 10mg C-2')).toHaveValue('10');
  await page.getByLabel('Discrepancy reason for Cetirizine 10mg C-2').selectOption('damaged');
  await page.getByLabel('Receipt notes').fill('Two boxes crushed');
  await page.screenshot(shot('03-receive'));
  await page.getByRole('button', { name: 'Receive into stock' }).click();
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: 'Received from Main Branch' })
      .filter({ hasText: '10 of 12 received (damaged)' }),
  ).toBeVisible();
  await expect(page.getByText('Nothing in transit to or from this branch.')).toBeVisible();
  const received = page
    .getByRole('table', { name: 'Transfers' })
    .getByRole('row', { name: /In from Main Branch/ });
  await expect(received).toContainText('Received with discrepancy');
  await expect(received).toContainText('Two boxes crushed');
  await page.screenshot(shot('04-received'));

  // Stock and ledgers moved exactly.
  const done = await api.call<{
    status: string;
    items: Array<{ received_quantity: number; discrepancy_reason: string | null }>;
  }>('GET', `/transfers/${transferId}`);
  expect(done.status).toBe('received');
  expect(done.items.map((i) => [i.received_quantity, i.discrepancy_reason]).sort()).toEqual(
    [
      [10, null],
      [15, null],
      [10, 'damaged'],
    ].sort(),
  );
  expect(await api.stock(para, main)).toBe(35);
  expect(await api.stock(para, kariakoo)).toBe(25);
  expect(await api.stock(cet, main)).toBe(48);
  expect(await api.stock(cet, kariakoo)).toBe(10);
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
    ['transfer_in', 'C-2', 10],
  ]);
  const heldBatch = await api.batches(para, main);
  expect(heldBatch.items.find((b) => b.batch_number === 'P-HELD')?.qty_on_hand).toBe(20);

  // The stock ledger at Kariakoo links the transfer_in to the transfer's own page.
  await page
    .getByRole('navigation', { name: 'Back office' })
    .getByRole('link', { name: 'Stock', exact: true })
    .click();
  await page.keyboard.press('/');
  await page.keyboard.type('Cetirizine');
  await expect(page.getByRole('list', { name: 'Matching medicines' })).toContainText('Cetirizine 10mg');
  await page.keyboard.press('Enter');
  const ledger = page.getByRole('table', { name: 'Movement ledger' });
  const transferIn = ledger.getByRole('row', { name: /Transfer in/ });
  await expect(transferIn).toContainText('+10');
  await page.screenshot(shot('05-ledger-link'));
  await transferIn.getByRole('link', { name: new RegExp(`Transfer …${transferId?.slice(-8)}`) }).click();
  await expect(page.getByRole('heading', { name: 'Transfer from Main Branch to Kariakoo' })).toBeVisible();
  const lines = page.getByRole('table', { name: 'Transfer lines' });
  await expect(lines.getByRole('row', { name: /C-2/ })).toContainText('damaged');
  await expect(page.getByText('Received with discrepancy')).toBeVisible();
  await page.screenshot(shot('06-transfer-page'));
});

test('the sender cancels a transfer in transit: the stock is back in the batch it left', async ({
  page,
  till,
}) => {
  const api = await PurchasingApi.start(till);
  const kariakoo = (await api.branch('Kariakoo', 'KKO-01')).id;
  const supplier = (await api.supplier('Afya Distributors')).id;
  const ibu = await api.medicine(
    { name: 'Ibuprofen 200mg', barcode: '6001234533334', threshold: 5, stock: 0, cost: 0.08 },
    supplier,
  );
  await api.receive(ibu, supplier, 40, 0.08, 'I-1', inDays(250));
  await api.manager();
  const sent = await api.call<{ id: string }>('POST', '/transfers', {
    to_branch_id: kariakoo,
    items: [{ medicine_id: ibu, quantity: 15 }],
  });
  expect(await api.stock(ibu, api.branchId)).toBe(25);

  await page.goto('/');
  await signIn(page, MANAGER);
  await page.getByRole('link', { name: /Back office/ }).click();
  await page
    .getByRole('navigation', { name: 'Back office' })
    .getByRole('link', { name: 'Transfers' })
    .click();
  const transit = page
    .getByRole('table', { name: 'In transit' })
    .getByRole('row', { name: /Out to Kariakoo/ });
  await transit.getByRole('button', { name: /Cancel transfer to Kariakoo/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel transfer to Kariakoo' });
  await dialog.getByLabel('Reason').fill('Kariakoo restocked by supplier');
  await page.screenshot(shot('07-cancel'));
  await dialog.getByRole('button', { name: 'Cancel transfer' }).click();
  await expect(page.getByRole('status').filter({ hasText: '15 units are back in stock' })).toBeVisible();
  await expect(
    page.getByRole('table', { name: 'Transfers' }).getByRole('row', { name: /Out to Kariakoo/ }),
  ).toContainText('Cancelled: Kariakoo restocked by supplier');
  await page.screenshot(shot('08-cancelled'));
  expect(await api.stock(ibu, api.branchId)).toBe(40);
  expect(await api.stock(ibu, kariakoo)).toBe(0);
  const t = await api.call<{ status: string }>('GET', `/transfers/${sent.id}`);
  expect(t.status).toBe('cancelled');
});

test('a pharmacist counts stock by scanning and typing; a large variance is approved by the manager; the count is submitted', async ({
  page,
  browser,
  till,
}) => {
  const api = await PurchasingApi.start(till);
  const supplier = (await api.supplier('Afya Distributors')).id;
  const amox = await api.medicine(
    { name: 'Amoxicillin 250mg', barcode: '6001234522221', threshold: 5, stock: 0, cost: 0.2 },
    supplier,
  );
  const amoxBatch = await api.receive(amox, supplier, 30, 0.2, 'AMX-1', inDays(300));
  const vitc = await api.medicine(
    { name: 'Vitamin C 500mg', barcode: '6001234533337', threshold: 5, stock: 0, cost: 0.05 },
    supplier,
  );
  await api.receive(vitc, supplier, 12, 0.05, 'VC-1', inDays(100));
  const vc2 = await api.receive(vitc, supplier, 8, 0.05, 'VC-2', inDays(200));
  const pharmacist = {
    email: 'peter.pharm@pharmacy.local',
    password: 'Peter#2026-counts',
    full_name: 'Peter Pharmacist',
  };
  await api.admin.createUser({ ...pharmacist, role: 'pharmacist' });
  await api.manager();

  await page.goto('/');
  await signIn(page, pharmacist);
  await page.getByRole('link', { name: /Back office/ }).click();
  const nav = page.getByRole('navigation', { name: 'Back office' });
  // A pharmacist's back office is stock counting only.
  await expect(nav.getByRole('link')).toHaveText(['Stock counts']);
  await expect(page.getByRole('heading', { name: 'Stock counts', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Start count sheet' }).click();
  const sheet = page.getByRole('table', { name: 'Count sheet' });
  await expect(sheet.getByRole('row', { name: /AMX-1/ })).toContainText('30');
  const total = await sheet.getByRole('row').count();

  // Scan: a plain EAN counts a pack of the only batch; a GS1 DataMatrix names the batch.
  await page.keyboard.press('/');
  await expect(page.getByLabel('Scan or find')).toBeFocused();
  await page.keyboard.type('6001234522221');
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Counted of Amoxicillin 250mg batch AMX-1')).toHaveValue('1');
  await page.getByLabel('Scan or find').fill('010600123453333710VC-2');
  await page.getByLabel('Scan or find').press('Enter');
  await expect(page.getByLabel('Counted of Vitamin C 500mg batch VC-2')).toHaveValue('1');
  await expect(page.getByText('Counted 2 of')).toBeVisible();
  // Type the rest: Enter moves to the next batch.
  await page.getByLabel('Counted of Amoxicillin 250mg batch AMX-1').fill('45');
  await page.getByLabel('Counted of Vitamin C 500mg batch VC-1').fill('12');
  await page.getByLabel('Counted of Vitamin C 500mg batch VC-1').press('Enter');
  await expect(page.getByLabel('Counted of Vitamin C 500mg batch VC-2')).toBeFocused();
  await page.keyboard.type('7');
  await expect(page.getByLabel('Counted of Vitamin C 500mg batch VC-2')).toHaveValue('7');
  await expect(sheet.getByRole('row', { name: /AMX-1/ })).toContainText('+15');
  await expect(page.getByText(`Counted 3 of ${total - 1} batches`)).toBeVisible();
  await page.screenshot(shot('09-count-sheet'));

  await page.getByRole('button', { name: 'Review and submit' }).click();
  const review = page.getByRole('dialog', { name: 'Review the count' });
  await expect(review.getByRole('table', { name: 'Variances' }).getByRole('row')).toHaveCount(3);
  await expect(review.getByRole('row', { name: /AMX-1/ })).toContainText('+15 (needs approval)');
  await expect(review.getByRole('button', { name: 'Submit count' })).toBeDisabled();
  await review.getByLabel('Reason for the variance').fill('A carton was in the store room');
  await review.getByRole('button', { name: 'Ask for approval' }).click();
  await expect(review.getByText(/waiting for a branch manager/)).toBeVisible();
  await page.screenshot(shot('10-approval-asked'));

  // The branch manager approves it from their Stock counts screen.
  const managerContext = await browser.newContext({ baseURL: till.url });
  const manager = await managerContext.newPage();
  await manager.goto('/back-office/stock-counts');
  await signIn(manager, MANAGER);
  const waiting = manager.getByRole('table', { name: 'Approvals waiting' });
  await expect(waiting).toContainText('Amoxicillin 250mg AMX-1');
  await expect(waiting).toContainText('15');
  await manager.getByRole('button', { name: 'Decide the request of Peter Pharmacist' }).click();
  const decide = manager.getByRole('dialog', { name: 'Variance of 15 units' });
  await decide.getByLabel('Your reason').fill('Checked the store room myself');
  await manager.screenshot(shot('11-manager-approves'));
  await decide.getByRole('button', { name: 'Approve' }).click();
  await expect(decide).toBeHidden();
  await managerContext.close();

  await review.getByRole('button', { name: 'Check again' }).click();
  await expect(review.getByText('Approved by Maria Manager')).toBeVisible();
  await review.getByLabel('Notes').fill('Monthly count');
  await review.getByRole('button', { name: 'Submit count' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Count submitted' })).toContainText(
    '3 batches counted, 2 with a variance (net +14 units)',
  );
  await page.screenshot(shot('12-submitted'));

  // Stock and ledgers moved exactly: one count movement per variance, the approval used.
  expect(await api.stock(amox)).toBe(45);
  expect(await api.stock(vitc)).toBe(19);
  const counted = (m: { type: string }) => m.type === 'count';
  expect(
    (await api.movements(amox)).filter(counted).map((m) => [m.batch_id, m.quantity, m.reference_type]),
  ).toEqual([[amoxBatch.id, 15, 'stock_count']]);
  expect((await api.movements(vitc)).filter(counted).map((m) => [m.batch_id, m.quantity])).toEqual([
    [vc2.id, -1],
  ]);
  const used = await api.call<{
    items: Array<{ status: string; payload: { batch_id: string; variance: number } }>;
  }>('GET', '/approvals?status=used&kind=stock_variance');
  expect(used.items.map((a) => [a.status, a.payload.batch_id, a.payload.variance])).toEqual([
    ['used', amoxBatch.id, 15],
  ]);
});

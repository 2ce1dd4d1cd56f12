import type { Page } from '@playwright/test';
import { Api } from './api';
import { expect, signIn, test } from './fixtures';
import { PurchasingApi, inDays } from './purchasing-api';
import { scan } from './till';

/**
 * Issue 27's day at the counter, scripted: a delivery, 13 sales over two cash sessions (a prescription-only
 * medicine against a new prescription, a controlled drug against an existing one, a coupon, a parked and
 * recalled cart, EUR cash with the change in EUR because this branch's drawer holds euros, customer credit,
 * card and mobile money, a will-call picked up and paid through Sell → Pick up), 3 returns, a payment on account,
 * a stock count with a controlled-drug variance, and two Z-reports. Selling, paying, returns, the payment on
 * account and the closes go through the till's UI; set-up (people, catalogue, delivery, the pharmacist's
 * will-call, the count) through the API. Then the books are read back through the API and each figure must
 * equal what the test itself entered, summed to the cent (docs/FIGURES.md says which records each comes from).
 */

const shot = (n: string, name: string) => `e2e/screenshots/pharmacy-day-${n}-${name}.png`;

const PHARMACIST = {
  email: 'pili.pharmacist@pharmacy.local',
  password: 'Pili#2026-dispensary',
  full_name: 'Pili Pharmacist',
  role: 'pharmacist',
};
const CASHIER = {
  email: 'cathy.day@pharmacy.local',
  password: 'Cathy#2026-day-till',
  full_name: 'Cathy Cashier',
  role: 'cashier',
};
const MANAGER = {
  email: 'mona.day@pharmacy.local',
  password: 'Mona#2026-day-branch',
  full_name: 'Mona Manager',
  role: 'branch_manager',
};

// Money in the test is integer cents. Prices include VAT (the seeded tax policy); VAT 18 % of a gross amount,
// rounded half up, and euros at 1.25 dollars, rounded half up: the rules docs/FIGURES.md states.
const vatOf = (gross: number, rate: number) =>
  rate === 0 ? 0 : Math.floor((gross * rate + (100 + rate) / 2) / (100 + rate));
const EUR_RATE = { text: '1.25', num: 125, den: 100 };
const eurOfUsd = (usd: number) => Math.floor((usd * EUR_RATE.den * 2 + EUR_RATE.num) / (EUR_RATE.num * 2));
const usdOfEur = (eur: number) => Math.floor((eur * EUR_RATE.num * 2 + EUR_RATE.den) / (EUR_RATE.den * 2));
const money = (cents: number) => (cents / 100).toFixed(2);
const cents = (s: string) => Math.round(Number(s) * 100);
const sum = <T>(rows: readonly T[], f: (r: T) => number) => rows.reduce((a, r) => a + f(r), 0);

interface Med {
  name: string;
  barcode: string;
  price: number;
  rate: 0 | 18;
  delivered: number;
  rx?: boolean;
  controlled?: boolean;
}
const MEDS = {
  panadol: { name: 'Panadol 500', barcode: '6009000270011', price: 236, rate: 18, delivered: 100 },
  ors: { name: 'ORS Sachet', barcode: '6009000270028', price: 150, rate: 0, delivered: 50 },
  augmentin: {
    name: 'Augmentin 625',
    barcode: '6009000270035',
    price: 1180,
    rate: 18,
    delivered: 10,
    rx: true,
  },
  diazepam: {
    name: 'Diazepam 5',
    barcode: '6009000270042',
    price: 472,
    rate: 18,
    delivered: 20,
    rx: true,
    controlled: true,
  },
  tramadol: {
    name: 'Tramadol 50',
    barcode: '6009000270059',
    price: 354,
    rate: 18,
    delivered: 30,
    rx: true,
    controlled: true,
  },
  vitc: { name: 'Vitamin C 1000', barcode: '6009000270066', price: 590, rate: 18, delivered: 40 },
  syrup: { name: 'Cough Syrup 100 ml', barcode: '6009000270073', price: 600, rate: 0, delivered: 20 },
} satisfies Record<string, Med>;
type MedKey = keyof typeof MEDS;

type Tender = 'cash' | 'card' | 'mobile_money' | 'credit';
interface DaySale {
  n: number;
  session: 1 | 2;
  lines: Array<[MedKey, number]>;
  currency: 'USD' | 'EUR';
  /** What the customer handed over per tender, in the sale's currency. */
  tenders: Partial<Record<Tender, number>>;
  coupon?: number;
  invoice?: string;
}
const COUPON = { code: 'DAY27', value: 118 };

/** The day's 13 sales as the test enters them (session 1: the pharmacist; session 2: the cashier). */
const SALES: DaySale[] = [
  {
    n: 1,
    session: 1,
    lines: [
      ['panadol', 2],
      ['ors', 1],
    ],
    currency: 'USD',
    tenders: { cash: 1000 },
  },
  { n: 2, session: 1, lines: [['augmentin', 1]], currency: 'USD', tenders: { card: 1180 } },
  { n: 3, session: 1, lines: [['diazepam', 2]], currency: 'USD', tenders: { cash: 1000 } },
  {
    n: 4,
    session: 1,
    lines: [['vitc', 2]],
    currency: 'USD',
    tenders: { mobile_money: 1062 },
    coupon: COUPON.value,
  },
  { n: 5, session: 1, lines: [['ors', 2]], currency: 'USD', tenders: { card: 300 } },
  {
    n: 6,
    session: 1,
    lines: [
      ['syrup', 1],
      ['panadol', 1],
    ],
    currency: 'USD',
    tenders: { cash: 1000 },
  },
  {
    n: 7,
    session: 1,
    lines: [
      ['vitc', 1],
      ['syrup', 1],
    ],
    currency: 'EUR',
    tenders: { cash: 2000 },
  },
  { n: 8, session: 1, lines: [['panadol', 5]], currency: 'USD', tenders: { credit: 1180 } },
  {
    n: 9,
    session: 2,
    lines: [
      ['panadol', 1],
      ['ors', 2],
    ],
    currency: 'USD',
    tenders: { card: 536 },
  },
  { n: 10, session: 2, lines: [['vitc', 1]], currency: 'USD', tenders: { mobile_money: 590 } },
  {
    n: 11,
    session: 2,
    lines: [
      ['tramadol', 2],
      ['augmentin', 1],
    ],
    currency: 'USD',
    tenders: { cash: 2000 },
  },
  {
    n: 12,
    session: 2,
    lines: [
      ['syrup', 2],
      ['vitc', 1],
    ],
    currency: 'USD',
    tenders: { cash: 2000 },
  },
  {
    n: 13,
    session: 2,
    lines: [
      ['panadol', 3],
      ['syrup', 1],
    ],
    currency: 'USD',
    tenders: { card: 500, cash: 1000 },
  },
];
/** The 3 returns, all in session 2: sale 12's only 18 % line in full, part of sale 1 (session 1), part of the credit sale. */
const RETURNS: Array<{ sale: number; med: MedKey; qty: number; method: Tender }> = [
  { sale: 12, med: 'vitc', qty: 1, method: 'cash' },
  { sale: 1, med: 'panadol', qty: 1, method: 'cash' },
  { sale: 8, med: 'panadol', qty: 2, method: 'credit' },
];
const ACCOUNT_PAYMENT = 500;
const FLOATS = { 1: 10000, 2: 5000 } as const;
/** Session 2's count: ten cents short. */
const SHORT = 10;

/** A sale's lines priced as the rules say, in the sale's currency and in the base currency. */
function priced(s: DaySale) {
  if (s.coupon && s.lines.length !== 1) throw new Error('the model puts a coupon on a one-line sale only');
  const lines = s.lines.map(([key, qty]) => {
    const med: Med = MEDS[key];
    const unit = s.currency === 'EUR' ? eurOfUsd(med.price) : med.price;
    const gross = unit * qty - (s.coupon ?? 0);
    return { key, qty, unit, gross, vat: vatOf(gross, med.rate), rate: med.rate };
  });
  const total = sum(lines, (l) => l.gross);
  const toBase = (x: number) => (s.currency === 'EUR' ? usdOfEur(x) : x);
  const paid = sum(Object.values(s.tenders), (x) => x ?? 0);
  return {
    lines,
    total,
    vat: sum(lines, (l) => l.vat),
    change: paid - total,
    base: { total: toBase(total), vat: toBase(sum(lines, (l) => l.vat)), toBase },
  };
}

function returned(r: (typeof RETURNS)[number]) {
  const sale = SALES.find((s) => s.n === r.sale)!;
  const line = priced(sale).lines.find((l) => l.key === r.med)!;
  const total = (line.gross * r.qty) / line.qty;
  const vat = (line.vat * r.qty) / line.qty;
  if (!Number.isInteger(total) || !Number.isInteger(vat))
    throw new Error('the model refunds whole cents only');
  return { ...r, total, vat, net: total - vat, rate: line.rate };
}

/** Everything one session's Z must say, summed from what the test entered. */
function expectedZ(session: 1 | 2) {
  const sales = SALES.filter((s) => s.session === session).map((s) => ({ s, p: priced(s) }));
  const rets = session === 2 ? RETURNS.map(returned) : [];
  const payments = session === 2 ? [{ method: 'cash', amount: ACCOUNT_PAYMENT }] : [];
  const gross = sum(sales, ({ p }) => p.base.total);
  const grossVat = sum(sales, ({ p }) => p.base.vat);
  const back = sum(rets, (r) => r.total);
  const backVat = sum(rets, (r) => r.vat);
  const byRate = new Map<number, { taxable: number; vat: number }>();
  for (const { p } of sales)
    for (const l of p.lines) {
      const row = byRate.get(l.rate) ?? { taxable: 0, vat: 0 };
      row.taxable += p.base.toBase(l.gross - l.vat);
      row.vat += p.base.toBase(l.vat);
      byRate.set(l.rate, row);
    }
  for (const r of rets) {
    const row = byRate.get(r.rate)!;
    row.taxable -= r.net;
    row.vat -= r.vat;
  }
  // Tenders per currency and method: taken (cash net of change), minus refunds, plus payments on account.
  const tenders = new Map<
    string,
    { currency_code: string; method: string; count: number; amount: number; base: number }
  >();
  const add = (currency: string, method: string, count: number, amount: number, base: number) => {
    const key = `${currency} ${method}`;
    const t = tenders.get(key) ?? { currency_code: currency, method, count: 0, amount: 0, base: 0 };
    t.count += count;
    t.amount += amount;
    t.base += base;
    tenders.set(key, t);
  };
  for (const { s, p } of sales)
    for (const [method, amount] of Object.entries(s.tenders)) {
      const kept = method === 'cash' ? amount - p.change : amount;
      add(s.currency, method, 1, kept, p.base.toBase(kept));
    }
  for (const r of rets) add('USD', r.method, 0, -r.total, -r.total);
  for (const a of payments) add('USD', a.method, 1, a.amount, a.amount);
  const cash = [...tenders.values()].filter((t) => t.method === 'cash');
  const usdCash =
    FLOATS[session] +
    sum(
      cash.filter((c) => c.currency_code === 'USD'),
      (c) => c.amount,
    );
  const eurCash = cash.find((c) => c.currency_code === 'EUR');
  const expectedCash = usdCash + (eurCash?.base ?? 0);
  return {
    count: sales.length,
    gross,
    grossVat,
    back,
    backVat,
    returnsCount: rets.length,
    byRate,
    tenders: [...tenders.values()].filter((t) => t.count > 0 || t.amount !== 0),
    usdCash,
    eurCash,
    expectedCash,
    coupon: sum(sales, ({ s }) => s.coupon ?? 0),
    payments,
  };
}

// --- the till, as a person uses it -----------------------------------------------------------------------

function till(page: Page) {
  const cart = page.getByRole('table', { name: 'Cart' });
  const pay = page.getByRole('dialog', { name: 'Payment' });
  const done = page.getByRole('dialog', { name: /^Sale / });
  return {
    cart,
    pay,
    done,
    async add(key: MedKey, qty: number) {
      const med = MEDS[key];
      const search = page.getByRole('combobox', { name: 'Search medicines' });
      await search.fill(med.name);
      await expect(page.getByRole('option', { name: new RegExp(med.name) })).toBeVisible();
      await search.press('Enter');
      await expect(cart.getByRole('row', { name: new RegExp(med.name) })).toBeVisible();
      if (qty > 1) {
        await page.getByLabel(`Quantity of ${med.name}`).fill(String(qty));
        await expect(page.getByLabel(`Quantity of ${med.name}`)).toHaveValue(String(qty));
      }
    },
    /** The payment dialog's tender fields, the change shown, then the sale; answers its invoice number. */
    async payAndFinish(s: DaySale, screenshot?: string) {
      await expect(pay).toBeVisible();
      const p = priced(s);
      if (s.currency !== 'USD') await pay.getByLabel('Currency').selectOption(s.currency);
      await expect(pay.getByText(`Total due: ${money(p.total)} ${s.currency}`)).toBeVisible();
      const label: Record<Tender, string> = {
        cash: 'Cash received',
        card: 'Card',
        mobile_money: 'Mobile money',
        credit: 'On customer credit',
      };
      for (const [method, amount] of Object.entries(s.tenders) as Array<[Tender, number]>)
        await pay.getByLabel(label[method]).fill(money(amount));
      await expect(pay.getByRole('status', { name: 'Change' })).toHaveText(money(p.change));
      if (screenshot) await page.screenshot({ path: screenshot });
      await pay.getByRole('button', { name: 'Complete sale' }).click();
      await expect(done).toBeVisible();
      // This branch's drawer holds euros, so a EUR sale's change is given in EUR (issue 27.4).
      await expect(done.getByText(`Change due: ${money(p.change)} ${s.currency}`)).toBeVisible();
      const invoice = ((await done.getByRole('heading').first().textContent()) ?? '')
        .replace(/^Sale /, '')
        .trim();
      s.invoice = invoice;
      await done.getByRole('button', { name: 'New sale' }).click();
      await expect(done).toBeHidden();
      await expect(cart.getByRole('row')).toHaveCount(1);
      return invoice;
    },
  };
}

async function openSession(page: Page, float: number) {
  await page.keyboard.press('F6');
  await expect(page.getByRole('heading', { name: 'Cash session', level: 1 })).toBeVisible();
  await page.getByLabel('Opening float').fill(money(float));
  await page.getByRole('button', { name: 'Open session' }).click();
  await expect(page.getByRole('heading', { name: 'Session open' })).toBeVisible();
  await page.keyboard.press('F1');
  await expect(page.getByRole('heading', { name: 'Sell', level: 1 })).toBeVisible();
}

/** Counts the drawer in USD and EUR on the Cash session screen and closes it; the Z-report shows. */
async function closeSession(page: Page, usd: number, eur: number, screenshot: string) {
  await page.keyboard.press('F6');
  const close = page.getByRole('form', { name: 'Close the session' });
  await expect(close.getByText('Count the drawer in each currency it holds.')).toBeVisible();
  await close.getByLabel('Counted cash USD').fill(money(usd));
  await close.getByLabel('Counted cash EUR').fill(money(eur));
  await close.getByRole('button', { name: 'Close session' }).click();
  await expect(page.getByText('Session closed. Keep the Z-report with the cash.')).toBeVisible();
  await expect(page.getByRole('heading', { name: /^Z-report No\. \d+$/ })).toBeVisible();
  // The count per currency, with its variance in USD, fits the Z-report (it ran off the page at 1280 wide).
  const z = page.getByRole('region', { name: /^Z-report No\. \d+$/ });
  const counted = z.getByRole('table', { name: 'Counted cash by currency' });
  await expect(counted.getByRole('row', { name: /^EUR at 1\.25/ })).toBeVisible();
  const [zBox, countedBox] = [await z.boundingBox(), await counted.boundingBox()];
  expect(countedBox!.x + countedBox!.width).toBeLessThanOrEqual(zBox!.x + zBox!.width);
  await page.screenshot({ path: screenshot, fullPage: true });
}

async function returnOnScreen(page: Page, invoice: string, medName: string, qty: number) {
  await page.getByLabel('Invoice number').fill(invoice);
  await page.getByRole('button', { name: 'Find sale' }).click();
  await expect(page.getByRole('heading', { name: new RegExp(`Invoice ${invoice}`) })).toBeVisible();
  await page.getByLabel(`Return quantity of ${medName}`).fill(String(qty));
  await page.getByLabel('Reason').fill('Customer brought it back');
  await page.getByRole('button', { name: 'Make return' }).click();
  return page.getByRole('status').filter({ hasText: 'Credit note' });
}

test("27: a pharmacy's day — delivery, 13 sales, 3 returns, a will-call, a count and two Z-reports — adds up in the Z, the VAT report, the dashboard and the controlled-drug register", async ({
  page,
  till: server,
}) => {
  // About 40 s on an idle machine; the margin is for a CI machine running four of these at once.
  test.setTimeout(180_000);
  const started = Date.now();

  // --- Set-up through the API: people, euros in the drawer, catalogue, the morning delivery ---------------
  const purchasing = await PurchasingApi.start(server);
  const admin = purchasing.admin;
  const branch = admin.branchId;
  await admin.createUser(PHARMACIST);
  await admin.createUser(CASHIER);
  await admin.createUser(MANAGER);
  await admin.call('POST', '/currency/rates', {
    from_code: 'EUR',
    rate: EUR_RATE.text,
    effective_at: '2026-01-01T00:00:00Z',
  });
  await admin.call('PUT', `/branches/${branch}`, { drawer_currencies: ['EUR'] });
  const supplier = await purchasing.supplier('Kariakoo Medical Supplies');
  const ids = {} as Record<MedKey, string>;
  for (const [key, m] of Object.entries(MEDS) as Array<[MedKey, Med]>) {
    const created = await admin.call<{ id: string }>('POST', '/medicines', {
      name: m.name,
      barcode: m.barcode,
      selling_price: m.price / 100,
      vat_category: m.rate === 0 ? 'zero' : 'standard',
      requires_prescription: !!m.rx,
      is_controlled: !!m.controlled,
    });
    ids[key] = created.id;
  }
  // The delivery: a purchase order, sent, and received in full (goods received, a batch per medicine).
  const order = await admin.call<{ id: string }>('POST', '/purchase-orders', {
    supplier_id: supplier.id,
    branch_id: branch,
    items: (Object.keys(MEDS) as MedKey[]).map((k) => ({
      medicine_id: ids[k],
      ordered_qty: MEDS[k].delivered,
      agreed_unit_cost: MEDS[k].price / 200,
    })),
  });
  await admin.call('PUT', `/purchase-orders/${order.id}/status`, { status: 'SENT' });
  const received = await admin.call<{ status: string }>('POST', `/purchase-orders/${order.id}/receive`, {
    items: (Object.keys(MEDS) as MedKey[]).map((k) => ({
      medicine_id: ids[k],
      received_qty: MEDS[k].delivered,
      batch_number: `DLV-${MEDS[k].barcode.slice(-4)}`,
      expiry_date: inDays(400),
    })),
  });
  expect(received.status).toBe('RECEIVED');
  await admin.call('POST', '/coupons', {
    code: COUPON.code,
    discount_type: 'fixed',
    discount_value: COUPON.value / 100,
  });
  const customer = await admin.call<{ id: string }>('POST', '/customers', {
    name: 'Bakari Mussa',
    phone: '0713270027',
    credit_limit: 50,
    is_credit_allowed: true,
  });
  const pharmacistApi = await Api.login(server, PHARMACIST);
  const issued = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  // Halima's prescription for the controlled drug, brought in this morning.
  await pharmacistApi.call('POST', '/prescriptions', {
    patient_name: 'Halima Juma',
    patient_id_number: 'NID-2701',
    prescriber_name: 'Dr. Amani Kweka',
    prescriber_licence_no: 'MCT-27001',
    issue_date: issued,
    items: [{ medicine_id: ids.diazepam, quantity: 2 }],
  });
  // Mwanaidi's prescription, prepared by the pharmacist and put on the will-call shelf.
  const rxWillCall = await pharmacistApi.call<{ id: string }>('POST', '/prescriptions', {
    patient_name: 'Mwanaidi Hassan',
    patient_id_number: 'NID-2702',
    prescriber_name: 'Dr. Mushi',
    prescriber_licence_no: 'MCT-9981',
    issue_date: issued,
    items: [
      { medicine_id: ids.tramadol, quantity: 2 },
      { medicine_id: ids.augmentin, quantity: 1 },
    ],
  });
  await pharmacistApi.call('POST', `/prescriptions/${rxWillCall.id}/dispense`, {});
  await pharmacistApi.call('POST', '/dispensing/will-call', {
    prescription_id: rxWillCall.id,
    bin_location: 'W-27',
  });
  const setUpMs = Date.now() - started;

  const t = till(page);
  const sale = (n: number) => SALES.find((s) => s.n === n)!;

  // --- Session 1: the pharmacist's morning -------------------------------------------------------------
  await page.goto('/');
  await signIn(page, PHARMACIST);
  await expect(page.getByRole('heading', { name: 'Sell', level: 1 })).toBeVisible();
  await openSession(page, FLOATS[1]);
  const session1 = (await pharmacistApi.call<{ id: string }>('GET', '/sessions/current')).id;

  // 1: two packs scanned, one searched; cash with change.
  await page.getByRole('heading', { name: 'Sell', level: 1 }).click();
  await scan(page, MEDS.panadol.barcode);
  await expect(t.cart.getByRole('row', { name: /Panadol 500/ })).toBeVisible();
  await scan(page, MEDS.panadol.barcode);
  await expect(page.getByLabel('Quantity of Panadol 500')).toHaveValue('2');
  await t.add('ors', 1);
  await page.keyboard.press('F8');
  await t.payAndFinish(sale(1), shot('01', 'cash-payment'));

  // 2: the prescription-only medicine, against a prescription recorded at the counter.
  await t.add('augmentin', 1);
  await page.keyboard.press('F8');
  const ask = page.getByRole('dialog', { name: 'Prescription needed' });
  await ask.getByRole('button', { name: 'Record a new prescription' }).click();
  const form = ask.getByRole('form', { name: 'New prescription' });
  await form.getByLabel('Patient name').fill('Neema Said');
  await form.getByLabel('Prescriber', { exact: true }).fill('Dr. Baraka Mollel');
  await form.getByLabel('Prescriber licence number').fill('MCT-20931');
  await page.screenshot({ path: shot('02', 'rx-new-prescription') });
  await form.getByRole('button', { name: 'Record and use' }).click();
  await t.payAndFinish(sale(2));

  // 3: the controlled drug, against Halima's prescription.
  await t.add('diazepam', 2);
  await page.keyboard.press('F8');
  await ask.getByLabel('Patient').fill('Halima');
  await ask.getByRole('button', { name: /^Use prescription of Halima Juma, Dr\. Amani Kweka/ }).click();
  await t.payAndFinish(sale(3));

  // 4: a coupon.
  await t.add('vitc', 2);
  await page.getByLabel('Coupon code').fill(COUPON.code);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText(`Coupon ${COUPON.code} applied: −${money(COUPON.value)}.`)).toBeVisible();
  await page.keyboard.press('F8');
  await t.payAndFinish(sale(4), shot('03', 'coupon-mobile-money'));

  // A cart is parked for a customer who went to fetch money; 5 is sold meanwhile; the cart is recalled as 6.
  await t.add('syrup', 1);
  await t.add('panadol', 1);
  await page.keyboard.press('F10');
  const park = page.getByRole('dialog', { name: 'Park or recall a cart' });
  await park.getByLabel('Cart label').fill('Red coat');
  await park.getByRole('button', { name: 'Park cart' }).click();
  await expect(park).toBeHidden();
  await t.add('ors', 2);
  await page.keyboard.press('F8');
  await t.payAndFinish(sale(5));
  await page.keyboard.press('F10');
  await park.getByRole('button', { name: 'Recall Red coat' }).click();
  await expect(park).toBeHidden();
  await expect(t.cart.getByRole('row', { name: /Cough Syrup/ })).toBeVisible();
  await page.keyboard.press('F8');
  await t.payAndFinish(sale(6));

  // 7: paid in euros; the drawer holds euros, so the change is given in EUR.
  await t.add('vitc', 1);
  await t.add('syrup', 1);
  await page.keyboard.press('F8');
  await t.payAndFinish(sale(7), shot('04', 'eur-cash'));

  // 8: on Bakari's account.
  await page.keyboard.press('F7');
  const who = page.getByRole('dialog', { name: 'Customer' });
  await who.getByLabel('Search customers').fill('Bakari');
  await who.getByRole('button', { name: 'Attach Bakari Mussa' }).click();
  await t.add('panadol', 5);
  await page.keyboard.press('F8');
  await t.payAndFinish(sale(8));

  const z1 = expectedZ(1);
  await closeSession(page, z1.usdCash, z1.eurCash?.amount ?? 0, shot('05', 'z-report-1'));
  await page.getByRole('button', { name: 'Sign out' }).click();

  // --- Between the sessions: the manager counts the controlled cabinet, the pharmacist witnesses ---------
  const diazepamBatch = (await purchasing.batches(ids.diazepam)).items[0]!;
  const bookDiazepam = MEDS.diazepam.delivered - 2;
  expect(diazepamBatch.qty_on_hand).toBe(bookDiazepam);
  const countReason = 'one tablet strip missing from the controlled cabinet';
  await page.goto('/back-office/stock-counts');
  await signIn(page, MANAGER);
  await expect(page.getByRole('heading', { name: 'Stock counts', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Start count sheet' }).click();
  const counted = page.getByLabel(`Counted of ${MEDS.diazepam.name} batch ${diazepamBatch.batch_number}`);
  await counted.fill(String(bookDiazepam - 1));
  await expect(counted).toHaveValue(String(bookDiazepam - 1));
  await page.getByRole('button', { name: 'Review and submit' }).click();
  const review = page.getByRole('dialog', { name: 'Review the count' });
  await expect(review.getByRole('button', { name: 'Submit count' })).toBeDisabled();
  await review.getByLabel('Reason for the difference').fill(countReason);
  await review.getByLabel('Witness email').fill(PHARMACIST.email);
  await review.getByLabel('Witness password').fill(PHARMACIST.password);
  await page.screenshot({ path: shot('06', 'count-witness') });
  await review.getByRole('button', { name: 'Submit count' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Count submitted' })).toContainText(
    '1 batches counted, 1 with a variance (net -1 units)',
  );
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.goto('/');

  // --- Session 2: the cashier's afternoon ----------------------------------------------------------------
  await signIn(page, CASHIER);
  await expect(page.getByRole('heading', { name: 'Sell', level: 1 })).toBeVisible();
  await openSession(page, FLOATS[2]);
  const cashierApi = await Api.login(server, CASHIER);
  const session2 = (await cashierApi.call<{ id: string }>('GET', '/sessions/current')).id;

  await t.add('panadol', 1);
  await t.add('ors', 2);
  await page.keyboard.press('F8');
  await t.payAndFinish(sale(9));
  await t.add('vitc', 1);
  await page.keyboard.press('F8');
  await t.payAndFinish(sale(10));

  // 11: the will-call, picked up through Sell → Pick up by the patient's brother, and paid.
  await page.getByRole('button', { name: 'Pick up', exact: true }).click();
  await page
    .getByRole('dialog', { name: 'Pick up a will-call' })
    .getByRole('button', { name: 'Pick up for Mwanaidi Hassan' })
    .click();
  const collector = page.getByRole('dialog', { name: 'Pick up for Mwanaidi Hassan' });
  await collector.getByLabel('Collector name').fill('Said Hassan');
  await collector.getByLabel('Relationship to the patient').fill('brother');
  await collector.getByLabel('Collector ID number').fill('NID-5150');
  await page.screenshot({ path: shot('07', 'will-call-collector') });
  await collector.getByRole('button', { name: 'Put in the cart' }).click();
  await expect(t.cart.getByRole('row', { name: /Tramadol 50/ })).toBeVisible();
  await expect(page.getByLabel('Quantity of Tramadol 50')).toHaveValue('2');
  await page.keyboard.press('F8');
  await t.payAndFinish(sale(11));

  await t.add('syrup', 2);
  await t.add('vitc', 1);
  await page.keyboard.press('F8');
  await t.payAndFinish(sale(12));
  await t.add('panadol', 3);
  await t.add('syrup', 1);
  await page.keyboard.press('F8');
  await t.payAndFinish(sale(13), shot('08', 'split-card-cash'));

  // The 3 returns on the Returns screen, each refunded as its sale was paid.
  await page.keyboard.press('F2');
  await expect(page.getByRole('heading', { name: 'Returns', level: 1 })).toBeVisible();
  for (const [i, r] of RETURNS.map(returned).entries()) {
    const note = await returnOnScreen(page, sale(r.sale).invoice!, MEDS[r.med].name, r.qty);
    await expect(note).toContainText(`${money(r.total)} USD refunded`);
    if (i === 0) await page.screenshot({ path: shot('09', 'return-only-18pct-line') });
  }

  // The payment on Bakari's account, on the Customers screen.
  await page.keyboard.press('F3');
  await expect(page.getByRole('heading', { name: 'Customers', level: 1 })).toBeVisible();
  await page.getByLabel('Search customers').fill('Bakari');
  await page.getByRole('button', { name: 'Bakari Mussa' }).click();
  await page.getByLabel('Payment amount').fill(money(ACCOUNT_PAYMENT));
  await page.getByLabel('Paid by').selectOption('cash');
  await page.getByRole('button', { name: 'Record payment' }).click();
  const credit8 = priced(sale(8)).total;
  const creditBack = returned(RETURNS[2]!).total;
  await expect(page.getByRole('status').filter({ hasText: 'Payment of' })).toHaveText(
    `Payment of ${money(ACCOUNT_PAYMENT)} recorded. New balance ${money(credit8 - creditBack - ACCOUNT_PAYMENT)}.`,
  );
  await page.screenshot({ path: shot('10', 'payment-on-account') });

  const z2 = expectedZ(2);
  await closeSession(page, z2.usdCash - SHORT, 0, shot('11', 'z-report-2'));
  const uiMs = Date.now() - started - setUpMs;

  // --- The books, read back through the API -------------------------------------------------------------
  type Z = {
    is_final: boolean;
    z_number: number | null;
    sales_count: number;
    gross_sales: string;
    net_sales: string;
    gross_vat: string;
    vat_total: string;
    vat_by_rate: Array<{ rate: number; taxable_amount: string; vat_amount: string }>;
    discounts: { coupon: string };
    returns: { count: number; total: string; vat: string; by_method: Record<string, string> };
    account_payments: {
      count: number;
      total: string;
      by_method: Array<{ method: string; count: number; amount: string }>;
    };
    tenders_by_currency: Array<{
      currency_code: string;
      method: string;
      rate: string;
      count: number;
      amount: string;
      base_amount: string;
    }>;
    cash_by_currency: Array<{ currency_code: string; rate: string; expected: string; expected_base: string }>;
    cash_account_payments: string;
    expected_cash: string;
    counted_cash: string | null;
    variance: string | null;
    counted_by_currency: Array<{
      currency_code: string;
      rate: string;
      expected: string;
      counted: string;
      variance: string;
      expected_base: string;
      counted_base: string;
    }> | null;
  };
  const checkZ = async (
    sessionId: string,
    e: ReturnType<typeof expectedZ>,
    counted: { usd: number; eur: number },
  ) => {
    const z = await admin.call<Z>('GET', `/sessions/${sessionId}/z-report`);
    expect(z.is_final).toBe(true);
    expect(z.z_number).not.toBeNull();
    expect(z.sales_count).toBe(e.count);
    expect(cents(z.gross_sales)).toBe(e.gross);
    expect(z.returns.count).toBe(e.returnsCount);
    expect(cents(z.returns.total)).toBe(e.back);
    expect(cents(z.returns.vat)).toBe(e.backVat);
    expect(cents(z.net_sales)).toBe(e.gross - e.back);
    expect(cents(z.gross_vat)).toBe(e.grossVat);
    expect(cents(z.vat_total)).toBe(e.grossVat - e.backVat);
    expect(
      z.vat_by_rate
        .map((r) => [r.rate, cents(r.taxable_amount), cents(r.vat_amount)])
        .sort((a, b) => b[0]! - a[0]!),
    ).toEqual(
      [...e.byRate.entries()].map(([rate, v]) => [rate, v.taxable, v.vat]).sort((a, b) => b[0]! - a[0]!),
    );
    expect(cents(z.discounts.coupon)).toBe(e.coupon);
    expect(
      z.tenders_by_currency.map((l) => ({
        currency_code: l.currency_code,
        method: l.method,
        count: l.count,
        amount: cents(l.amount),
        base: cents(l.base_amount),
        rate: l.rate,
      })),
    ).toEqual(
      expect.arrayContaining(
        e.tenders.map((l) => ({ ...l, rate: l.currency_code === 'EUR' ? EUR_RATE.text : '1' })),
      ),
    );
    expect(z.tenders_by_currency).toHaveLength(e.tenders.length);
    // The tenders kept add up to the net takings plus what was paid on account.
    expect(sum(z.tenders_by_currency, (l) => cents(l.base_amount))).toBe(
      e.gross - e.back + sum(e.payments, (p) => p.amount),
    );
    expect(z.account_payments.count).toBe(e.payments.length);
    expect(cents(z.account_payments.total)).toBe(sum(e.payments, (p) => p.amount));
    expect(z.account_payments.by_method.map((m) => [m.method, m.count, cents(m.amount)])).toEqual(
      e.payments.map((p) => [p.method, 1, p.amount]),
    );
    expect(cents(z.cash_account_payments)).toBe(
      sum(
        e.payments.filter((p) => p.method === 'cash'),
        (p) => p.amount,
      ),
    );
    const cashBy = Object.fromEntries(
      z.cash_by_currency.map((c) => [c.currency_code, [cents(c.expected), cents(c.expected_base)]]),
    );
    expect(cashBy.USD).toEqual([e.usdCash, e.usdCash]);
    if (e.eurCash) expect(cashBy.EUR).toEqual([e.eurCash.amount, e.eurCash.base]);
    expect(cents(z.expected_cash)).toBe(e.expectedCash);
    const countedBase = counted.usd + usdOfEur(counted.eur);
    expect(cents(z.counted_cash!)).toBe(countedBase);
    expect(cents(z.variance!)).toBe(countedBase - e.expectedCash);
    const countedBy = Object.fromEntries(
      (z.counted_by_currency ?? []).map((c) => [
        c.currency_code,
        [c.rate, cents(c.expected), cents(c.counted), cents(c.variance)],
      ]),
    );
    expect(countedBy).toEqual({
      USD: ['1', e.usdCash, counted.usd, counted.usd - e.usdCash],
      // A session that took no euros still counts them at the rate in force, not 1:1.
      EUR: [EUR_RATE.text, e.eurCash?.amount ?? 0, counted.eur, counted.eur - (e.eurCash?.amount ?? 0)],
    });
    return z;
  };
  await checkZ(session1, z1, { usd: z1.usdCash, eur: z1.eurCash!.amount });
  const zTwo = await checkZ(session2, z2, { usd: z2.usdCash - SHORT, eur: 0 });
  // Sale 12's only 18 % line was refunded in full in session 2: its VAT is out of Z No. 2 (issue 27.4).
  const s12 = priced(sale(12));
  expect(s12.lines.filter((l) => l.rate === 18)).toHaveLength(1);
  expect(cents(zTwo.vat_total)).toBe(
    sum(
      SALES.filter((s) => s.session === 2 && s.n !== 12),
      (s) => priced(s).base.vat,
    ) - sum(RETURNS.filter((r) => r.sale !== 12).map(returned), (r) => r.vat),
  );

  // The whole day: 13 sales, 3 returns, VAT net of them.
  const day = { z1, z2 };
  const dayGross = day.z1.gross + day.z2.gross;
  const dayBack = day.z2.back;
  const dayVat = day.z1.grossVat + day.z2.grossVat - day.z2.backVat;
  const dayByRate = new Map<number, { taxable: number; vat: number }>();
  for (const z of [day.z1, day.z2])
    for (const [rate, v] of z.byRate) {
      const row = dayByRate.get(rate) ?? { taxable: 0, vat: 0 };
      row.taxable += v.taxable;
      row.vat += v.vat;
      dayByRate.set(rate, row);
    }

  const vat = await admin.call<{
    items: Array<{
      sales_count: number;
      taxable_0: string;
      taxable_18: string;
      taxable_15: string;
      exempt: string;
      by_rate: Array<{ rate: number; taxable: string; vat: string }>;
      returns_count: number;
      returns_total: string;
      returns_vat: string;
      vat_collected: string;
      grand_total: string;
    }>;
  }>('GET', `/reports/vat?branch_id=${branch}`);
  // The report's default window may reach into last month: the day's figures are all in this one.
  const busy = vat.items.filter((m) => m.sales_count > 0 || m.returns_count > 0);
  expect(busy).toHaveLength(1);
  const month = busy[0]!;
  expect(month.sales_count).toBe(SALES.length);
  expect(month.returns_count).toBe(RETURNS.length);
  expect(cents(month.returns_total)).toBe(dayBack);
  expect(cents(month.returns_vat)).toBe(day.z2.backVat);
  expect(cents(month.vat_collected)).toBe(dayVat);
  expect(cents(month.grand_total)).toBe(dayGross - dayBack);
  expect(cents(month.taxable_18)).toBe(dayByRate.get(18)!.taxable);
  expect(month.taxable_15).toBe(month.taxable_18);
  expect(cents(month.taxable_0)).toBe(dayByRate.get(0)!.taxable);
  expect(cents(month.exempt)).toBe(0);
  expect(month.by_rate.map((r) => [r.rate, cents(r.taxable), cents(r.vat)])).toEqual([
    [18, dayByRate.get(18)!.taxable, dayByRate.get(18)!.vat],
    [0, dayByRate.get(0)!.taxable, 0],
  ]);

  const dash = await admin.call<{
    today_sales_count: number;
    today_gross_revenue: string;
    today_returns: string;
    today_revenue: string;
    today_vat: string;
  }>('GET', `/dashboard/summary?branch_id=${branch}`);
  expect(dash.today_sales_count).toBe(SALES.length);
  expect(cents(dash.today_gross_revenue)).toBe(dayGross);
  expect(cents(dash.today_returns)).toBe(dayBack);
  expect(cents(dash.today_revenue)).toBe(dayGross - dayBack);
  expect(cents(dash.today_vat)).toBe(dayVat);

  // Bakari's account: the credit sale, less the credit refunded and the payment on account.
  const bakari = await admin.call<{ current_balance: string }>('GET', `/customers/${customer.id}`);
  expect(cents(bakari.current_balance)).toBe(credit8 - creditBack - ACCOUNT_PAYMENT);

  // The controlled-drug register: the delivery in, the sale against Halima's prescription, the count's
  // witnessed discrepancy; Tramadol's will-call pickup names its sale and who collected it.
  type Book = {
    items: Array<{
      closing_balance: number;
      on_hand: number;
      balanced: boolean;
      movements: Array<{
        type: string;
        quantity: number;
        reference_type: string | null;
        reference_id: string | null;
        reason: string;
        patient_name: string | null;
        prescriber_name: string | null;
        collected_by_name: string | null;
        collector_id_number: string | null;
        balance_after: number;
      }>;
    }>;
  };
  const saleIdOf = async (sessionId: string, invoice: string) => {
    const list = await admin.call<{ items: Array<{ id: string; invoice_number: string }> }>(
      'GET',
      `/sessions/${sessionId}/sales`,
    );
    return list.items.find((s) => s.invoice_number === invoice)!.id;
  };
  const diazepam = (
    await admin.call<Book>('GET', `/compliance/classified-drugs-book?medicine_id=${ids.diazepam}`)
  ).items;
  expect(diazepam).toHaveLength(1);
  const dz = diazepam[0]!;
  const sold3 = SALES.find((s) => s.n === 3)!.lines[0]![1];
  expect(dz.movements.map((m) => [m.type, m.quantity, m.reference_type, m.balance_after])).toEqual([
    ['purchase', MEDS.diazepam.delivered, 'purchase_order', MEDS.diazepam.delivered],
    ['sale', -sold3, 'sale', MEDS.diazepam.delivered - sold3],
    ['count', -1, 'stock_count', MEDS.diazepam.delivered - sold3 - 1],
  ]);
  expect(dz.movements[1]).toMatchObject({
    reference_id: await saleIdOf(session1, sale(3).invoice!),
    patient_name: 'Halima Juma',
    prescriber_name: 'Dr. Amani Kweka',
  });
  expect(dz.movements[2]!.reason).toBe(
    `Count discrepancy: ${countReason}; witnessed by ${PHARMACIST.full_name}`,
  );
  const dzLeft = MEDS.diazepam.delivered - sold3 - 1;
  expect(dz).toMatchObject({ closing_balance: dzLeft, on_hand: dzLeft, balanced: true });

  const tramadol = (
    await admin.call<Book>('GET', `/compliance/classified-drugs-book?medicine_id=${ids.tramadol}`)
  ).items[0]!;
  expect(tramadol.movements.map((m) => [m.type, m.quantity, m.reference_type])).toEqual([
    ['purchase', MEDS.tramadol.delivered, 'purchase_order'],
    ['sale', -2, 'sale'],
  ]);
  expect(tramadol.movements[1]).toMatchObject({
    reference_id: await saleIdOf(session2, sale(11).invoice!),
    patient_name: 'Mwanaidi Hassan',
    collected_by_name: 'Said Hassan',
    collector_id_number: 'NID-5150',
  });
  expect(tramadol).toMatchObject({ closing_balance: MEDS.tramadol.delivered - 2, balanced: true });

  const totalMs = Date.now() - started;
  console.log(
    `pharmacy day: set-up ${(setUpMs / 1000).toFixed(1)} s, UI ${(uiMs / 1000).toFixed(1)} s, total ${(totalMs / 1000).toFixed(1)} s`,
  );
});

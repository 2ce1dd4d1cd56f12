import path from 'node:path';
import Database from 'better-sqlite3';
import { Api } from './api';
import { expect, type Locator, type Page } from '@playwright/test';
import { ADMIN, NEW_ADMIN_PASSWORD, signIn, type Till } from './fixtures';

/** Set-up for the manager and head-office specs: a second branch, people on both, sales over several days. */

export interface Person {
  email: string;
  password: string;
  full_name: string;
  role: string;
}

export const MANAGER: Person = {
  email: 'mona@pharmacy.local',
  password: 'Mona#2026-manager',
  full_name: 'Mona Manager',
  role: 'branch_manager',
};
export const AUDITOR: Person = {
  email: 'audrey@pharmacy.local',
  password: 'Audrey#2026-audit',
  full_name: 'Audrey Auditor',
  role: 'auditor',
};
export const CASHIER: Person = {
  email: 'cathy@pharmacy.local',
  password: 'Cathy#2026-till',
  full_name: 'Cathy Cashier',
  role: 'cashier',
};
export const CASHIER_2: Person = {
  email: 'kim@pharmacy.local',
  password: 'Kim#2026-kariakoo',
  full_name: 'Kim Kariakoo',
  role: 'cashier',
};

/** A user of `branchId` who has replaced the password the admin set (as Api.createUser, on any branch). */
export async function createUserAt(till: Till, admin: Api, user: Person, branchId: string): Promise<string> {
  const setByAdmin = `Set-by-admin#${user.password}`;
  const created = await admin.call<{ id: string }>('POST', '/users', {
    ...user,
    password: setByAdmin,
    branch_id: branchId,
  });
  const first = await Api.login(till, { email: user.email, password: setByAdmin });
  await first.call('POST', '/auth/change-password', {
    current_password: setByAdmin,
    new_password: user.password,
  });
  return created.id;
}

export interface Sale {
  id: string;
  total_amount: string;
  vat_amount: string;
  branch_id: string;
}

/** Sells through POST /sales as `seller` (opening their cash session first when none is open). */
export async function sell(
  seller: Api,
  items: Array<{ medicine_id: string; quantity: number; discount?: number }>,
  payment_method = 'cash',
): Promise<Sale> {
  try {
    await seller.call('GET', '/sessions/current');
  } catch {
    await seller.call('POST', '/sessions/open', { opening_float: 50 });
  }
  return seller.call<Sale>('POST', '/sales', { items, payment_method, print_receipt: false });
}

/**
 * Moves sales into the past, as if they had been made `daysAgo` days earlier (the API sells only now):
 * the till's own SQLite file, written by this second process as SQLite allows (WAL, busy timeout).
 */
export function backdate(till: Till, saleIds: string[], daysAgo: number): void {
  const db = new Database(path.join(till.dataDir, 'pharmacy.db'));
  try {
    db.pragma('busy_timeout = 5000');
    const update = db.prepare(
      "UPDATE sales SET sold_at = strftime('%Y-%m-%dT%H:%M:%fZ', sold_at, ?) WHERE id = ?",
    );
    db.transaction(() => {
      for (const id of saleIds) update.run(`-${daysAgo} days`, id);
    })();
  } finally {
    db.close();
  }
}

export interface Shop {
  admin: Api;
  mainId: string;
  otherId: string;
  para: string;
  syrup: string;
  sales: Sale[];
}

/**
 * Two branches (Main Branch and Kariakoo), a manager and a cashier on Main, a cashier on Kariakoo, two
 * medicines (standard VAT and zero-rated) in stock on both, and sales on both branches over four days:
 * Main sells more than Kariakoo, so it ranks first.
 */
export async function seedShop(till: Till): Promise<Shop> {
  const admin = await Api.admin(till);
  const mainId = admin.branchId;
  const other = await admin.call<{ id: string }>('POST', '/branches', { name: 'Kariakoo', code: 'KKO' });
  await admin.createUser(MANAGER);
  await admin.createUser(CASHIER);
  await createUserAt(till, admin, CASHIER_2, other.id);
  const supplier = await admin.supplier();
  const para = await admin.medicine(supplier, {
    name: 'Daypara 500',
    barcode: '4006381333931',
    price: 2.5,
    stock: 200,
  });
  const syrup = await admin.medicine(supplier, {
    name: 'Daycough Syrup',
    barcode: '5012345678900',
    price: 6,
    stock: 100,
    vat_category: 'zero',
  });
  const expiry = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
  for (const [medicine_id, n] of [
    [para, 1],
    [syrup, 2],
  ] as const) {
    await admin.call('POST', '/purchases', {
      medicine_id,
      supplier_id: supplier,
      branch_id: other.id,
      batch_number: `KKO-${n}`,
      expiry_date: expiry,
      qty_received: 100,
      unit_cost: 1,
    });
  }
  const main = await Api.login(till, CASHIER);
  const kko = await Api.login(till, CASHIER_2);
  const sales: Sale[] = [];
  // Main: today 2 sales, 1 and 3 days ago one each; Kariakoo: today 1, 2 days ago 1.
  const plan: Array<[Api, number, Array<{ medicine_id: string; quantity: number }>, string]> = [
    [
      main,
      0,
      [
        { medicine_id: para, quantity: 4 },
        { medicine_id: syrup, quantity: 1 },
      ],
      'cash',
    ],
    [main, 0, [{ medicine_id: para, quantity: 2 }], 'card'],
    [main, 1, [{ medicine_id: syrup, quantity: 3 }], 'mobile_money'],
    [main, 3, [{ medicine_id: para, quantity: 10 }], 'cash'],
    [kko, 0, [{ medicine_id: para, quantity: 1 }], 'cash'],
    [kko, 2, [{ medicine_id: syrup, quantity: 2 }], 'card'],
  ];
  for (const [seller, daysAgo, items, method] of plan) {
    const sale = await sell(seller, items, method);
    sales.push(sale);
    if (daysAgo > 0) backdate(till, [sale.id], daysAgo);
  }
  return { admin, mainId, otherId: other.id, para, syrup, sales };
}

/** The value of one figure (a <dt> label and its <dd>) inside a titled region of the dashboard. */
export function figure(region: Locator, label: string): Locator {
  return region
    .locator('dl > div')
    .filter({ has: region.page().locator('dt', { hasText: new RegExp(`^${label}$`) }) })
    .locator('dd');
}

/** The admin, whose password the set-up through the API already replaced. */
export async function adminSignsIn(page: Page) {
  await page.goto('/');
  await signIn(page, { email: ADMIN.email, password: NEW_ADMIN_PASSWORD });
  await expect(page.getByRole('heading', { name: 'Sell', level: 1 })).toBeVisible();
}

export async function openBackOffice(page: Page) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: /Back office/ })
    .click();
}

import { paginate } from '../../db/paginate';
import { containsText } from '../../db/like';
import { sql } from 'kysely';
import type { z } from 'zod';
import {
  type AccountPaymentTender,
  type CreateCustomerRequest,
  type Customer,
  type CustomerLedgerRow,
  phoneDigits,
  type UpdateCustomerRequest,
} from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import { recordUpsert } from '../../db/changes';
import type { AuthUser } from '../../http/auth';
import { AppError, Conflict, Forbidden, Invalid, NotFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { formatMinor, toMinor } from '../../lib/money';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { baseExponent } from '../currency/service';
import { getLocalDeviceId } from '../fiscal/device';
import { findActiveSession, takingSession } from '../sessions/service';
import { mayChangeCreditTerms } from '@pharmacy/contracts/roles';
import { recordSignInAtTill } from '../approvals/sign-ins';
import type { CustomerLedgerTable, CustomersTable } from '../../db/tables/customers';

/**
 * Customers are organisation-wide (a patient may buy at any branch). Balances and credit limits are in the base
 * currency. The ledger is append-only; every balance change writes a ledger row with balance_after, and both
 * rows replicate (entities `customer` and `customer_ledger`).
 */

export const toCustomer = (r: CustomersTable, exp: number): Customer => ({
  id: r.id,
  name: r.name,
  phone: r.phone,
  national_id: r.national_id,
  notes: r.notes,
  credit_limit: formatMinor(r.credit_limit, exp),
  is_credit_allowed: r.is_credit_allowed === 1,
  current_balance: formatMinor(r.current_balance, exp),
  created_at: r.created_at,
  updated_at: r.updated_at,
});

export async function getCustomerRow(db: Db, id: string): Promise<CustomersTable> {
  const row = await db.selectFrom('customers').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new NotFound('Customer', id);
  return row;
}

async function recordCustomer(trx: Db, row: CustomersTable): Promise<void> {
  await recordUpsert(trx, 'customer', row, null);
}

async function insertLedger(trx: Db, row: CustomerLedgerTable): Promise<void> {
  await trx.insertInto('customer_ledger').values(row).execute();
  // Organisation scope (branchId null): every till holds a customer's whole ledger, whose sum is the balance
  // (customers/sync.ts).
  await recordUpsert(trx, 'customer_ledger', row, null);
}

export async function listCustomers(
  app: AppContext,
  f: { page: number; page_size: number; search?: string },
) {
  const exp = await baseExponent(app);
  let q = app.db.selectFrom('customers');
  if (f.search) {
    // Partial, case-insensitive match on name or phone (instr: no LIKE wildcards to escape); exact national ID.
    const search = f.search;
    q = q.where((eb) =>
      eb.or([containsText('name', search), containsText('phone', search), eb('national_id', '=', search)]),
    );
  }
  const found = await paginate(q, f, (q) => q.selectAll().orderBy('name', 'asc').orderBy('id'));
  return { ...found, items: found.items.map((r) => toCustomer(r, exp)) };
}

export async function getCustomer(app: AppContext, id: string): Promise<Customer> {
  return toCustomer(await getCustomerRow(app.db, id), await baseExponent(app));
}

/** phoneDigits in SQL, for the separators people type: spaces, dashes, dots, slashes, brackets and a plus. */
const PHONE_DIGITS_SQL = [' ', '-', '.', '/', '(', ')', '+'].reduce(
  (expr, separator) => `replace(${expr}, '${separator}', '')`,
  'phone',
);

/** Most customers a duplicate check lists: enough to recognise the person, never a whole book. */
const MAX_DUPLICATES = 10;

/**
 * Customers a new or edited one may duplicate: the same phone number (its digits, however it is spaced), or
 * the same name (case and surrounding spaces aside). A warning for the counter, never a refusal: two patients may share a
 * name, a family a phone.
 */
export async function possibleDuplicates(
  app: AppContext,
  f: { name: string; phone: string; exclude_id?: string },
): Promise<Customer[]> {
  const digits = phoneDigits(f.phone);
  const name = f.name.trim().toLowerCase();
  if (!digits && !name) return [];
  const rows = await app.db
    .selectFrom('customers')
    .selectAll()
    .where((eb) => {
      const matches = [];
      if (digits) matches.push(eb(sql<string>`${sql.raw(PHONE_DIGITS_SQL)}`, '=', digits));
      if (name) matches.push(eb(sql<string>`lower(trim(name))`, '=', name));
      return eb.or(matches);
    })
    .$if(f.exclude_id !== undefined, (q) => q.where('id', '!=', f.exclude_id!))
    .orderBy('name')
    .orderBy('id')
    .limit(MAX_DUPLICATES)
    .execute();
  const exp = await baseExponent(app);
  return rows.map((r) => toCustomer(r, exp));
}

const grantsCredit = (fields: { credit_limit?: number; is_credit_allowed?: boolean }) =>
  (fields.credit_limit !== undefined && fields.credit_limit > 0) || fields.is_credit_allowed === true;

function assertCreditTerms(user: AuthUser, fields: { credit_limit?: number; is_credit_allowed?: boolean }) {
  if (grantsCredit(fields) && !mayChangeCreditTerms(user.role))
    throw new Forbidden(
      'Granting credit (credit_limit above 0 or is_credit_allowed) needs a branch manager or an admin.',
      'CREDIT_TERMS_NEED_MANAGER',
    );
}

/** At a till, credit terms travel with the manager's sign-in there (issue 26 H2): recorded before the change. */
const signedInForCredit = (app: AppContext, trx: Db, user: AuthUser, customerId: string) =>
  recordSignInAtTill(app, trx, {
    branchId: app.tillBranch() ?? user.branchId,
    userId: user.id,
    method: 'session',
    subject: { customerId },
  });

export async function createCustomer(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  input: z.output<typeof CreateCustomerRequest>,
): Promise<Customer> {
  assertCreditTerms(user, input);
  const exp = await baseExponent(app);
  const at = nowIso();
  const row: CustomersTable = {
    id: newId(),
    name: input.name,
    phone: input.phone,
    national_id: input.national_id,
    notes: input.notes,
    credit_limit: toMinor(input.credit_limit, exp, 'credit_limit'),
    is_credit_allowed: input.is_credit_allowed ? 1 : 0,
    credit_terms_by: grantsCredit(input) ? user.id : null,
    current_balance: 0,
    created_at: at,
    updated_at: at,
  };
  await app.db.transaction().execute(async (trx) => {
    if (row.credit_terms_by) await signedInForCredit(app, trx, user, row.id);
    await trx.insertInto('customers').values(row).execute();
    await recordCustomer(trx, row);
    await writeAudit(trx, actor, {
      action: 'customer.create',
      entity: 'customer',
      entityId: row.id,
      branchId: null,
      after: row,
    });
  });
  return toCustomer(row, exp);
}

export async function updateCustomer(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  id: string,
  patch: z.output<typeof UpdateCustomerRequest>,
): Promise<Customer> {
  if (patch.credit_limit !== undefined || patch.is_credit_allowed !== undefined) {
    if (!mayChangeCreditTerms(user.role))
      throw new Forbidden(
        'Changing credit terms needs a branch manager or an admin.',
        'CREDIT_TERMS_NEED_MANAGER',
      );
  }
  const exp = await baseExponent(app);
  const creditLimit =
    patch.credit_limit === undefined ? undefined : toMinor(patch.credit_limit, exp, 'credit_limit');
  const row = await app.db.transaction().execute(async (trx) => {
    const before = await getCustomerRow(trx, id);
    const after: CustomersTable = {
      ...before,
      ...(patch.name !== undefined && { name: patch.name }),
      ...(patch.phone !== undefined && { phone: patch.phone }),
      ...(patch.national_id !== undefined && { national_id: patch.national_id }),
      ...(patch.notes !== undefined && { notes: patch.notes }),
      ...(creditLimit !== undefined && { credit_limit: creditLimit }),
      ...(patch.is_credit_allowed !== undefined && { is_credit_allowed: patch.is_credit_allowed ? 1 : 0 }),
      ...((creditLimit !== undefined || patch.is_credit_allowed !== undefined) && {
        credit_terms_by: user.id,
      }),
      updated_at: nowIso(),
    };
    const { id: _, current_balance: __, created_at: ___, ...set } = after;
    if (creditLimit !== undefined || patch.is_credit_allowed !== undefined)
      await signedInForCredit(app, trx, user, id);
    await trx.updateTable('customers').set(set).where('id', '=', id).execute();
    await recordCustomer(trx, after);
    await writeAudit(trx, actor, {
      action: 'customer.update',
      entity: 'customer',
      entityId: id,
      branchId: null,
      before,
      after,
    });
    return after;
  });
  return toCustomer(row, exp);
}

export async function customerLedger(app: AppContext, id: string, f: { page: number; page_size: number }) {
  const exp = await baseExponent(app);
  await getCustomerRow(app.db, id);
  const q = app.db.selectFrom('customer_ledger as l').where('l.customer_id', '=', id);
  const found = await paginate(q, f, (q) =>
    q
      .leftJoin('users as u', 'u.id', 'l.created_by')
      .selectAll('l')
      .select('u.full_name as created_by_name')
      .orderBy('l.created_at', 'desc')
      .orderBy('l.id', 'desc'),
  );
  const items: CustomerLedgerRow[] = found.items.map((r) => ({
    id: r.id,
    customer_id: r.customer_id,
    branch_id: r.branch_id,
    transaction_type: r.transaction_type,
    amount: formatMinor(r.amount, exp),
    balance_after: formatMinor(r.balance_after, exp),
    reference_type: r.reference_type,
    reference_id: r.reference_id,
    notes: r.notes,
    created_by: r.created_by,
    created_by_name: r.created_by_name,
    created_at: r.created_at,
  }));
  return { ...found, items };
}

export interface CreditMovement {
  customerId: string;
  /** Minor units of the base currency, positive. */
  amount: number;
  branchId: string | null;
  userId: string | null;
  referenceType: string;
  referenceId: string;
  notes?: string;
}

/** A credit movement's customer row replicated and its ledger row (SALE or REFUND) written and replicated. */
async function writeMovement(
  trx: Db,
  m: CreditMovement,
  type: 'SALE' | 'REFUND',
  row: CustomersTable,
  at: string,
): Promise<CustomerLedgerTable> {
  await recordCustomer(trx, row);
  const ledger: CustomerLedgerTable = {
    id: newId(),
    customer_id: m.customerId,
    branch_id: m.branchId,
    transaction_type: type,
    amount: m.amount,
    balance_after: row.current_balance,
    reference_type: m.referenceType,
    reference_id: m.referenceId,
    notes: m.notes ?? '',
    created_by: m.userId,
    created_at: at,
  };
  await insertLedger(trx, ledger);
  return ledger;
}

/**
 * Charges a credit sale to a customer's account in the caller's transaction: the guarded UPDATE refuses it when
 * credit is not allowed (403 CREDIT_NOT_ALLOWED) or the balance would pass the limit (409 CREDIT_LIMIT_EXCEEDED,
 * naming both figures); writes a SALE ledger row. Returns the ledger row.
 */
export async function chargeCustomerCredit(
  trx: Db,
  m: CreditMovement & { exponent: number },
): Promise<CustomerLedgerTable> {
  const at = nowIso();
  const res = await trx
    .updateTable('customers')
    .set((eb) => ({ current_balance: eb('current_balance', '+', m.amount), updated_at: at }))
    .where('id', '=', m.customerId)
    .where('is_credit_allowed', '=', 1)
    .where((eb) => eb(eb('current_balance', '+', m.amount), '<=', eb.ref('credit_limit')))
    .executeTakeFirst();
  const row = await getCustomerRow(trx, m.customerId);
  if (Number(res.numUpdatedRows) !== 1) {
    if (!row.is_credit_allowed)
      throw new Forbidden(`Customer ${row.name} is not allowed to buy on credit.`, 'CREDIT_NOT_ALLOWED');
    const f = (n: number) => formatMinor(n, m.exponent);
    throw new AppError(
      409,
      'CREDIT_LIMIT_EXCEEDED',
      `Credit of ${f(m.amount)} would take ${row.name}'s balance from ${f(row.current_balance)} to ${f(row.current_balance + m.amount)}, above the credit limit of ${f(row.credit_limit)}.`,
      [
        {
          path: 'payment_lines',
          message: `credit ${f(m.amount)} exceeds available ${f(Math.max(0, row.credit_limit - row.current_balance))}`,
        },
      ],
    );
  }
  return writeMovement(trx, m, 'SALE', row, at);
}

/**
 * Gives credit back to a customer's account (a return of a credit sale) in the caller's transaction: the balance
 * goes down by the amount (it may go below zero: the pharmacy then owes the customer), with a REFUND ledger row.
 */
export async function refundCustomerCredit(trx: Db, m: CreditMovement): Promise<CustomerLedgerTable> {
  const at = nowIso();
  const res = await trx
    .updateTable('customers')
    .set((eb) => ({ current_balance: eb('current_balance', '-', m.amount), updated_at: at }))
    .where('id', '=', m.customerId)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw new NotFound('Customer', m.customerId);
  const row = await getCustomerRow(trx, m.customerId);
  return writeMovement(trx, m, 'REFUND', row, at);
}

/**
 * A payment on account: money taken at the till, so it belongs to the taker's open session on this till (the
 * rule of a sale: 409 NO_OPEN_SESSION, SESSION_ON_BREAK, SESSION_ON_OTHER_TILL) and its X/Z list it by tender.
 * amount > 0 and at most the balance (400 naming both), PAYMENT ledger row with the session and tender, two
 * changes.
 */
export async function recordCustomerPayment(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  id: string,
  input: { amount: number; method: AccountPaymentTender; notes: string },
) {
  const exp = await baseExponent(app);
  const amount = toMinor(input.amount, exp, 'amount');
  const f = (n: number) => formatMinor(n, exp);
  const deviceId = await getLocalDeviceId(app.db);
  return app.db.transaction().execute(async (trx) => {
    const before = await getCustomerRow(trx, id);
    if (amount <= 0 || amount > before.current_balance) {
      throw new Invalid(
        `The payment amount ${f(amount)} must be above zero and at most the current balance ${f(before.current_balance)}.`,
        [{ path: 'amount', message: `must be above 0 and at most ${f(before.current_balance)}` }],
        'INVALID_PAYMENT_AMOUNT',
      );
    }
    const session = takingSession(await findActiveSession(trx, user.id), deviceId);
    const at = nowIso();
    const res = await trx
      .updateTable('customers')
      .set((eb) => ({ current_balance: eb('current_balance', '-', amount), updated_at: at }))
      .where('id', '=', id)
      .where('current_balance', '>=', amount)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1)
      throw new Conflict('The balance changed; try again.', 'BALANCE_CHANGED');
    const after: CustomersTable = {
      ...before,
      current_balance: before.current_balance - amount,
      updated_at: at,
    };
    await recordCustomer(trx, after);
    const ledger: CustomerLedgerTable = {
      id: newId(),
      customer_id: id,
      branch_id: user.branchId,
      transaction_type: 'PAYMENT',
      amount,
      balance_after: after.current_balance,
      reference_type: null,
      reference_id: null,
      notes: input.notes,
      created_by: user.id,
      created_at: at,
      session_id: session.id,
      tender: input.method,
    };
    await insertLedger(trx, ledger);
    await writeAudit(trx, actor, {
      action: 'customer.payment',
      entity: 'customer',
      entityId: id,
      branchId: user.branchId,
      before: { current_balance: before.current_balance },
      after: { current_balance: after.current_balance, ledger_id: ledger.id, amount, tender: input.method },
    });
    return {
      ledger_id: ledger.id,
      session_id: session.id,
      method: input.method,
      amount_paid: f(amount),
      previous_balance: f(before.current_balance),
      new_balance: f(after.current_balance),
    };
  });
}

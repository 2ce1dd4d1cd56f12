import { sql } from 'kysely';
import { recordUpsert } from '../../db/changes';
import type { Db } from '../../db/connection';
import { prepared } from '../../db/prepared';
import { ACCOUNT_PAYMENT_TENDERS, CustomerLedgerPayload, CustomerPayload } from '@pharmacy/contracts';
import { assertNamedUserMay, heldOrPushed, PushForbidden } from '../sync/push-actors';
import type { CustomerLedgerTable, CustomersTable } from '../../db/tables/customers';
import {
  defineEntity,
  type EntityRegistration,
  type Payload,
  type PushedChange,
  type Pusher,
} from '../sync/registry';
import { insertRowIfAbsent, upsertRow } from '../sync/row-writes';
import { CREDIT_GRANTERS, CUSTOMER_COUNTER } from '@pharmacy/contracts/roles';
import { assertSignedInAtDevice } from '../approvals/sign-ins';

/**
 * Customers and their credit ledger. Customers are organisation-wide and created at tills (owner till,
 * last-writer-wins for contact details and credit terms). `current_balance` is NOT last-writer-wins: two tills
 * charging the same customer offline would each push their own balance and one would be lost. Instead:
 *
 * - the ledger replicates organisation-wide (branchId null, so every till holds a customer's whole ledger and
 *   can enforce the credit limit whichever branch the customer buys at), insert-once by id;
 * - every server derives current_balance = Σ SALE − Σ (PAYMENT, REFUND) over the customer's ledger rows (the
 *   signs customers/service.ts applies), recomputed in the same transaction whenever a ledger row or a customer
 *   change is applied; a pushed or pulled customer payload's current_balance is never used.
 *
 * Ledger rows keep created_by only where the user is held (a till holds its own branch's users; the foreign
 * key would refuse another branch's); the snapshot sends ledger rows without it for the same reason.
 */
export async function recomputeCustomerBalance(trx: Db, customerId: string): Promise<void> {
  await sql`UPDATE customers SET current_balance = coalesce((
      SELECT sum(CASE transaction_type WHEN 'SALE' THEN amount ELSE -amount END)
      FROM customer_ledger WHERE customer_id = ${customerId}), 0)
    WHERE id = ${customerId}`.execute(trx);
}

const storedTerms = prepared((db, p: { id: string }) =>
  db.selectFrom('customers').select(['credit_limit', 'is_credit_allowed']).where('id', '=', p.id),
);

/**
 * Any till may create a customer or change contact details, but raising credit terms (a higher credit_limit,
 * credit allowed where it was not) needs a branch manager or an admin through REST, so a pushed raise must
 * name one of them in credit_terms_by (FORBIDDEN_ROLE otherwise, nothing written), and a device carries it
 * only with that person's sign-in at that device for this customer (issue 26 H2).
 */
async function authoriseCustomer(trx: Db, change: PushedChange, pusher: Pusher): Promise<void> {
  if (change.op !== 'upsert') return;
  const p = change.payload;
  const stored = await storedTerms.first(trx, { id: change.entityId });
  const raises =
    Number(p.credit_limit ?? 0) > (stored?.credit_limit ?? 0) ||
    (Number(p.is_credit_allowed ?? 0) === 1 && stored?.is_credit_allowed !== 1);
  if (!raises) return;
  await assertNamedUserMay(trx, change, pusher, {
    field: 'credit_terms_by',
    roles: CREDIT_GRANTERS,
    what: 'grants a customer credit',
    pusherRoles: CUSTOMER_COUNTER,
  });
  await assertSignedInAtDevice(trx, pusher, {
    userId: String(p.credit_terms_by),
    subject: { customerId: change.entityId },
    what: 'credit terms granted',
  });
}

const customerBalance = prepared((db, p: { id: string }) =>
  db.selectFrom('customers').select('current_balance').where('id', '=', p.id),
);

/** What a sale charged to a customer's account: its credit tenders in the base currency, and how many. */
function creditOf(sale: Payload, payments: Payload[]): { amount: number; lines: number } {
  const credit = payments.filter((p) => p.method === 'credit' && p.sale_id === sale.id);
  return { amount: credit.reduce((a, p) => a + Number(p.base_amount ?? 0), 0), lines: credit.length };
}

/**
 * A payment on account is money taken at the till (27.3): it names a cash session of the device's branch, held
 * on central or pushed with it, that was open when the payment was taken, and a tender the REST route takes.
 */
async function assertTakenInSession(
  trx: Db,
  p: Payload,
  pusher: Pusher,
  refuse: (why: string) => Error,
): Promise<void> {
  if (!(ACCOUNT_PAYMENT_TENDERS as readonly unknown[]).includes(p.tender))
    throw refuse('for a payment must be paid in cash, card, mobile money or bank transfer');
  const session = await heldOrPushed(trx, pusher, {
    entity: 'cash_session',
    table: 'cash_sessions',
    id: String(p.session_id ?? ''),
  });
  if (!session || session.row.branch_id !== pusher.device.branch_id)
    throw refuse("for a payment must be taken in a cash session of the device's branch");
  const at = String(p.created_at ?? '');
  const { opened_at: opened, closed_at: closed } = session.row;
  if (at < String(opened) || (closed && at > String(closed)))
    throw refuse('for a payment must be taken while its cash session was open');
}

/**
 * A ledger row moves a customer's balance, so it must be the effect of a document of the device's branch, as
 * REST writes it (customers/service.ts): a SALE charge is the credit tender of a sale of that customer, a
 * REFUND the credit refund of a return of theirs (the document held on central or carried by the same push),
 * and a PAYMENT is taken in a cash session of the branch (assertTakenInSession) for at most the balance central
 * holds. Nothing else moves a balance through sync.
 */
async function authoriseLedger(trx: Db, change: PushedChange, pusher: Pusher): Promise<void> {
  const p = change.payload;
  const refuse = (why: string) => new PushForbidden(`A customer account entry ${why}.`);
  if (p.branch_id !== pusher.device.branch_id) throw refuse("must be of the device's branch");
  const amount = Number(p.amount);
  if (p.transaction_type === 'PAYMENT') {
    await assertTakenInSession(trx, p, pusher, refuse);
    const held = await customerBalance.first(trx, { id: String(p.customer_id) });
    if (!held || amount > held.current_balance)
      throw refuse('for a payment must not exceed what the customer owes at head office');
    return;
  }
  const isSale = p.transaction_type === 'SALE';
  const doc = await heldOrPushed(trx, pusher, {
    entity: isSale ? 'sale' : 'return',
    table: isSale ? 'sales' : 'returns',
    id: String(p.reference_id ?? ''),
  });
  const kind = isSale ? 'sale' : 'return';
  if (p.reference_type !== kind || !doc || doc.row.branch_id !== pusher.device.branch_id)
    throw refuse(`of type ${String(p.transaction_type)} must come from a ${kind} of the device's branch`);
  if (doc.row.customer_id !== p.customer_id) throw refuse(`must be for the customer of its ${kind}`);
  if (isSale) {
    const payments = doc.held
      ? ((await sql<Payload>`SELECT * FROM sale_payments WHERE sale_id = ${doc.row.id}`.execute(trx))
          .rows as Payload[])
      : ((doc.row.payments as Payload[] | undefined) ?? []);
    const credit = creditOf(doc.row, payments);
    if (credit.lines === 0 || Math.abs(amount - credit.amount) > credit.lines)
      throw refuse('must match the credit its sale charged');
  } else if (doc.row.refund_method !== 'credit' || amount > Number(doc.row.base_total_amount))
    throw refuse('must match the credit its return refunded');
}

const customerEntity = defineEntity<CustomersTable>({
  entity: 'customer',
  push: authoriseCustomer,
  owner: 'till',
  scope: 'organisation',
  table: 'customers',
  order: 170,
  rest: [
    { method: 'post', path: '/customers' },
    { method: 'put', path: '/customers/:customerId' },
  ],
  payloadSchema: CustomerPayload,
  write: async (trx, payload) => {
    const { current_balance: _, ...row } = payload;
    await upsertRow(trx, 'customers', 'id', row);
    await recomputeCustomerBalance(trx, row.id);
    await recordUpsert(trx, 'customer', payload, null);
  },
});

const customerLedgerEntity = defineEntity<CustomerLedgerTable>({
  entity: 'customer_ledger',
  push: authoriseLedger,
  owner: 'till',
  scope: 'organisation',
  table: 'customer_ledger',
  order: 175,
  rest: [
    { method: 'post', path: '/sales' },
    { method: 'post', path: '/returns' },
    { method: 'post', path: '/customers/:customerId/payments' },
  ],
  payloadSchema: CustomerLedgerPayload,
  // Organisation-wide, but written by one branch: the branch it names is the device's (a branch's own row).
  references: [{ field: 'branch_id', table: 'branches', branchColumn: 'id' }],
  fromRow: (row) => ({ ...row, created_by: null }),
  write: async (trx, payload) => {
    let row = payload;
    if (row.created_by) {
      const user = await trx
        .selectFrom('users')
        .select('id')
        .where('id', '=', row.created_by)
        .executeTakeFirst();
      if (!user) row = { ...row, created_by: null };
    }
    if (!(await insertRowIfAbsent(trx, 'customer_ledger', 'id', row))) return;
    await recomputeCustomerBalance(trx, row.customer_id);
    await recordUpsert(trx, 'customer_ledger', payload, null);
  },
});

/** The entities this area replicates, registered once at start-up (modules/index.ts). */
export const customersEntities: readonly EntityRegistration[] = [customerEntity, customerLedgerEntity];

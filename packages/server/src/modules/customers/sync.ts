import { sql } from 'kysely';
import { recordChange } from '../../db/changes';
import type { Db } from '../../db/connection';
import { prepared } from '../../db/prepared';
import { assertNamedUserMay } from '../sync/push-actors';
import {
  insertRowIfAbsent,
  type Payload,
  type PushedChange,
  type Pusher,
  type EntityRegistration,
  upsertRow,
} from '../sync/registry';
import { CREDIT_GRANTERS, CUSTOMER_COUNTER } from './roles';

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
 * name one of them in credit_terms_by (FORBIDDEN_ROLE otherwise, nothing written).
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
}

const customerEntity: EntityRegistration = {
  entity: 'customer',
  push: authoriseCustomer,
  owner: 'till',
  scope: 'organisation',
  table: 'customers',
  order: 170,
  write: async (trx, payload) => {
    const { current_balance: _, ...row } = payload;
    await upsertRow(trx, 'customers', 'id', row);
    await recomputeCustomerBalance(trx, String(row.id));
    await recordChange(trx, {
      entity: 'customer',
      entityId: String(row.id),
      op: 'upsert',
      payload,
      branchId: null,
    });
  },
};

const customerLedgerEntity: EntityRegistration = {
  entity: 'customer_ledger',
  push: 'till-owned',
  owner: 'till',
  scope: 'organisation',
  table: 'customer_ledger',
  order: 175,
  fromRow: (row) => ({ ...row, created_by: null }),
  write: async (trx, payload: Payload) => {
    let row = payload;
    if (row.created_by) {
      const user = await trx
        .selectFrom('users')
        .select('id')
        .where('id', '=', String(row.created_by))
        .executeTakeFirst();
      if (!user) row = { ...row, created_by: null };
    }
    if (!(await insertRowIfAbsent(trx, 'customer_ledger', 'id', row))) return;
    await recomputeCustomerBalance(trx, String(row.customer_id));
    await recordChange(trx, {
      entity: 'customer_ledger',
      entityId: String(row.id),
      op: 'upsert',
      payload,
      branchId: null,
    });
  },
};

/** The entities this area replicates, registered once at start-up (modules/index.ts). */
export const customersEntities: readonly EntityRegistration[] = [customerEntity, customerLedgerEntity];

import { newId } from '../lib/ids';
import { addStock, makeMedicineId, openSessionFor } from './factory';
import type { TestServer } from './harness';

type Row = Record<string, unknown>;

/**
 * Sales as a till pushes them, for sync tests: one real sale made through REST on the test server (a session of
 * `token`'s user, one line, paid in cash), whose change payload is then copied under fresh ids for each
 * pushed sale. `credit` makes the copy a credit sale of `customerId` for that amount (minor units), the shape
 * a till's credit sale has, so its customer ledger row can be checked against it.
 */
export async function saleTemplate(
  t: TestServer,
  token: string,
): Promise<(o?: { customerId?: string; credit?: number; branchId?: string }) => Row> {
  const med = await makeMedicineId(t, { price: 10 });
  await addStock(t, med, 1000);
  await openSessionFor(t, token).catch(() => undefined);
  const sold = await t.post<{ id: string }>(
    '/api/v1/sales',
    { items: [{ medicine_id: med, quantity: 1 }], payment_lines: [{ method: 'cash', amount: 100 }] },
    token,
  );
  if (sold.status !== 201) throw new Error(`template sale: ${sold.status} ${JSON.stringify(sold.body)}`);
  const [logged] = await t.query<{ payload: string }>(
    "SELECT payload FROM change_log WHERE entity = 'sale' AND entity_id = ? ORDER BY revision DESC",
    sold.body.id,
  );
  const template = JSON.parse(logged!.payload) as Row;
  return (o = {}) => {
    const id = newId();
    const lines = (template.lines as Row[]).map((l) => ({ ...l, id: newId(), sale_id: id }));
    const payments = o.credit
      ? [
          {
            id: newId(),
            sale_id: id,
            line_no: 1,
            method: 'credit',
            amount: o.credit,
            base_amount: o.credit,
            reference: '',
          },
        ]
      : (template.payments as Row[]).map((p) => ({ ...p, id: newId(), sale_id: id }));
    return {
      ...template,
      id,
      uuid: newId(),
      icv: Math.floor(Math.random() * 1e9) + 1_000_000,
      invoice_number: `T-${id.slice(-12)}`,
      client_mutation_id: newId(),
      ...(o.branchId && { branch_id: o.branchId }),
      ...(o.customerId !== undefined && { customer_id: o.customerId }),
      ...(o.credit && { payment_method: 'credit' }),
      lines,
      payments,
      movement_ids: [],
    };
  };
}

/**
 * A discount approval as a till pushes it, decided (status approved) and valid for 15 minutes; `fields`
 * override any column (the id, the payload, who requested or decided it).
 */
export function pushedApproval(
  people: { branchId: string; requestedBy: string; decidedBy: string },
  fields: Row = {},
): Row {
  const at = new Date().toISOString();
  return {
    id: newId(),
    branch_id: people.branchId,
    kind: 'discount',
    payload: JSON.stringify({ max_discount: 1000, currency_code: 'USD' }),
    reason: 'regular customer',
    status: 'approved',
    requested_by: people.requestedBy,
    decided_by: people.decidedBy,
    decision_reason: 'ok',
    decided_at: at,
    used_by: null,
    used_at: null,
    expires_at: new Date(Date.now() + 15 * 60_000).toISOString(),
    created_at: at,
    updated_at: at,
    ...fields,
  };
}

/**
 * The sign-in a till records when a manager decides at it (issue 26 H2): pushed before the decision it backs,
 * it lets the device carry `approval`'s decision.
 */
export function pushedSignIn(approval: Row, deviceId: string): Row {
  const at = new Date().toISOString();
  return {
    id: newId(),
    branch_id: approval.branch_id,
    device_id: deviceId,
    user_id: approval.decided_by,
    approval_id: approval.id,
    customer_id: null,
    method: 'override',
    signed_in_at: at,
    created_at: at,
  };
}

/** The sign-in a till records when a manager sets a customer's credit terms at it (issue 26 H2). */
export function pushedCreditSignIn(customer: Row, deviceId: string, branchId: string): Row {
  const at = new Date().toISOString();
  return {
    id: newId(),
    branch_id: branchId,
    device_id: deviceId,
    user_id: customer.credit_terms_by,
    approval_id: null,
    customer_id: customer.id,
    method: 'session',
    signed_in_at: at,
    created_at: at,
  };
}

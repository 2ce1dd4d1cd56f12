import { baseExponent } from '../currency/service';
import type {
  CreateSupplierInvoiceRequest,
  CreateSupplierPaymentRequest,
  SupplierInvoice,
} from '@pharmacy/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import { recordUpsert } from '../../db/changes';
import { assertBranchAccess, type AuthUser } from '../../http/auth';
import { Conflict, Invalid, NotFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { formatMinor, toMinor } from '../../lib/money';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { getSupplierRow } from '../suppliers/service';
import type { SupplierInvoicesTable, SupplierPaymentsTable } from '../../db/tables/supplier-finance';

export const INVOICE_LIST_LIMIT = 50;

function invoiceQuery(db: Db) {
  return db
    .selectFrom('supplier_invoices as i')
    .innerJoin('suppliers as s', 's.id', 'i.supplier_id')
    .innerJoin('branches as b', 'b.id', 'i.branch_id')
    .selectAll('i')
    .select(['s.name as supplier_name', 'b.name as branch_name']);
}

type InvoiceRow = SupplierInvoicesTable & { supplier_name: string; branch_name: string };

const toInvoice = (r: InvoiceRow, exponent: number): SupplierInvoice => ({
  ...r,
  total_amount: formatMinor(r.total_amount, exponent),
  paid_amount: formatMinor(r.paid_amount, exponent),
  balance: formatMinor(r.total_amount - r.paid_amount, exponent),
});

async function readInvoice(db: Db, id: string, exponent: number): Promise<SupplierInvoice> {
  const row = await invoiceQuery(db).where('i.id', '=', id).executeTakeFirst();
  if (!row) throw new NotFound('Supplier invoice', id);
  return toInvoice(row, exponent);
}

const recordInvoiceChange = (trx: Db, row: SupplierInvoicesTable) =>
  recordUpsert(trx, 'supplier_invoice', row, row.branch_id);

export async function createInvoice(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  input: z.output<typeof CreateSupplierInvoiceRequest>,
): Promise<SupplierInvoice> {
  const branchId = input.branch_id ?? user.branchId;
  assertBranchAccess(user, branchId, 'branch');
  const exponent = await baseExponent(app);
  const total = toMinor(input.total_amount, exponent, 'total_amount');
  if (total <= 0)
    throw new Invalid('total_amount must be above zero.', [
      { path: 'total_amount', message: 'must be positive' },
    ]);
  await getSupplierRow(app.db, input.supplier_id);
  const branch = await app.db
    .selectFrom('branches')
    .select('id')
    .where('id', '=', branchId)
    .executeTakeFirst();
  if (!branch) throw new NotFound('Branch', branchId);
  const at = nowIso();
  const row: SupplierInvoicesTable = {
    id: newId(),
    supplier_id: input.supplier_id,
    branch_id: branchId,
    invoice_no: input.invoice_no,
    total_amount: total,
    paid_amount: 0,
    status: 'unpaid',
    due_date: input.due_date,
    notes: input.notes,
    created_by: user.id,
    created_at: at,
    updated_at: at,
  };
  await app.db.transaction().execute(async (trx) => {
    if (row.invoice_no) {
      const clash = await trx
        .selectFrom('supplier_invoices')
        .select('id')
        .where('supplier_id', '=', row.supplier_id)
        .where('invoice_no', '=', row.invoice_no)
        .executeTakeFirst();
      if (clash)
        throw new Conflict(
          `Invoice ${row.invoice_no} of this supplier is already recorded (${clash.id}); it must not be paid twice.`,
          'DUPLICATE_INVOICE',
        );
    }
    await trx.insertInto('supplier_invoices').values(row).execute();
    await recordInvoiceChange(trx, row);
    await writeAudit(trx, actor, {
      action: 'supplier_invoice.create',
      entity: 'supplier_invoice',
      entityId: row.id,
      branchId,
      after: row,
    });
  });
  return readInvoice(app.db, row.id, exponent);
}

export async function listInvoices(
  app: AppContext,
  f: { supplier_id?: string; branch_id?: string; status?: SupplierInvoicesTable['status'] },
) {
  let q = invoiceQuery(app.db);
  if (f.supplier_id) q = q.where('i.supplier_id', '=', f.supplier_id);
  if (f.branch_id) q = q.where('i.branch_id', '=', f.branch_id);
  if (f.status) q = q.where('i.status', '=', f.status);
  const rows = await q
    .orderBy('i.created_at', 'desc')
    .orderBy('i.id', 'desc')
    .limit(INVOICE_LIST_LIMIT)
    .execute();
  const exponent = await baseExponent(app);
  return { items: rows.map((r) => toInvoice(r, exponent)) };
}

/** An invoice with its payments, oldest first; a branch_manager of another branch gets 403. */
export async function invoicePayments(app: AppContext, user: AuthUser, invoiceId: string) {
  const exponent = await baseExponent(app);
  const invoice = await readInvoice(app.db, invoiceId, exponent);
  assertBranchAccess(user, invoice.branch_id, 'supplier invoice');
  const rows = await app.db
    .selectFrom('supplier_payments')
    .selectAll()
    .where('invoice_id', '=', invoiceId)
    .orderBy('paid_at')
    .orderBy('id')
    .execute();
  return { invoice, items: rows.map((p) => ({ ...p, amount: formatMinor(p.amount, exponent) })) };
}

/**
 * Adds a payment to an unpaid or partial invoice: unpaid -> partial -> paid. A payment above the balance is
 * refused with 400 naming both figures; the UPDATE re-checks the balance in SQL so two concurrent payments can
 * never overpay.
 */
export async function payInvoice(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  invoiceId: string,
  input: z.output<typeof CreateSupplierPaymentRequest>,
) {
  const exponent = await baseExponent(app);
  const existing = await readInvoice(app.db, invoiceId, exponent);
  assertBranchAccess(user, existing.branch_id, 'supplier invoice');
  const amount = toMinor(input.amount, exponent, 'amount');
  if (amount <= 0)
    throw new Invalid('amount must be above zero.', [{ path: 'amount', message: 'must be positive' }]);
  const payment: SupplierPaymentsTable = {
    id: newId(),
    invoice_id: invoiceId,
    branch_id: existing.branch_id,
    amount,
    method: input.method,
    reference: input.reference,
    paid_by: user.id,
    paid_at: nowIso(),
  };
  await app.db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('supplier_invoices')
      .selectAll()
      .where('id', '=', invoiceId)
      .executeTakeFirstOrThrow();
    const balance = before.total_amount - before.paid_amount;
    if (amount > balance)
      throw new Invalid(
        `The payment of ${formatMinor(amount, exponent)} is more than the balance of ${formatMinor(balance, exponent)} on this invoice.`,
        [{ path: 'amount', message: `at most ${formatMinor(balance, exponent)}` }],
        'OVERPAYMENT',
      );
    const paid = before.paid_amount + amount;
    const after: SupplierInvoicesTable = {
      ...before,
      paid_amount: paid,
      status: paid >= before.total_amount ? 'paid' : 'partial',
      updated_at: payment.paid_at,
    };
    await trx
      .updateTable('supplier_invoices')
      .set({ paid_amount: after.paid_amount, status: after.status, updated_at: after.updated_at })
      .where('id', '=', invoiceId)
      .where('paid_amount', '=', before.paid_amount)
      .execute();
    await trx.insertInto('supplier_payments').values(payment).execute();
    await recordInvoiceChange(trx, after);
    await recordUpsert(trx, 'supplier_payment', payment, payment.branch_id);
    await writeAudit(trx, actor, {
      action: 'supplier_invoice.payment',
      entity: 'supplier_invoice',
      entityId: invoiceId,
      branchId: before.branch_id,
      before: { paid_amount: before.paid_amount, status: before.status },
      after: { paid_amount: after.paid_amount, status: after.status, payment },
    });
  });
  return {
    payment: { ...payment, amount: formatMinor(payment.amount, exponent) },
    invoice: await readInvoice(app.db, invoiceId, exponent),
  };
}

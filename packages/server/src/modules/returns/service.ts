import { withinUtcDays } from '../../db/utc-days';
import type { SaleReturn } from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import type { ReturnsTable } from '../../db/tables/returns';
import { assertBranchAccess, type AuthUser, isBranchBound } from '../../http/auth';
import { Conflict, NotFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { formatMinor } from '../../lib/money';
import type { Actor } from '../audit/service';
import { currencyExponent } from '../currency/service';
import { loadSaleForReceipt } from '../sales/read';
import { payloadHash } from '../sales/service';
import { getSettings } from '../settings/service';
import { type BatchBack, share } from './create/build';
import type { ReturnRequest } from './create/validate';
import { validateReturn } from './create/validate';
import { ReplayError, returnByMutation, writeReturn } from './create/write';
import { paginate } from '../../db/paginate';

/**
 * Returns issue credit notes: their own numbers (CN-<invoice-style number>) from the device's ICV sequence and
 * hash chain (shared with invoices). Per line, never more than sold minus already returned (guarded UPDATE of
 * sale_lines.returned_quantity, so concurrent returns cannot over-return). Amounts are the line's own figures
 * pro rata, computed cumulatively (the refunds of all returns of a line add up exactly to the line).
 * Resaleable units go back into their original batches (movement `return`); damaged or expired units, or units of
 * a batch that has expired meanwhile, come back and are written off at once (movements `return` + `write_off`).
 */

/**
 * POST /returns in three phases: a replayed client_mutation_id answers the return it made; `validateReturn`
 * (create/validate.ts) reads and checks the sale, the refund tender and the lines; `writeReturn`
 * (create/write.ts, with the rows of create/build.ts) writes the return, its stock movements, the credit refund
 * and the credit note in ONE transaction.
 */
export async function createReturn(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  body: ReturnRequest,
): Promise<{ replay: boolean; ret: SaleReturn }> {
  const hash = payloadHash(user.id, body);
  const clientMutationId = body.client_mutation_id ?? newId();
  const replay = async (e: { id: string; payload_hash: string }) => {
    if (e.payload_hash !== hash)
      throw new Conflict(
        'This client_mutation_id was already used for a different return.',
        'MUTATION_ID_REUSED',
      );
    return { replay: true, ret: await getReturn(app, e.id) };
  };
  if (body.client_mutation_id) {
    const e = await returnByMutation(app.db, clientMutationId);
    if (e) return replay(e);
  }
  const plan = await validateReturn(app, user, body);
  try {
    await writeReturn(app, user, actor, plan, { clientMutationId, hash });
  } catch (e) {
    if (e instanceof ReplayError) {
      const existing = await returnByMutation(app.db, clientMutationId);
      if (existing) return replay(existing);
    }
    throw e;
  }
  return { replay: false, ret: await getReturn(app, plan.returnId) };
}

function baseReturnQuery(db: Db) {
  return db
    .selectFrom('returns as r')
    .innerJoin('sales as s', 's.id', 'r.sale_id')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .selectAll('r')
    .select(['s.invoice_number', 'u.full_name as user_name']);
}

type ReturnRow = ReturnsTable & { invoice_number: string; user_name: string };

async function toReturns(app: AppContext, rows: ReturnRow[]): Promise<SaleReturn[]> {
  if (rows.length === 0) return [];
  const lines = await app.db
    .selectFrom('return_lines')
    .selectAll()
    .where(
      'return_id',
      'in',
      rows.map((r) => r.id),
    )
    .execute();
  const out: SaleReturn[] = [];
  for (const r of rows) {
    const exp = await currencyExponent(app, r.currency_code);
    const bexp = await currencyExponent(app, (await getSettings(app)).base_currency_code);
    const f = (n: number) => formatMinor(n, exp);
    const { payload_hash: _, ...rest } = r;
    out.push({
      ...rest,
      subtotal_amount: f(r.subtotal_amount),
      vat_amount: f(r.vat_amount),
      total_amount: f(r.total_amount),
      base_total_amount: formatMinor(r.base_total_amount, bexp),
      lines: lines
        .filter((l) => l.return_id === r.id)
        .map((l) => ({
          id: l.id,
          sale_line_id: l.sale_line_id,
          medicine_id: l.medicine_id,
          medicine_name: l.medicine_name,
          quantity: l.quantity,
          condition: l.condition,
          net_amount: f(l.net_amount),
          vat_amount: f(l.vat_amount),
          refund_amount: f(l.refund_amount),
          vat_rate: Number(l.vat_rate),
          batches: (JSON.parse(l.batches) as BatchBack[]).map((b) => ({
            batch_id: b.batch_id,
            quantity: b.quantity,
            restocked: b.restocked,
          })),
        })),
    });
  }
  return out;
}

export async function getReturn(app: AppContext, id: string, user?: AuthUser): Promise<SaleReturn> {
  const row = (await baseReturnQuery(app.db).where('r.id', '=', id).executeTakeFirst()) as
    | ReturnRow
    | undefined;
  if (!row) throw new NotFound('Return', id);
  if (user) assertBranchAccess(user, row.branch_id, 'return');
  return (await toReturns(app, [row]))[0]!;
}

export async function listReturns(
  app: AppContext,
  user: AuthUser,
  f: { page: number; page_size: number; branch_id?: string; sale_id?: string; from?: string; to?: string },
) {
  let q = baseReturnQuery(app.db);
  const branch = isBranchBound(user) ? user.branchId : f.branch_id;
  if (branch) q = q.where('r.branch_id', '=', branch);
  if (f.sale_id) q = q.where('r.sale_id', '=', f.sale_id);
  q = withinUtcDays(q, 'r.created_at', f);
  const found = await paginate(q, f, (q) => q.orderBy('r.created_at', 'desc').orderBy('r.id', 'desc'));
  return { ...found, items: await toReturns(app, found.items as ReturnRow[]) };
}

/** The sale behind an invoice number (of the caller's branch for branch-bound roles) with returnable quantities. */
export async function lookupForReturn(app: AppContext, user: AuthUser, invoiceNumber: string) {
  let q = app.db.selectFrom('sales').select(['id', 'branch_id']).where('invoice_number', '=', invoiceNumber);
  if (isBranchBound(user)) q = q.where('branch_id', '=', user.branchId);
  const row = await q.orderBy('sold_at', 'desc').executeTakeFirst();
  if (!row) throw new NotFound('Sale with invoice number', invoiceNumber);
  const sale = await loadSaleForReceipt(app, row.id);
  const exp = await currencyExponent(app, sale.currency_code);
  const lines = await app.db
    .selectFrom('sale_lines')
    .selectAll()
    .where('sale_id', '=', row.id)
    .orderBy('line_no')
    .execute();
  return {
    ...sale,
    lines_returnable: lines.map((l) => ({
      sale_line_id: l.id,
      medicine_id: l.medicine_id,
      medicine_name: l.medicine_name,
      quantity: l.quantity,
      returned_quantity: l.returned_quantity,
      returnable_quantity: l.quantity - l.returned_quantity,
      unit_refund: formatMinor(share(l.line_total, 1, l.quantity), exp),
    })),
  };
}

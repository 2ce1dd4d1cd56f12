import type { z } from 'zod';
import type { CreateReturnRequest } from '@pharmacy/contracts';
import type { AppContext } from '../../../app-context';
import type { SaleLinesTable } from '../../../db/tables/sales';
import { assertBranchAccess, type AuthUser } from '../../../http/auth';
import { Conflict, Invalid, NotFound } from '../../../lib/errors';
import { newId } from '../../../lib/ids';
import { nowIso } from '../../../lib/time';
import { rateOf, toBase } from '../../currency/fx';
import { currencyExponent } from '../../currency/service';
import { getLocalDeviceId } from '../../fiscal/device';
import { getSettings } from '../../settings/service';
import { localDate } from '@pharmacy/contracts/time';

/**
 * The validate phase of POST /returns: the sale exists and is the caller's to refund, the refund tender fits it,
 * no sale line appears twice; and, inside the transaction, each line is a line of the sale with units left to
 * return. Reads only; throws the request's 4xx.
 */

export type ReturnRequest = z.output<typeof CreateReturnRequest>;
export type ReturnLineInput = ReturnRequest['lines'][number];

export const exceedsSold = (line: SaleLinesTable, asked: number) =>
  new Conflict(
    `Only ${line.quantity - line.returned_quantity} of ${line.medicine_name} can still be returned (sold ${line.quantity}, returned ${line.returned_quantity}); asked ${asked}.`,
    'RETURN_EXCEEDS_SOLD',
  );

/** The refund's tender: the one asked for, else credit when the sale took credit, its one tender, or cash. */
function refundMethodOf(
  body: ReturnRequest,
  payMethods: readonly string[],
  customerId: string | null,
): string {
  const refundMethod =
    body.refund_method ??
    (payMethods.includes('credit') ? 'credit' : payMethods.length === 1 ? payMethods[0]! : 'cash');
  if (refundMethod === 'credit' && !customerId)
    throw new Invalid('A refund to credit needs a sale with a customer.', [
      { path: 'refund_method', message: 'sale has no customer' },
    ]);
  return refundMethod;
}

function assertLinesOnce(body: ReturnRequest): void {
  const seen = new Set<string>();
  for (const l of body.lines) {
    if (seen.has(l.sale_line_id))
      throw new Invalid('Each sale line may appear once in a return.', [
        { path: 'lines', message: `duplicate ${l.sale_line_id}` },
      ]);
    seen.add(l.sale_line_id);
  }
}

/** Everything the return's transaction writes from, read and checked before it opens. */
export type ReturnPlan = Awaited<ReturnType<typeof validateReturn>>;

export async function validateReturn(app: AppContext, user: AuthUser, body: ReturnRequest) {
  const sale = await app.db.selectFrom('sales').selectAll().where('id', '=', body.sale_id).executeTakeFirst();
  if (!sale) throw new NotFound('Sale', body.sale_id);
  assertBranchAccess(user, sale.branch_id, 'sale');
  const settings = await getSettings(app);
  const branch = await app.db
    .selectFrom('branches')
    .select(['code', 'address', 'timezone'])
    .where('id', '=', sale.branch_id)
    .executeTakeFirstOrThrow();
  const exp = await currencyExponent(app, sale.currency_code);
  const baseExp = await currencyExponent(app, sale.base_currency_code);
  const inBase = (n: number) =>
    sale.currency_code === sale.base_currency_code
      ? n
      : toBase(n, rateOf(sale.fx_rate_to_base), exp, baseExp);
  const payMethods = (
    await app.db.selectFrom('sale_payments').select('method').where('sale_id', '=', sale.id).execute()
  ).map((p) => p.method);
  const refundMethod = refundMethodOf(body, payMethods, sale.customer_id);
  assertLinesOnce(body);
  return {
    body,
    sale,
    settings,
    branch,
    exp,
    inBase,
    refundMethod,
    deviceId: await getLocalDeviceId(app.db),
    today: localDate(branch.timezone),
    returnId: newId(),
    at: nowIso(),
  };
}

/** Each requested line with its sale line: a line of this sale, with the units asked still unreturned. */
export function pickReturnLines(plan: ReturnPlan, saleLines: ReadonlyMap<string, SaleLinesTable>) {
  return plan.body.lines.map((input, i) => {
    const line = saleLines.get(input.sale_line_id);
    if (!line)
      throw new Invalid(`Line ${input.sale_line_id} is not a line of sale ${plan.sale.invoice_number}.`, [
        { path: `lines.${i}.sale_line_id`, message: 'not a line of this sale' },
      ]);
    if (line.returned_quantity + input.quantity > line.quantity) throw exceedsSold(line, input.quantity);
    return { line, input };
  });
}

import type { CreateApprovalRequest } from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import type { AuthUser } from '../../http/auth';
import { Invalid } from '../../lib/errors';
import { toMinor } from '../../lib/money';
import { getSettings } from '../settings/service';

/**
 * The payload an approval records, from a request the contract has already checked: amounts are checked
 * against the decimals of their currency, and the currency is recorded (default: the branch's selling
 * currency), so that using the approval later compares like with like.
 */
export async function recordedBounds(
  app: AppContext,
  user: AuthUser,
  input: CreateApprovalRequest,
): Promise<Record<string, unknown>> {
  switch (input.kind) {
    case 'price_override':
      return withCurrency(app, user, input.payload, 'unit_price');
    case 'discount':
      return withCurrency(app, user, input.payload, 'max_discount');
    case 'return_without_receipt':
      return withCurrency(app, user, input.payload, 'max_amount');
    case 'refund_tender':
      return refundBounds(app, user, input.payload);
    default:
      return input.payload;
  }
}

async function exponentOf(app: AppContext, code: string): Promise<number> {
  const currency = await app.db
    .selectFrom('currencies')
    .select(['exponent', 'is_active'])
    .where('code', '=', code)
    .executeTakeFirst();
  if (!currency?.is_active)
    throw new Invalid(`payload.currency_code ${code} is not an active currency.`, [
      { path: 'payload.currency_code', message: 'unknown or inactive currency' },
    ]);
  return currency.exponent;
}

async function withCurrency<F extends string>(
  app: AppContext,
  user: AuthUser,
  payload: { currency_code?: string | undefined } & Record<F, number>,
  amountField: F,
): Promise<Record<string, unknown>> {
  const branch = await app.db
    .selectFrom('branches')
    .select('currency_code')
    .where('id', '=', user.branchId)
    .executeTakeFirst();
  const code =
    payload.currency_code ?? (branch?.currency_code || (await getSettings(app)).base_currency_code);
  toMinor(payload[amountField], await exponentOf(app, code), `payload.${amountField}`);
  return { ...payload, currency_code: code };
}

async function refundBounds(
  app: AppContext,
  user: AuthUser,
  payload: { sale_id: string; max_amount: number },
): Promise<Record<string, unknown>> {
  const sale = await app.db
    .selectFrom('sales')
    .select(['branch_id', 'currency_code'])
    .where('id', '=', payload.sale_id)
    .executeTakeFirst();
  if (sale?.branch_id !== user.branchId)
    throw new Invalid(`payload.sale_id ${payload.sale_id} is not a sale of your branch.`, [
      { path: 'payload.sale_id', message: sale ? 'a sale of another branch' : 'unknown sale' },
    ]);
  toMinor(payload.max_amount, await exponentOf(app, sale.currency_code), 'payload.max_amount');
  return payload;
}

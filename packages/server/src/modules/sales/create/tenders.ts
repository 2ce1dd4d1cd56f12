import type { CreateSaleRequest } from '@pharmacy/contracts';
import { cashConfirmThreshold } from '@pharmacy/contracts/money';
import { Invalid } from '../../../lib/errors';
import { formatMinor, toMinor } from '../../../lib/money';

/**
 * The sale's tenders in minor units, checked against its total: they must cover it, only cash gives change,
 * credit needs a customer. One line of payment_method (or cash) when the request sends no lines.
 */
export function checkTenders(
  body: CreateSaleRequest,
  total: number,
  money: { exp: number; currency: string },
  hasCustomer: boolean,
) {
  const { exp } = money;
  const fmt = (n: number) => formatMinor(n, exp);
  const payments = (
    body.payment_lines ??
    (total > 0 ? [{ method: body.payment_method ?? 'cash', amount: Number(formatMinor(total, exp)) }] : [])
  ).map((p, i) => ({
    method: p.method,
    amount: toMinor(p.amount, exp, `payment_lines.${i}.amount`),
    reference: ('reference' in p && p.reference) || '',
  }));
  const paid = payments.reduce((a, p) => a + p.amount, 0);
  if (paid < total)
    throw new Invalid(
      `Payments of ${fmt(paid)} do not cover the total of ${fmt(total)}.`,
      [{ path: 'payment_lines', message: `paid ${fmt(paid)}, total ${fmt(total)}` }],
      'PAYMENT_SHORT',
    );
  const nonCash = payments.filter((p) => p.method !== 'cash').reduce((a, p) => a + p.amount, 0);
  if (nonCash > total)
    throw new Invalid(
      `Non-cash payments of ${fmt(nonCash)} exceed the total of ${fmt(total)}; only cash gives change.`,
      [{ path: 'payment_lines', message: 'non-cash payments exceed the total' }],
      'OVERPAYMENT',
    );
  const cash = payments.filter((p) => p.method === 'cash').reduce((a, p) => a + p.amount, 0);
  const threshold = cashConfirmThreshold(total, money.currency, exp);
  if (cash > threshold && body.confirm_large_cash !== true)
    throw new Invalid(
      `Cash received of ${fmt(cash)} ${money.currency} is far more than the total of ${fmt(total)}: check the amount (a scanned barcode may have landed in it), or confirm it.`,
      [{ path: 'payment_lines', message: `cash above ${fmt(threshold)} needs confirmation` }],
      'CASH_TENDER_UNCONFIRMED',
    );
  const change = paid - total;
  const credit = payments.filter((p) => p.method === 'credit').reduce((a, p) => a + p.amount, 0);
  if (credit > 0 && !hasCustomer)
    throw new Invalid(
      'A credit payment needs a customer_id.',
      [{ path: 'customer_id', message: 'required for credit' }],
      'CUSTOMER_REQUIRED',
    );
  const methods = [...new Set(payments.map((p) => p.method))];
  const paymentMethod =
    body.payment_method ?? (methods.length === 1 ? methods[0]! : methods.length === 0 ? 'cash' : 'split');

  return { payments, paid, change, credit, paymentMethod };
}

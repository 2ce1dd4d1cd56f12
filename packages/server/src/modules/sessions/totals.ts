import type { Db } from '../../db/connection';
import type { CashSessionsTable } from '../../db/tables/sessions';

/** A session's figures, derived from its sales, returns and payments on account (never running counters). */
export interface SessionTotals {
  count: number;
  revenue: number;
  vat: number;
  /** method -> base minor units (cash net of change) */
  byMethod: Record<string, number>;
  countByMethod: Record<string, number>;
  cashTaken: number;
  change: number;
  cashRefunds: number;
  /** Payments on customers' accounts taken in the session: tender -> count and base minor units. */
  accountPayments: Record<string, { count: number; amount: number }>;
}

const emptyTotals = (): SessionTotals => ({
  count: 0,
  revenue: 0,
  vat: 0,
  byMethod: {},
  countByMethod: {},
  cashTaken: 0,
  change: 0,
  cashRefunds: 0,
  accountPayments: {},
});

/** Figures of several sessions in three grouped queries. */
export async function sessionTotals(db: Db, ids: string[]): Promise<Map<string, SessionTotals>> {
  const out = new Map(ids.map((id) => [id, emptyTotals()]));
  if (ids.length === 0) return out;
  const sales = await db
    .selectFrom('sales')
    .select((eb) => [
      'session_id',
      eb.fn.countAll<number>().as('n'),
      eb.fn.sum<number>('base_total_amount').as('revenue'),
      eb.fn.sum<number>('base_vat_amount').as('vat'),
      eb.fn.sum<number>('base_change_amount').as('change'),
    ])
    .where('session_id', 'in', ids)
    .where('is_deleted', '=', 0)
    .groupBy('session_id')
    .execute();
  for (const r of sales) {
    const t = out.get(r.session_id!)!;
    t.count = Number(r.n);
    t.revenue = Number(r.revenue);
    t.vat = Number(r.vat);
    t.change = Number(r.change);
  }
  const pays = await db
    .selectFrom('sale_payments as p')
    .innerJoin('sales as s', 's.id', 'p.sale_id')
    .select((eb) => [
      's.session_id',
      'p.method',
      eb.fn.sum<number>('p.base_amount').as('amount'),
      eb.fn.count<number>('p.sale_id').distinct().as('n'),
    ])
    .where('s.session_id', 'in', ids)
    .where('s.is_deleted', '=', 0)
    .groupBy(['s.session_id', 'p.method'])
    .execute();
  for (const r of pays) {
    const t = out.get(r.session_id!)!;
    t.byMethod[r.method] = Number(r.amount);
    t.countByMethod[r.method] = Number(r.n);
    if (r.method === 'cash') t.cashTaken = Number(r.amount);
  }
  for (const t of out.values()) if (t.byMethod.cash !== undefined) t.byMethod.cash -= t.change;
  const refunds = await db
    .selectFrom('returns')
    .select((eb) => ['session_id', eb.fn.sum<number>('base_total_amount').as('amount')])
    .where('session_id', 'in', ids)
    .where('refund_method', '=', 'cash')
    .groupBy('session_id')
    .execute();
  for (const r of refunds) out.get(r.session_id!)!.cashRefunds = Number(r.amount);
  const account = await db
    .selectFrom('customer_ledger')
    .select((eb) => [
      'session_id',
      'tender',
      eb.fn.countAll<number>().as('n'),
      eb.fn.sum<number>('amount').as('amount'),
    ])
    .where('session_id', 'in', ids)
    .where('transaction_type', '=', 'PAYMENT')
    .groupBy(['session_id', 'tender'])
    .execute();
  for (const r of account)
    out.get(r.session_id!)!.accountPayments[r.tender ?? 'cash'] = {
      count: Number(r.n),
      amount: Number(r.amount),
    };
  return out;
}

/** Opening float + cash kept from sales (tendered − change) + cash paid on accounts − cash refunds. */
export const expectedCashOf = (s: Pick<CashSessionsTable, 'opening_float'>, t: SessionTotals): number =>
  s.opening_float + t.cashTaken - t.change + (t.accountPayments.cash?.amount ?? 0) - t.cashRefunds;

import {
  BOOK_KINDS,
  type BookFigures,
  type BookKind,
  type BookRecord,
  type DayBook,
} from '@pharmacy/contracts';
import { sql } from 'kysely';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import { resolveWindow } from '../reports/window';

/**
 * One side's books of a branch's local day: the same queries on a till (SQLite) and on central (SQLite or
 * PostgreSQL), so two sides that hold the same records compute the same figures. Each kind lists the records
 * behind its figures, so a difference can be named.
 */
interface Window {
  branchId: string;
  startIso: string;
  endIso: string;
}

type Row = { id: string; label: string | null; amount: number | string; fingerprint?: string | null };

const QUERIES: Record<BookKind, (db: Db, w: Window) => Promise<Row[]>> = {
  sales: (db, w) =>
    db
      .selectFrom('sales')
      .select(['id', 'invoice_number as label', 'base_total_amount as amount'])
      .where('branch_id', '=', w.branchId)
      .where('sold_at', '>=', w.startIso)
      .where('sold_at', '<', w.endIso)
      .where(sql<boolean>`is_deleted = 0`)
      .execute(),
  returns: (db, w) =>
    db
      .selectFrom('returns')
      .select(['id', 'credit_note_number as label', 'base_total_amount as amount'])
      .where('branch_id', '=', w.branchId)
      .where('created_at', '>=', w.startIso)
      .where('created_at', '<', w.endIso)
      .execute(),
  customer_payments: (db, w) =>
    db
      .selectFrom('customer_ledger as l')
      .leftJoin('customers as c', 'c.id', 'l.customer_id')
      .select([
        'l.id',
        sql<string>`${sql.lit('Payment by ')} || coalesce(c.name, ${sql.lit('a customer')})`.as('label'),
        'l.amount',
      ])
      .where('l.branch_id', '=', w.branchId)
      .where('l.transaction_type', '=', 'PAYMENT')
      .where('l.created_at', '>=', w.startIso)
      .where('l.created_at', '<', w.endIso)
      .execute(),
  supplier_payments: (db, w) =>
    db
      .selectFrom('supplier_payments as p')
      .leftJoin('supplier_invoices as i', 'i.id', 'p.invoice_id')
      .select([
        'p.id',
        sql<string>`${sql.lit('Payment of invoice ')} || coalesce(i.invoice_no, ${sql.lit('?')})`.as('label'),
        'p.amount',
      ])
      .where('p.branch_id', '=', w.branchId)
      .where('p.paid_at', '>=', w.startIso)
      .where('p.paid_at', '<', w.endIso)
      .execute(),
  fiscal_documents: async (db, w) => {
    const invoices = db
      .selectFrom('sales')
      .select(['id', 'invoice_number as label', 'base_total_amount as amount', 'fiscal_hash as fingerprint'])
      .where('branch_id', '=', w.branchId)
      .where('sold_at', '>=', w.startIso)
      .where('sold_at', '<', w.endIso);
    const creditNotes = db
      .selectFrom('returns')
      .select([
        'id',
        'credit_note_number as label',
        'base_total_amount as amount',
        'fiscal_hash as fingerprint',
      ])
      .where('branch_id', '=', w.branchId)
      .where('created_at', '>=', w.startIso)
      .where('created_at', '<', w.endIso);
    return invoices.unionAll(creditNotes).execute();
  },
};

function figuresOf(rows: Row[]): BookFigures {
  const records: BookRecord[] = rows
    .map((r) => ({
      id: r.id,
      label: r.label ?? r.id,
      amount: Number(r.amount),
      ...(r.fingerprint ? { fingerprint: r.fingerprint } : {}),
    }))
    .sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : a.id < b.id ? -1 : 1));
  return { count: records.length, total: records.reduce((sum, r) => sum + r.amount, 0), records };
}

/** The branch's local day as a UTC interval (the branch's time zone, as reports use). */
export async function dayWindow(app: AppContext, branchId: string, day: string): Promise<Window> {
  const w = await resolveWindow(app, { from_date: day, to_date: day }, branchId);
  return { branchId, startIso: w.startIso, endIso: w.endIso };
}

export async function dayBook(app: AppContext, branchId: string, day: string): Promise<DayBook> {
  const w = await dayWindow(app, branchId, day);
  const entries = await Promise.all(
    BOOK_KINDS.map(async (kind) => [kind, figuresOf(await QUERIES[kind](app.db, w))] as const),
  );
  return { branch_id: branchId, day, kinds: Object.fromEntries(entries) as DayBook['kinds'] };
}

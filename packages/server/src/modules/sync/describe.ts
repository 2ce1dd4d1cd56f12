import type { ConflictAction } from '@pharmacy/contracts';
import { currencyExponent, formatMinor } from '@pharmacy/contracts/money';
import { labelOf, plainWords } from '@pharmacy/contracts/plain-words';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';

/**
 * A rejected or conflicting change in words, on central and on the till alike: one describer per entity kind
 * turns the payload into a title ("Sale MAIN-3C37-000004, 6.84"), the rejection code and message into a reason
 * ("rejected: the coupon WELCOME10 is not known at head office"), and says which actions make sense.
 */
type Payload = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** An amount in minor units of the payload's currency, as a person reads it (none without a currency). */
function amount(p: Payload, field: string): string | null {
  const minor = num(p[field]);
  const currency = str(p.currency_code);
  if (minor === null || !Number.isSafeInteger(minor) || !currency) return null;
  return formatMinor(minor, currencyExponent(currency));
}

const joined = (...parts: Array<string | null>) => parts.filter((p) => p !== null).join(', ');

/** The title of a record of each kind; others read "<Kind> <short id>". */
const TITLES: Record<string, (p: Payload) => string> = {
  sale: (p) => joined(`Sale ${str(p.invoice_number) ?? ''}`.trim(), amount(p, 'total_amount')),
  return: (p) => joined(`Return ${str(p.credit_note_number) ?? ''}`.trim(), amount(p, 'total_amount')),
  customer_ledger: (p) => `Customer ${str(p.transaction_type)?.toLowerCase() ?? 'account entry'}`,
  supplier_payment: (p) => joined('Supplier payment', str(p.reference)),
  coupon_redemption: () => 'Coupon discount',
  supplier_invoice: (p) => `Supplier invoice ${str(p.invoice_number) ?? ''}`.trim(),
  coupon: (p) => `Coupon ${str(p.code) ?? ''}`.trim(),
  medicine: (p) => `Medicine ${str(p.name) ?? ''}`.trim(),
  exchange_rate: (p) => `Exchange rate ${str(p.currency_code) ?? ''}`.trim(),
  cash_session: (p) => `Cash session opened ${str(p.opened_at)?.slice(0, 16).replace('T', ' ') ?? ''}`.trim(),
  stock_movement: (p) =>
    joined(
      `Stock movement (${labelOf(str(p.type) ?? 'stock').toLowerCase()})`,
      `quantity ${num(p.quantity) ?? '?'}`,
    ),
};

export function describeTitle(entity: string, entityId: string | null, payload: unknown): string {
  const p = payload && typeof payload === 'object' && !Array.isArray(payload) ? (payload as Payload) : null;
  const title = p && TITLES[entity]?.(p);
  if (title) return title;
  return `${labelOf(entity)}${entityId ? ` ${entityId.slice(0, 8)}` : ''}`;
}

/** Codes whose reason is a sentence of its own. */
const REASONS: Record<string, string> = {
  CENTRAL_ONLY: 'head office manages these records; make the change at head office',
  OTHER_BRANCH: 'it belongs to another branch than this till’s',
  IMMUTABLE: 'the record may not be changed once written',
  UNKNOWN_ENTITY: 'head office does not know this kind of record',
  CONFLICT: 'head office changed the same record since this till last saw it',
  MUTATION_ID_REUSED: 'the till sent a different change under the same number',
  PULL_APPLY_FAILED: 'this till could not store head office’s version',
};

export function describeReason(kind: string, code: string, message: string): string {
  const why = (REASONS[code] ?? plainWords(message).replace(/\.$/, '')).replace(/^./, (c) => c.toLowerCase());
  return kind === 'edit_conflict' ? `changed on both sides: ${why}` : `rejected: ${why}`;
}

/** Codes a second attempt cannot cure: the change itself is refused, whatever else exists by then. */
const FINAL = new Set([
  'CENTRAL_ONLY',
  'FORBIDDEN_ROLE',
  'OTHER_BRANCH',
  'IMMUTABLE',
  'UNKNOWN_ENTITY',
  'VALIDATION',
  'ENTITY_ID_MISMATCH',
  'MUTATION_ID_REUSED',
]);

/** What a manager may do about an open item on this side. */
export function describeActions(
  side: 'central' | 'till',
  c: {
    kind: string;
    code: string;
    status: string;
    client_mutation_id: string | null;
    device_id: string | null;
  },
): ConflictAction[] {
  if (c.status !== 'open') return [];
  if (c.kind === 'edit_conflict') return ['keep_central', 'keep_till'];
  // A pulled change the till could not store, or a change central refuses outright: dismiss with a reason only.
  const retriable =
    !FINAL.has(c.code) && (side === 'central' ? c.device_id !== null : c.client_mutation_id !== null);
  return retriable ? ['retry', 'dismiss'] : ['dismiss'];
}

/** The records a payload names by id, the table holding each, and what a person calls it. */
const REFERENCES: Record<string, { table: string; noun: string; label?: string[] }> = {
  coupon_id: { table: 'coupons', noun: 'coupon', label: ['coupon_code'] },
  customer_id: { table: 'customers', noun: 'customer', label: ['customer_name'] },
  session_id: { table: 'cash_sessions', noun: 'cash session' },
  medicine_id: { table: 'medicines', noun: 'medicine', label: ['medicine_name', 'name'] },
  batch_id: { table: 'batches', noun: 'batch', label: ['batch_number'] },
  supplier_id: { table: 'suppliers', noun: 'supplier', label: ['supplier_name'] },
  invoice_id: { table: 'supplier_invoices', noun: 'supplier invoice' },
  sale_id: { table: 'sales', noun: 'sale', label: ['invoice_number'] },
  prescription_id: { table: 'prescriptions', noun: 'prescription' },
  approval_id: { table: 'approvals', noun: 'approval' },
};

/** The payload and its nested rows (a sale's lines and payments), one level deep. */
function rowsOf(p: Payload): Payload[] {
  const nested = Object.values(p).flatMap((v) =>
    Array.isArray(v) ? v.filter((x): x is Payload => !!x && typeof x === 'object' && !Array.isArray(x)) : [],
  );
  return [p, ...nested];
}

/**
 * Why a pushed change broke a database rule, in words where the rule is one a person can act on, or null: a
 * sale whose invoice counter (ICV) another sale of the same till already holds here (a till restored from an
 * old backup, or a counter bug: the fiscal chain must never have two documents under one counter), else the
 * first record it names that this database does not hold.
 */
export async function brokenRule(
  db: Db,
  entity: string,
  payload: unknown,
  where: string,
): Promise<string | null> {
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return null;
  const p = payload as Payload;
  return (entity === 'sale' && (await counterTaken(db, p, where))) || missingReference(db, p, where);
}

async function counterTaken(db: Db, p: Payload, where: string): Promise<string | null> {
  const [device, id, icv] = [str(p.device_id), str(p.id), p.icv];
  if (!device || !id || typeof icv !== 'number') return null;
  const { rows } = await sql<{ invoice_number: string }>`SELECT invoice_number FROM sales
    WHERE device_id = ${device} AND icv = ${icv} AND id <> ${id}`.execute(db);
  const holder = rows[0]?.invoice_number;
  return holder ? `The till's invoice counter ${icv} is already sale ${holder}'s at ${where}.` : null;
}

/**
 * The first record a refused payload names that this database does not hold, in words ("The coupon WELCOME10
 * is not known at head office."), or null. Asked only after a change broke a database rule. The payload's own
 * record is not a reference: a sale's lines name their sale, which a refused insert never stored (the rule it
 * broke is another, such as a till's fiscal counter used twice).
 */
async function missingReference(db: Db, payload: Payload, where: string): Promise<string | null> {
  const own = str(payload.id);
  for (const row of rowsOf(payload)) {
    for (const [field, ref] of Object.entries(REFERENCES)) {
      const id = str(row[field]);
      if (!id || id === own) continue;
      const found = await sql`SELECT 1 FROM ${sql.table(ref.table)} WHERE id = ${id}`.execute(db);
      if (found.rows.length > 0) continue;
      const label = ref.label?.map((f) => str(row[f])).find((l) => l !== null);
      return `The ${ref.noun} ${label ?? id.slice(0, 8)} is not known at ${where}.`;
    }
  }
  return null;
}

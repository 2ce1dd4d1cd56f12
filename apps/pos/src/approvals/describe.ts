/** What an approval asks for, in words, from its kind and bounded payload (pure; names looked up by the caller). */

export const APPROVAL_KIND_LABELS: Record<string, string> = {
  price_override: 'Price below catalogue',
  discount: 'Discount',
  return_without_receipt: 'Return without receipt',
  void: 'Void a sale',
  stock_variance: 'Stock count variance',
  refund_tender: 'Refund to another tender',
};

export interface Lookups {
  /** A medicine's name by id, once known. */
  medicine: (id: string) => string | undefined;
  /** A sale's invoice number by id, once known. */
  sale: (id: string) => string | undefined;
  /** An amount of a currency (undefined: the base currency) in its own decimals. */
  money: (value: string | number, currency: string | undefined) => string;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const amount = (v: unknown): string | number => (typeof v === 'number' || typeof v === 'string' ? v : '');

export function describeApproval(kind: string, payload: Record<string, unknown>, l: Lookups): string {
  const cur = str(payload.currency_code);
  const money = (v: unknown) => `${l.money(amount(v), cur)}${cur ? ` ${cur}` : ''}`;
  const medicine = (id: unknown) => l.medicine(String(id)) ?? 'a medicine';
  const sale = (id: unknown) => l.sale(String(id)) ?? `sale ${String(id).slice(-8)}`;
  switch (kind) {
    case 'discount':
      return payload.medicine_id
        ? `A discount of at most ${money(payload.max_discount)} on ${payload.quantity} × ${medicine(payload.medicine_id)}`
        : `A discount of at most ${money(payload.max_discount)} on the whole sale`;
    case 'price_override':
      return `${payload.quantity} × ${medicine(payload.medicine_id)} at no less than ${money(payload.unit_price)} each`;
    case 'return_without_receipt':
      return `Take back ${payload.quantity} × ${medicine(payload.medicine_id)}, refunding at most ${money(payload.max_amount)}`;
    case 'void':
      return `Void ${sale(payload.sale_id)}`;
    case 'stock_variance':
      return `A count of batch …${String(payload.batch_id).slice(-8)} differing by up to ${signed(payload.variance)} units`;
    case 'refund_tender':
      return `Refund at most ${money(payload.max_amount)} of ${sale(payload.sale_id)} paid by ${tender(payload.from_method)} to ${tender(payload.to_method)}`;
    default:
      return JSON.stringify(payload);
  }
}

function signed(v: unknown): string {
  const n = Number(v);
  return n > 0 ? `+${n}` : String(n);
}

function tender(v: unknown): string {
  return String(v).replaceAll('_', ' ');
}

/** Ids of the medicines and sales the approvals name, to look their names up once. */
export function namedIds(approvals: ReadonlyArray<{ payload: Record<string, unknown> }>) {
  const medicines = new Set<string>();
  const sales = new Set<string>();
  for (const a of approvals) {
    const m = str(a.payload.medicine_id);
    const s = str(a.payload.sale_id);
    if (m) medicines.add(m);
    if (s) sales.add(s);
  }
  return { medicines: [...medicines], sales: [...sales] };
}

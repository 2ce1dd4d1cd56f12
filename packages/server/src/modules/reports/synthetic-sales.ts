import { createHash } from 'node:crypto';
import type { Sqlite } from '../../db/connection';
import { newId } from '../../lib/ids';
import { mulDivRound } from '../../lib/money';

/**
 * Writes finished sales (with lines and payments) straight into the selling tables with prepared statements:
 * report tests and the sales generator (bench/generate-sales.ts) use it to lay down history quickly. It
 * writes what POST /sales would store for a sale in the base currency with VAT-inclusive prices, without the
 * stock movements, fiscal chain or change log (history, not live selling).
 */
export interface SyntheticLine {
  medicineId: string;
  name: string;
  quantity: number;
  /** Minor units, VAT included. */
  unitPrice: number;
  /** Percent, e.g. 18 or 0. */
  vatRate: number;
  vatCategory: string;
  /** Minor units per unit (the FEFO batch cost). */
  unitCost: number;
}

export interface SyntheticSale {
  id?: string;
  branchId: string;
  userId: string;
  deviceId: string;
  icv: number;
  soldAt: string;
  currency: string;
  lines: SyntheticLine[];
  /** Default: one cash payment of the total. Cash may exceed the total (change is given back). */
  payments?: Array<{ method: string; amount: number }>;
}

const SALE_SQL = `INSERT INTO sales (id, branch_id, user_id, session_id, device_id, invoice_number, uuid, icv,
  client_mutation_id, payload_hash, sync_status, subtotal_amount, vat_amount, total_amount, paid_amount, change_amount,
  currency_code, base_currency_code, fx_rate_to_base, base_total_amount, base_vat_amount, base_change_amount,
  vat_breakdown, prices_include_vat, payment_method, fiscal_xml, fiscal_hash, previous_hash, sold_at, created_at)
  VALUES (?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, 'synced', ?, ?, ?, ?, ?, ?, ?, '1', ?, ?, ?, ?, 1, ?, '', ?, '', ?, ?)`;
const LINE_SQL = `INSERT INTO sale_lines (id, sale_id, line_no, medicine_id, medicine_name, quantity, unit_price,
  catalogue_price, net_amount, vat_amount, line_total, vat_rate, vat_category, cost_amount, batches)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '[]')`;
const PAYMENT_SQL = `INSERT INTO sale_payments (id, sale_id, line_no, method, amount, base_amount, reference)
  VALUES (?, ?, ?, ?, ?, ?, '')`;

export function saleWriter(sqlite: Sqlite) {
  const sale = sqlite.prepare(SALE_SQL);
  const line = sqlite.prepare(LINE_SQL);
  const payment = sqlite.prepare(PAYMENT_SQL);
  return (s: SyntheticSale): string => {
    const id = s.id ?? newId();
    let total = 0;
    let vat = 0;
    const byRate = new Map<number, { rate: string; taxable: number; vat: number }>();
    const rows = s.lines.map((l, i) => {
      const gross = l.quantity * l.unitPrice;
      const lineVat = mulDivRound(gross, BigInt(l.vatRate), BigInt(100 + l.vatRate));
      total += gross;
      vat += lineVat;
      const b = byRate.get(l.vatRate) ?? { rate: String(l.vatRate), taxable: 0, vat: 0 };
      b.taxable += gross - lineVat;
      b.vat += lineVat;
      byRate.set(l.vatRate, b);
      return [
        newId(),
        id,
        i + 1,
        l.medicineId,
        l.name,
        l.quantity,
        l.unitPrice,
        l.unitPrice,
        gross - lineVat,
        lineVat,
        gross,
        String(l.vatRate),
        l.vatCategory,
        l.quantity * l.unitCost,
      ];
    });
    const payments = (s.payments ?? [{ method: 'cash', amount: total }]).filter((p) => p.amount > 0);
    const paid = payments.reduce((a, p) => a + p.amount, 0);
    const change = Math.max(0, paid - total);
    const invoice = `INV-${s.deviceId.slice(0, 8)}-${s.icv}`;
    const hash = createHash('sha256').update(id).digest('hex');
    sale.run(
      id,
      s.branchId,
      s.userId,
      s.deviceId,
      invoice,
      newId(),
      s.icv,
      newId(),
      hash,
      total - vat,
      vat,
      total,
      paid,
      change,
      s.currency,
      s.currency,
      total,
      vat,
      change,
      JSON.stringify([...byRate.values()]),
      payments.length > 1 ? 'split' : (payments[0]?.method ?? 'cash'),
      hash,
      s.soldAt,
      s.soldAt,
    );
    for (const r of rows) line.run(...r);
    payments.forEach((p, i) => {
      payment.run(newId(), id, i + 1, p.method, p.amount, p.amount);
    });
    return id;
  };
}

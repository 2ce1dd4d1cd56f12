import type { SaleDetail } from '@pharmacy/contracts';
import { currencyExponent, formatMoney as formatIn } from '@pharmacy/contracts/money';

const WIDTH = 42;
const METHOD_LABELS: Record<string, string> = {
  cash: 'Cash',
  card: 'Card',
  mobile_money: 'Mobile money',
  bank_transfer: 'Bank transfer',
  credit: 'Customer credit',
  voucher: 'Voucher',
  insurance: 'Insurance',
};

export function methodLabel(method: string): string {
  return METHOD_LABELS[method] ?? method;
}

function row(left: string, right: string): string {
  const space = Math.max(1, WIDTH - left.length - right.length);
  return left + ' '.repeat(space) + right;
}

function center(text: string): string {
  return ' '.repeat(Math.max(0, Math.floor((WIDTH - text.length) / 2))) + text;
}

/** The receipt as plain text, built from the server's sale: what the printer will print, for the screen. */
export function buildReceipt(sale: SaleDetail, exponent = currencyExponent(sale.currency_code)): string {
  const formatMoney = (value: string | number) => formatIn(value, exponent);
  const out: string[] = [];
  const rule = '-'.repeat(WIDTH);
  const cur = sale.currency_code;
  for (const line of [sale.organization_name, sale.branch_name, sale.branch_address].filter(Boolean)) {
    out.push(center(line));
  }
  if (sale.organization_tin) out.push(center(`TIN ${sale.organization_tin}`));
  if (sale.organization_vat_number) out.push(center(`VAT ${sale.organization_vat_number}`));
  if (sale.receipt_header) out.push(...sale.receipt_header.split('\n').map(center));
  out.push(rule);
  out.push(`Invoice ${sale.invoice_number}`);
  out.push(`Date    ${new Date(sale.sold_at).toLocaleString()}`);
  out.push(`Served  ${sale.pharmacist_name}`);
  if (sale.customer_name) out.push(`Customer ${sale.customer_name}`);
  out.push(rule);
  for (const item of sale.items) {
    out.push(item.medicine_name.slice(0, WIDTH));
    out.push(
      row(
        `  ${item.quantity} x ${formatMoney(item.unit_price)}  VAT ${item.vat_rate}%`,
        formatMoney(item.line_total),
      ),
    );
    if (Number(item.discount) > 0) out.push(row('  Discount', `-${formatMoney(item.discount)}`));
  }
  out.push(rule);
  out.push(row('Subtotal (excl. VAT)', formatMoney(sale.subtotal_amount)));
  for (const v of sale.vat_breakdown) {
    out.push(row(`VAT ${v.rate}% on ${formatMoney(v.taxable_amount)}`, formatMoney(v.vat_amount)));
  }
  out.push(row(`TOTAL ${cur}`, formatMoney(sale.total_amount)));
  out.push(rule);
  for (const p of sale.payment_lines) out.push(row(methodLabel(p.method), formatMoney(p.amount)));
  out.push(row('Change', formatMoney(sale.change_amount)));
  if (sale.receipt_footer) {
    out.push(rule);
    out.push(...sale.receipt_footer.split('\n').map(center));
  }
  if (sale.return_policy) out.push(...sale.return_policy.split('\n').map(center));
  return out.join('\n');
}

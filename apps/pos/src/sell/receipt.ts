/**
 * Payment method names as the till shows them. The receipt itself is the server's one receipt model
 * (`api.sales.receipt`), so the screen shows what the printer prints.
 */
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

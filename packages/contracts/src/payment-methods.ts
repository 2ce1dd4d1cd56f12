/** The tenders a sale may be paid with, and what the till and its printed documents call them. */
export const SALE_PAYMENT_METHODS = [
  'cash',
  'card',
  'mobile_money',
  'bank_transfer',
  'credit',
  'voucher',
  'insurance',
] as const;
export type SalePaymentMethodName = (typeof SALE_PAYMENT_METHODS)[number];

/** English names, on screen and on paper (a printer's label overrides may rename them per language). */
export const PAYMENT_METHOD_LABELS: Record<SalePaymentMethodName, string> = {
  cash: 'Cash',
  card: 'Card',
  mobile_money: 'Mobile money',
  bank_transfer: 'Bank transfer',
  credit: 'Customer credit',
  voucher: 'Voucher',
  insurance: 'Insurance',
};

/** A tender's name; one this release does not know keeps its code, words spaced ("gift_card" → "gift card"). */
export function paymentMethodName(
  method: string,
  labels: Record<string, string> = PAYMENT_METHOD_LABELS,
): string {
  return labels[method] ?? method.replaceAll('_', ' ');
}

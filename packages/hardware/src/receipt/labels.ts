import { PAYMENT_METHOD_LABELS, paymentMethodName } from '@pharmacy/contracts/payment-methods';
import type { DocumentLabels } from './document-types';

export const ENGLISH_LABELS: DocumentLabels = {
  invoice: 'Invoice',
  creditNote: 'Credit note',
  originalInvoice: 'Original invoice',
  date: 'Date',
  cashier: 'Cashier',
  customer: 'Customer',
  subtotal: 'Subtotal',
  discounts: 'Discounts',
  lineDiscount: 'Discount',
  orderDiscount: 'Discount',
  coupon: 'Coupon',
  vat: 'VAT',
  vatIncluded: 'Incl. VAT',
  copy: 'COPY',
  taxable: 'Taxable',
  total: 'TOTAL',
  totalInBase: 'Total in',
  fxRate: 'Rate',
  change: 'Change',
  refund: 'Refund',
  reason: 'Reason',
  vatNumber: 'VAT No',
  tin: 'TIN',
  phone: 'Tel',
  zReport: 'Z REPORT',
  branch: 'Branch',
  opened: 'Opened',
  closed: 'Closed',
  sales: 'Sales',
  returns: 'Returns',
  grossSales: 'Gross sales',
  netSales: 'Net sales',
  openingFloat: 'Opening float',
  expectedCash: 'Expected cash',
  countedCash: 'Counted cash',
  variance: 'Variance',
  tendersByCurrency: 'Tenders by currency',
  accountPayments: 'On account',
  paymentMethods: PAYMENT_METHOD_LABELS,
};

export type LabelOverrides = Partial<Omit<DocumentLabels, 'paymentMethods'>> & {
  paymentMethods?: Record<string, string>;
};

export function resolveLabels(overrides: LabelOverrides = {}): DocumentLabels {
  return {
    ...ENGLISH_LABELS,
    ...overrides,
    paymentMethods: { ...ENGLISH_LABELS.paymentMethods, ...overrides.paymentMethods },
  };
}

export function paymentMethodLabel(labels: DocumentLabels, method: string): string {
  return paymentMethodName(method, labels.paymentMethods);
}

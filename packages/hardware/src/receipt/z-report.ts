import { addDecimals, normaliseDecimal, subtractDecimals } from '@pharmacy/contracts/money';
import type { ZReport } from './document-types';
import { paymentMethodLabel, resolveLabels } from './labels';
import { formatLocalDateTime } from './local-time';
import { type OrganisationFields, buildOrganisationHeader, present } from './organisation-input';
import { type DocumentBuildOptions, moneyScaleOf } from './sale-receipt';
import { type VatBreakdownInput, buildVatBreakdown } from './sale-lines';

export interface PaymentTotalInput {
  method: string;
  count: number;
  amount: string;
}

/** The server's shift-close summary. Optional figures are derived when absent. */
export interface ZReportInput extends OrganisationFields {
  z_number: string | number;
  cashier_name?: string | null;
  opened_at: string;
  closed_at: string;
  currency_code: string;
  sale_count: number;
  return_count: number;
  payment_totals: PaymentTotalInput[];
  vat_breakdown: VatBreakdownInput[];
  gross_sales: string;
  discount_total: string;
  returns_total: string;
  /** Default: gross - discounts - returns. */
  net_sales?: string | null;
  opening_float: string;
  /** Default: opening float + cash takings - cash refunds. */
  expected_cash?: string | null;
  cash_refunds?: string | null;
  counted_cash: string;
  /** Default: counted - expected. */
  variance?: string | null;
  /** Payments on customers' accounts in the session, by tender (base currency). */
  account_payments?: PaymentTotalInput[];
  /** Expected cash per currency; printed when the drawer holds more than the base currency. */
  cash_by_currency?: Array<{ currency_code: string; rate: string; expected: string; expected_base: string }>;
  /** Per currency, rate and tender (the session's tenders_by_currency); amounts in each currency's decimals. */
  tenders_by_currency?: Array<{
    currency_code: string;
    method: string;
    rate: string;
    count: number;
    amount: string;
    base_amount: string;
  }>;
  /** The close's count per currency (the session's counted_by_currency); null or absent while open. */
  counted_by_currency?: Array<{
    currency_code: string;
    rate: string;
    expected: string;
    counted: string;
    variance: string;
    expected_base: string;
    counted_base: string;
    variance_base: string;
  }> | null;
}

export function buildZReport(input: ZReportInput, options: Omit<DocumentBuildOptions, 'qrFormat'>): ZReport {
  const labels = resolveLabels(options.labels);
  const scale = moneyScaleOf(input.currency_code, options);
  const money = (amount: string) => normaliseDecimal(amount, scale);
  const cashTaken = input.payment_totals.filter((row) => row.method === 'cash').map((row) => row.amount);
  const expectedCash = money(
    present(input.expected_cash) ??
      subtractDecimals(addDecimals([input.opening_float, ...cashTaken]), present(input.cash_refunds) ?? '0'),
  );
  const countedCash = money(input.counted_cash);
  const gross = money(input.gross_sales);
  const discountTotal = money(input.discount_total);
  const returnsTotal = money(input.returns_total);
  return {
    kind: 'z-report',
    labels,
    header: buildOrganisationHeader(input),
    zNumber: String(input.z_number),
    branchName: present(input.branch_name),
    cashierName: present(input.cashier_name),
    openedAt: input.opened_at,
    openedAtLocal: formatLocalDateTime(input.opened_at, options.timeZone),
    closedAt: input.closed_at,
    closedAtLocal: formatLocalDateTime(input.closed_at, options.timeZone),
    currency: input.currency_code,
    saleCount: input.sale_count,
    returnCount: input.return_count,
    byPaymentMethod: input.payment_totals.map((row) => ({
      method: row.method,
      label: paymentMethodLabel(labels, row.method),
      count: row.count,
      amount: money(row.amount),
    })),
    vatBreakdown: buildVatBreakdown(input.vat_breakdown, scale),
    grossSales: gross,
    discountTotal,
    returnsTotal,
    netSales: money(
      present(input.net_sales) ?? subtractDecimals(subtractDecimals(gross, discountTotal), returnsTotal),
    ),
    openingFloat: money(input.opening_float),
    expectedCash,
    accountPayments: (input.account_payments ?? []).map((row) => ({
      method: row.method,
      label: paymentMethodLabel(labels, row.method),
      count: row.count,
      amount: money(row.amount),
    })),
    cashByCurrency: (input.cash_by_currency ?? []).map((row) => ({
      currency: row.currency_code,
      rate: row.rate,
      // Already in the currency's own decimals (the server formats it from its currency registry).
      expected: row.expected,
      expectedBase: money(row.expected_base),
    })),
    tendersByCurrency: (input.tenders_by_currency ?? []).map((row) => ({
      currency: row.currency_code,
      method: row.method,
      label: paymentMethodLabel(labels, row.method),
      rate: row.rate,
      count: row.count,
      // In the tender's currency, already in its own decimals (the server's currency registry).
      amount: row.amount,
      amountBase: money(row.base_amount),
    })),
    countedByCurrency:
      input.counted_by_currency?.map((row) => ({
        currency: row.currency_code,
        rate: row.rate,
        expected: row.expected,
        counted: row.counted,
        variance: row.variance,
        expectedBase: money(row.expected_base),
        countedBase: money(row.counted_base),
        varianceBase: money(row.variance_base),
      })) ?? null,
    countedCash,
    variance: money(present(input.variance) ?? subtractDecimals(countedCash, expectedCash)),
  };
}

import {
  addDecimals,
  compareDecimals,
  currencyExponent,
  normaliseDecimal,
  subtractDecimals,
} from '@pharmacy/contracts/money';
import type { AmountRow, PaymentRow, SaleReceipt } from './document-types';
import { type FiscalQrFormat, encodeFiscalQr } from './fiscal-qr';
import { type LabelOverrides, paymentMethodLabel, resolveLabels } from './labels';
import { formatLocalDateTime } from './local-time';
import { type OrganisationFields, buildOrganisationHeader, present } from './organisation-input';
import {
  type SaleItemInput,
  type VatBreakdownInput,
  buildReceiptLines,
  buildVatBreakdown,
  nonZero,
} from './sale-lines';

export interface PaymentLineInput {
  method: string;
  amount: string;
}

/** The server's sale JSON (amounts as decimal strings). */
export interface SaleReceiptInput extends OrganisationFields {
  invoice_number: string;
  sold_at: string;
  uuid?: string | null;
  icv?: string | number | null;
  currency_code: string;
  base_currency_code?: string | null;
  fx_rate_to_base?: string | null;
  base_total_amount?: string | null;
  subtotal_amount: string;
  vat_amount: string;
  total_amount: string;
  global_discount?: string | null;
  coupon_discount?: string | null;
  /** The coupon's code, printed beside its discount. */
  coupon_code?: string | null;
  vat_breakdown: VatBreakdownInput[];
  payment_lines: PaymentLineInput[];
  /** The change in the sale's currency; when absent, what was tendered beyond the total. */
  change_amount?: string | null;
  /** The currency the change was given in (the sale record's); default the sale's currency. */
  change_currency_code?: string | null;
  /** The change as given, in change_currency_code (the sale record's change_given). */
  change_given?: string | null;
  pharmacist_name?: string | null;
  customer_display_name?: string | null;
  receipt_footer?: string | null;
  return_policy?: string | null;
  fiscal_hash?: string | null;
  items: SaleItemInput[];
}

export interface DocumentBuildOptions {
  /** IANA zone of the branch, e.g. "Africa/Nairobi"; timestamps print in it. */
  timeZone: string;
  labels?: LabelOverrides;
  /** Fiscal QR layout; "none" leaves the QR off. Defaults to ZATCA TLV. */
  qrFormat?: FiscalQrFormat | 'none';
  /**
   * Decimals of the document's currency and of the base currency, as the organisation's currency table holds
   * them (the server passes its database's); the ISO 4217 table only when absent.
   */
  currencyExponent?: number;
  baseCurrencyExponent?: number;
  /** Decimals of the currency the change was given in; default the sale's or the base currency's, else ISO 4217. */
  changeCurrencyExponent?: number;
  /** A reprint or an extra copy: the document prints "COPY". */
  copy?: boolean;
}

/** The document currency's decimals: the caller's (the database's), else ISO 4217. */
export const moneyScaleOf = (currency: string, options: DocumentBuildOptions): number =>
  options.currencyExponent ?? currencyExponent(currency);

export function buildSaleReceipt(input: SaleReceiptInput, options: DocumentBuildOptions): SaleReceipt {
  const labels = resolveLabels(options.labels);
  const scale = moneyScaleOf(input.currency_code, options);
  const money = (amount: string) => normaliseDecimal(amount, scale);
  const lines = buildReceiptLines(input.items, scale);

  const discounts: AmountRow[] = [];
  const globalDiscount = present(input.global_discount);
  if (globalDiscount && nonZero(globalDiscount))
    discounts.push({ label: labels.orderDiscount, amount: money(globalDiscount) });
  const coupon = present(input.coupon_discount);
  if (coupon && nonZero(coupon)) {
    const code = present(input.coupon_code);
    discounts.push({ label: code ? `${labels.coupon} ${code}` : labels.coupon, amount: money(coupon) });
  }
  const subtotal = addDecimals(
    lines.map((line) => line.lineTotal),
    scale,
  );
  const discountTotal = addDecimals(
    discounts.map((row) => row.amount),
    scale,
  );

  const payments: PaymentRow[] = input.payment_lines.map((line) => ({
    method: line.method,
    label: paymentMethodLabel(labels, line.method),
    amount: money(line.amount),
  }));
  const total = money(input.total_amount);
  const vatTotal = money(input.vat_amount);
  const sellerVatNumber = present(input.branch_vat_number) ?? present(input.organization_vat_number);

  return {
    kind: 'sale',
    labels,
    header: buildOrganisationHeader(input),
    invoiceNumber: input.invoice_number,
    uuid: present(input.uuid),
    icv: input.icv === undefined || input.icv === null ? undefined : String(input.icv),
    issuedAt: input.sold_at,
    issuedAtLocal: formatLocalDateTime(input.sold_at, options.timeZone),
    cashierName: present(input.pharmacist_name),
    customerName: present(input.customer_display_name),
    currency: input.currency_code,
    copy: options.copy === true,
    lines,
    vatBreakdown: buildVatBreakdown(input.vat_breakdown, scale),
    subtotal,
    discounts,
    discountTotal,
    vatTotal,
    vatIncluded: compareDecimals(subtractDecimals(subtotal, discountTotal, scale), total) === 0,
    total,
    baseCurrency: baseCurrencyTotal(input, options),
    payments,
    ...changeOf(input, options, payments, total, scale),
    footer: present(input.receipt_footer),
    returnPolicy: present(input.return_policy),
    qrPayload:
      options.qrFormat === 'none'
        ? undefined
        : encodeFiscalQr(
            {
              sellerName: present(input.organization_legal_name) ?? input.organization_name,
              vatNumber: sellerVatNumber ?? '',
              timestamp: input.sold_at,
              total,
              vatTotal,
              invoiceHash: present(input.fiscal_hash),
            },
            options.qrFormat,
          ),
  };
}

function baseCurrencyTotal(
  input: SaleReceiptInput,
  options: DocumentBuildOptions,
): SaleReceipt['baseCurrency'] {
  const baseCurrency = present(input.base_currency_code);
  const baseTotal = present(input.base_total_amount);
  if (!baseCurrency || !baseTotal || baseCurrency === input.currency_code) return undefined;
  return {
    currency: baseCurrency,
    total: normaliseDecimal(baseTotal, options.baseCurrencyExponent ?? currencyExponent(baseCurrency)),
    fxRate: present(input.fx_rate_to_base) ?? '',
  };
}

type ChangeFields = Pick<SaleReceipt, 'change' | 'changeCurrency' | 'changeRate' | 'changeInSaleCurrency'>;

/**
 * The change as the sale record gives it: in the currency it was handed over in (the sale's when the drawer
 * holds it, else the base currency), with that currency's decimals, and the rate whenever a currency other than
 * the base one is involved, so the paper says what the cashier handed over and at which rate.
 */
function changeOf(
  input: SaleReceiptInput,
  options: DocumentBuildOptions,
  payments: PaymentRow[],
  total: string,
  scale: number,
): ChangeFields {
  const saleCurrency = input.currency_code;
  const base = present(input.base_currency_code);
  const changeCurrency = present(input.change_currency_code) ?? saleCurrency;
  const inSale = changeDue(input, payments, total, scale);
  const given = present(input.change_given);
  // Without the amount as given, only the sale-currency change is known: it prints as that.
  if (changeCurrency === saleCurrency || !given) {
    const change = given ? normaliseDecimal(given, scale) : inSale;
    return { change, changeCurrency: saleCurrency, changeRate: foreignRate(input, base) };
  }
  const changeScale =
    options.changeCurrencyExponent ??
    (changeCurrency === base ? options.baseCurrencyExponent : undefined) ??
    currencyExponent(changeCurrency);
  return {
    change: normaliseDecimal(given, changeScale),
    changeCurrency,
    changeRate: foreignRate(input, base),
    changeInSaleCurrency: inSale,
  };
}

/** "1 EUR = 1.25 USD" for a sale in a currency other than the base one; undefined otherwise. */
function foreignRate(input: SaleReceiptInput, base: string | undefined): string | undefined {
  const rate = present(input.fx_rate_to_base);
  if (!base || !rate || base === input.currency_code) return undefined;
  return `1 ${input.currency_code} = ${rate} ${base}`;
}

function changeDue(input: SaleReceiptInput, payments: PaymentRow[], total: string, scale: number): string {
  const given = present(input.change_amount);
  if (given) return normaliseDecimal(given, scale);
  const tendered = addDecimals(
    payments.map((p) => p.amount),
    scale,
  );
  const over = subtractDecimals(tendered, total, scale);
  return compareDecimals(over, '0') > 0 ? over : normaliseDecimal('0', scale);
}

/** Plain-data documents the renderers print. Money is always a decimal string such as "12.50". */

export interface OrganisationHeader {
  name: string;
  legalName?: string;
  address?: string;
  phone?: string;
  tin?: string;
  vatNumber?: string;
  branchName?: string;
  branchAddress?: string;
  branchVatNumber?: string;
  /** Free text configured per organisation, printed under the header. */
  headerText?: string;
}

export interface ReceiptLine {
  name: string;
  quantity: string;
  unitPrice: string;
  /** quantity x unit price, before any discount. */
  amount: string;
  /** The line's own discount, "0.00" when none. A basket discount (global, coupon) prints once, below. */
  discount: string;
  /** amount - discount: the lines' totals add up to the subtotal. */
  lineTotal: string;
  /** The line's VAT rate in percent, e.g. "18" or "5.5"; "" when unknown. */
  vatRate: string;
}

export interface VatBreakdownRow {
  /** A letter the Z-report may print beside the rate. */
  category?: string;
  /** Percent, e.g. "15" or "5.5". */
  rate: string;
  taxableAmount: string;
  vatAmount: string;
}

export interface AmountRow {
  label: string;
  amount: string;
}

export interface PaymentRow extends AmountRow {
  method: string;
}

export interface BaseCurrencyTotal {
  currency: string;
  total: string;
  /** Multiply a sale-currency amount by this to get base currency. */
  fxRate: string;
}

/** Words printed on documents; replace them for the organisation's language. */
export interface DocumentLabels {
  invoice: string;
  creditNote: string;
  originalInvoice: string;
  date: string;
  cashier: string;
  customer: string;
  subtotal: string;
  discounts: string;
  lineDiscount: string;
  orderDiscount: string;
  coupon: string;
  vat: string;
  /** "of which VAT": the VAT already inside prices that include it. */
  vatIncluded: string;
  /** Printed at the top and bottom of every reprint and every extra copy. */
  copy: string;
  taxable: string;
  total: string;
  totalInBase: string;
  fxRate: string;
  change: string;
  refund: string;
  reason: string;
  vatNumber: string;
  tin: string;
  phone: string;
  zReport: string;
  branch: string;
  opened: string;
  closed: string;
  sales: string;
  returns: string;
  grossSales: string;
  netSales: string;
  openingFloat: string;
  expectedCash: string;
  countedCash: string;
  variance: string;
  /** Heading of the Z-report's tenders per currency. */
  tendersByCurrency: string;
  /** Heading of the Z-report's payments received on customers' accounts. */
  accountPayments: string;
  paymentMethods: Record<string, string>;
}

export interface SaleReceipt {
  kind: 'sale';
  labels: DocumentLabels;
  header: OrganisationHeader;
  invoiceNumber: string;
  uuid?: string;
  icv?: string;
  issuedAt: string;
  /** issuedAt formatted in the branch time zone. */
  issuedAtLocal: string;
  cashierName?: string;
  customerName?: string;
  currency: string;
  /** A reprint or an extra copy: printed "COPY". */
  copy?: boolean;
  lines: ReceiptLine[];
  vatBreakdown: VatBreakdownRow[];
  /** The lines' totals added up (after each line's own discount). */
  subtotal: string;
  /** Basket discounts, each once and named (the cashier's discount, the coupon with its code). */
  discounts: AmountRow[];
  discountTotal: string;
  vatTotal: string;
  /** True when prices include VAT (subtotal - discounts = total): VAT prints as "of which", not added. */
  vatIncluded: boolean;
  total: string;
  baseCurrency?: BaseCurrencyTotal;
  payments: PaymentRow[];
  /** The change given, in changeCurrency with that currency's decimals (the sale record's change_given). */
  change: string;
  /** The currency the change was given in: the sale's when the drawer holds it, else the base currency. */
  changeCurrency: string;
  /**
   * The rate behind change given in a currency other than the base one, or other than the sale's: e.g.
   * "1 EUR = 1.25 USD". Absent when sale, change and base are one currency.
   */
  changeRate?: string;
  /** The change in the sale's currency, when it was given in another (the base currency). */
  changeInSaleCurrency?: string;
  footer?: string;
  returnPolicy?: string;
  qrPayload?: string;
}

/** Kept as the name the rest of the product uses for a sale receipt. */
export type ReceiptModel = SaleReceipt;

export interface CreditNote {
  kind: 'credit-note';
  labels: DocumentLabels;
  header: OrganisationHeader;
  creditNoteNumber: string;
  originalInvoiceNumber: string;
  uuid?: string;
  issuedAt: string;
  issuedAtLocal: string;
  cashierName?: string;
  customerName?: string;
  reason?: string;
  currency: string;
  /** A reprint or an extra copy: printed "COPY". */
  copy?: boolean;
  lines: ReceiptLine[];
  vatBreakdown: VatBreakdownRow[];
  subtotal: string;
  vatTotal: string;
  /** True when the lines add up to the total (VAT inside them): VAT prints as "of which". */
  vatIncluded: boolean;
  total: string;
  refund: PaymentRow;
  footer?: string;
  qrPayload?: string;
}

export interface PaymentMethodTotal extends PaymentRow {
  count: number;
}

export interface ZReport {
  kind: 'z-report';
  labels: DocumentLabels;
  header: OrganisationHeader;
  /** A reprint or an extra copy: printed "COPY". */
  copy?: boolean;
  zNumber: string;
  branchName?: string;
  cashierName?: string;
  openedAt: string;
  openedAtLocal: string;
  closedAt: string;
  closedAtLocal: string;
  currency: string;
  saleCount: number;
  returnCount: number;
  byPaymentMethod: PaymentMethodTotal[];
  vatBreakdown: VatBreakdownRow[];
  grossSales: string;
  discountTotal: string;
  returnsTotal: string;
  netSales: string;
  openingFloat: string;
  expectedCash: string;
  /** Payments on customers' accounts taken in the session, by tender. */
  accountPayments: PaymentMethodTotal[];
  /**
   * What the session took per currency, rate and tender (cash net of change and refunds), with the base
   * equivalent at the rate used: the session's tenders_by_currency.
   */
  tendersByCurrency: ZTenderByCurrency[];
  /** The cash the drawer should hold per currency (the base's includes the float), when it holds several. */
  cashByCurrency: ZCashByCurrency[];
  /** The close's count per currency (expected, counted, variance; each also in the base currency); null while open. */
  countedByCurrency: ZCountedCurrency[] | null;
  countedCash: string;
  /** counted - expected; negative means cash is missing. */
  variance: string;
}

export interface ZCashByCurrency {
  currency: string;
  /** The rate to the base currency the amount was converted at. */
  rate: string;
  expected: string;
  /** The same in the base currency. */
  expectedBase: string;
}

export interface ZTenderByCurrency {
  currency: string;
  method: string;
  label: string;
  /** The rate to the base currency the amount was converted at ("1" for the base currency). */
  rate: string;
  count: number;
  /** In the currency's own decimals. */
  amount: string;
  amountBase: string;
}

export interface ZCountedCurrency {
  currency: string;
  rate: string;
  expected: string;
  counted: string;
  variance: string;
  expectedBase: string;
  countedBase: string;
  varianceBase: string;
}

export type LabelBarcodeSymbology = 'ean13' | 'code128';

export interface ShelfLabel {
  kind: 'shelf-label';
  name: string;
  /** "500 mg · tablets" style description; empty when unknown. */
  strengthAndForm: string;
  packSize?: string;
  price: string;
  currency: string;
  unitPriceText?: string;
  barcode: { symbology: LabelBarcodeSymbology; data: string };
}

/** The page "Test print" sends: proves the link, the sizes, the code page, QR and the cutter. */
export interface TestPage {
  kind: 'test-page';
  shopName: string;
  branchName?: string;
  printerName: string;
  /** Printed-at time in the branch time zone. */
  printedAtLocal: string;
  /** e.g. "tcp 192.168.1.50:9100". */
  connection: string;
  paper: string;
  commandSet: string;
  codePage: string;
}

export type PrintableDocument = SaleReceipt | CreditNote | ZReport | ShelfLabel | TestPage;

import { addDecimals, compareDecimals, normaliseDecimal } from '@pharmacy/contracts/money';
import type { CreditNote } from './document-types';
import { encodeFiscalQr } from './fiscal-qr';
import { paymentMethodLabel, resolveLabels } from './labels';
import { formatLocalDateTime } from './local-time';
import { type OrganisationFields, buildOrganisationHeader, present } from './organisation-input';
import { type DocumentBuildOptions, moneyScaleOf } from './sale-receipt';
import {
  type SaleItemInput,
  type VatBreakdownInput,
  buildReceiptLines,
  buildVatBreakdown,
} from './sale-lines';

/** The server's return JSON: the refunded lines of one original invoice. */
export interface CreditNoteInput extends OrganisationFields {
  credit_note_number: string;
  original_invoice_number: string;
  returned_at: string;
  uuid?: string | null;
  reason?: string | null;
  currency_code: string;
  subtotal_amount: string;
  vat_amount: string;
  total_amount: string;
  vat_breakdown: VatBreakdownInput[];
  items: SaleItemInput[];
  refund_method: string;
  /** Defaults to total_amount. */
  refund_amount?: string | null;
  pharmacist_name?: string | null;
  customer_display_name?: string | null;
  receipt_footer?: string | null;
  fiscal_hash?: string | null;
}

export function buildCreditNote(input: CreditNoteInput, options: DocumentBuildOptions): CreditNote {
  const labels = resolveLabels(options.labels);
  const scale = moneyScaleOf(input.currency_code, options);
  const money = (amount: string) => normaliseDecimal(amount, scale);
  const total = money(input.total_amount);
  const vatTotal = money(input.vat_amount);
  const lines = buildReceiptLines(input.items, scale);
  const linesTotal = addDecimals(
    lines.map((line) => line.lineTotal),
    scale,
  );
  return {
    kind: 'credit-note',
    labels,
    header: buildOrganisationHeader(input),
    creditNoteNumber: input.credit_note_number,
    originalInvoiceNumber: input.original_invoice_number,
    uuid: present(input.uuid),
    issuedAt: input.returned_at,
    issuedAtLocal: formatLocalDateTime(input.returned_at, options.timeZone),
    cashierName: present(input.pharmacist_name),
    customerName: present(input.customer_display_name),
    reason: present(input.reason),
    currency: input.currency_code,
    copy: options.copy === true,
    lines,
    vatBreakdown: buildVatBreakdown(input.vat_breakdown, scale),
    subtotal: money(input.subtotal_amount),
    vatTotal,
    vatIncluded: compareDecimals(linesTotal, total) === 0,
    total,
    refund: {
      method: input.refund_method,
      label: paymentMethodLabel(labels, input.refund_method),
      amount: money(present(input.refund_amount) ?? input.total_amount),
    },
    footer: present(input.receipt_footer),
    qrPayload:
      options.qrFormat === 'none'
        ? undefined
        : encodeFiscalQr(
            {
              sellerName: present(input.organization_legal_name) ?? input.organization_name,
              vatNumber: present(input.branch_vat_number) ?? present(input.organization_vat_number) ?? '',
              timestamp: input.returned_at,
              total,
              vatTotal,
              invoiceHash: present(input.fiscal_hash),
            },
            options.qrFormat,
          ),
  };
}

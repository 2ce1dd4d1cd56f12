import { z } from 'zod';
import { DecimalString, Id, IsoDate, OptionalText, Timestamp } from './common';
import { RegulatorStatus } from './stock';

export const SUPPLIER_INVOICE_STATUSES = ['unpaid', 'partial', 'paid'] as const;
export const SupplierInvoiceStatus = z.enum(SUPPLIER_INVOICE_STATUSES);

/** A positive money amount in a request; the service checks decimals against the base currency. */
const PositiveMoney = z
  .number({ message: 'must be a number' })
  .finite({ message: 'must be finite' })
  .positive({ message: 'must be positive' })
  .max(1_000_000_000_000, { message: 'is too large' });

export const SupplierInvoice = z.object({
  id: z.string(),
  supplier_id: z.string(),
  supplier_name: z.string(),
  branch_id: z.string(),
  branch_name: z.string(),
  invoice_no: z.string(),
  total_amount: DecimalString,
  paid_amount: DecimalString,
  balance: DecimalString.describe('total_amount - paid_amount'),
  status: SupplierInvoiceStatus,
  due_date: z.string().nullable(),
  notes: z.string(),
  created_by: z.string().nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type SupplierInvoice = z.infer<typeof SupplierInvoice>;

export const CreateSupplierInvoiceRequest = z
  .object({
    supplier_id: Id,
    total_amount: PositiveMoney,
    branch_id: Id.optional().describe("defaults to the caller's branch"),
    invoice_no: OptionalText(60).default(''),
    due_date: IsoDate.nullable().default(null),
    notes: OptionalText(1000).default(''),
  })
  .strict();

export const SupplierInvoiceListQuery = z.object({
  supplier_id: Id.optional(),
  branch_id: Id.optional(),
  status: SupplierInvoiceStatus.optional(),
});

export const SupplierInvoiceList = z.object({ items: z.array(SupplierInvoice) });

export const SupplierInvoiceParams = z.object({ invoiceId: Id });

export const PaymentMethod = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z][a-z0-9_]{0,31}$/, { message: 'must be a word such as cash or bank_transfer' });

export const CreateSupplierPaymentRequest = z
  .object({
    amount: PositiveMoney,
    method: PaymentMethod.default('cash'),
    reference: OptionalText(120).default(''),
  })
  .strict();

export const SupplierPayment = z.object({
  id: z.string(),
  invoice_id: z.string(),
  branch_id: z.string().describe("the invoice's branch"),
  amount: DecimalString,
  method: z.string(),
  reference: z.string(),
  paid_by: z.string().nullable(),
  paid_at: Timestamp,
});

export type SupplierPayment = z.infer<typeof SupplierPayment>;

export const SupplierPaymentResult = z.object({
  payment: SupplierPayment,
  invoice: SupplierInvoice,
});
export type SupplierPaymentResult = z.infer<typeof SupplierPaymentResult>;

export const SupplierInvoicePayments = z.object({
  invoice: SupplierInvoice,
  items: z.array(SupplierPayment).describe('oldest first'),
});
export type SupplierInvoicePayments = z.infer<typeof SupplierInvoicePayments>;

export const ReorderSuggestionQuery = z.object({
  branch_id: Id.optional().describe("branch-bound roles always get their own; default the caller's branch"),
});

export const ReorderSuggestion = z.object({
  medicine_id: z.string(),
  medicine_name: z.string(),
  category: z.string().nullable(),
  stock_quantity: z.number().int(),
  low_stock_threshold: z.number().int(),
  suggested_qty: z.number().int().describe('2 x low_stock_threshold - stock_quantity'),
  supplier_id: z.string().nullable(),
  supplier_name: z.string().nullable(),
  lead_time_days: z.number().int().nullable(),
});

export const ReorderSuggestionList = z.object({ branch_id: z.string(), items: z.array(ReorderSuggestion) });

export const QuarantineRequest = z
  .object({
    status: RegulatorStatus,
    reason: OptionalText(500).default(''),
  })
  .strict();

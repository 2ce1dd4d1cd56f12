import { z } from 'zod';
import { DecimalString, Id, IsoDate, MoneyInput, OptionalText, PageQuery, Text, Timestamp } from './common';

export const REGULATOR_STATUSES = ['quarantined', 'active', 'recalled'] as const;
export const RegulatorStatus = z.enum(REGULATOR_STATUSES);
export type RegulatorStatus = z.infer<typeof RegulatorStatus>;

export const Batch = z.object({
  id: z.string(),
  medicine_id: z.string(),
  medicine_name: z.string(),
  branch_id: z.string(),
  branch_name: z.string(),
  batch_number: z.string(),
  expiry_date: z.string().describe('YYYY-MM-DD; the batch is expired from the day after'),
  qty_received: z.number().int(),
  qty_on_hand: z.number().int(),
  unit_cost: DecimalString,
  supplier_id: z.string().nullable(),
  supplier_name: z.string().nullable(),
  regulator_status: RegulatorStatus,
  is_expired: z.boolean(),
  received_at: Timestamp,
  received_by: z.string().nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Batch = z.infer<typeof Batch>;

export const BatchParams = z.object({ batchId: Id });

const PositiveQty = z
  .number({ message: 'must be a number' })
  .int({ message: 'must be a whole number' })
  .positive({ message: 'must be positive' })
  .max(1_000_000, { message: 'must be at most 1000000' });

export const BatchNumber = z
  .string({ message: 'must be a string' })
  .trim()
  .min(1, { message: 'must not be empty' })
  .max(64, { message: 'must be at most 64 characters' });

export const ReceiveBatchRequest = z
  .object({
    medicine_id: Id,
    supplier_id: Id,
    branch_id: Id.optional().describe("defaults to the caller's branch"),
    batch_number: BatchNumber,
    expiry_date: IsoDate,
    qty_received: PositiveQty,
    unit_cost: MoneyInput,
    notes: OptionalText(500).default(''),
  })
  .strict();

export const WriteOffRequest = z.object({ quantity: PositiveQty, reason: Text(500) }).strict();

export const BatchListQuery = PageQuery.extend({
  branch_id: Id.optional(),
  medicine_id: Id.optional(),
  supplier_id: Id.optional(),
  regulator_status: RegulatorStatus.optional(),
  in_stock: z
    .enum(['true', 'false', 'all'], { message: 'must be true, false or all' })
    .default('all')
    .describe('true: qty_on_hand > 0; false: empty batches'),
  from: IsoDate.optional().describe('received on or after this day (UTC)'),
  to: IsoDate.optional().describe('received on or before this day (UTC)'),
});

export const ExpiryWindowQuery = PageQuery.extend({
  days: z.coerce
    .number({ message: 'must be a number' })
    .int({ message: 'must be a whole number of days' })
    .min(1, { message: 'must be at least 1' })
    .max(3650, { message: 'must be at most 3650' })
    .default(90),
  branch_id: Id.optional(),
});

export const BranchPageQuery = PageQuery.extend({ branch_id: Id.optional() });

// Transfers ---------------------------------------------------------------------------------------------

export const TransferItemRequest = z
  .object({
    medicine_id: Id.optional().describe('FEFO picks the batches of the source branch'),
    batch_id: Id.optional().describe('send from this batch'),
    quantity: PositiveQty,
  })
  .strict()
  .refine((v) => (v.medicine_id === undefined) !== (v.batch_id === undefined), {
    message: 'give exactly one of medicine_id or batch_id',
  });

export const CreateTransferRequest = z
  .object({
    from_branch_id: Id.optional().describe("defaults to the caller's branch"),
    to_branch_id: Id,
    notes: OptionalText(500).default(''),
    items: z
      .array(TransferItemRequest)
      .min(1, { message: 'must hold at least one item' })
      .max(500, { message: 'must hold at most 500 items' }),
  })
  .strict();
export type CreateTransferRequest = z.output<typeof CreateTransferRequest>;

export const CreateTransferBatchRequest = z
  .object({
    transfers: z
      .array(CreateTransferRequest)
      .min(1, { message: 'must hold at least one transfer' })
      .max(50, { message: 'must hold at most 50 transfers' }),
  })
  .strict();

export const TransferStatus = z
  .enum(['in_transit', 'received', 'cancelled', 'completed'])
  .describe(
    'in_transit until received or cancelled; completed: booked at both branches at once (before in-transit transfers)',
  );
export type TransferStatus = z.infer<typeof TransferStatus>;

export const DiscrepancyReason = z.enum(['short', 'damaged']);

export const TransferLine = z.object({
  id: z.string(),
  medicine_id: z.string(),
  medicine_name: z.string(),
  from_batch_id: z.string(),
  to_batch_id: z.string().nullable().describe('the destination batch, once received'),
  batch_number: z.string(),
  expiry_date: z.string(),
  quantity: z.number().int().describe('units sent'),
  unit_cost: DecimalString,
  received_quantity: z
    .number()
    .int()
    .nullable()
    .describe('units booked in at the destination; null until received'),
  discrepancy_reason: DiscrepancyReason.nullable().describe('why fewer units arrived than were sent'),
});

export const Transfer = z.object({
  id: z.string(),
  from_branch_id: z.string(),
  from_branch_name: z.string(),
  to_branch_id: z.string(),
  to_branch_name: z.string(),
  status: TransferStatus,
  notes: z.string(),
  created_by: z.string().nullable(),
  created_at: Timestamp,
  received_at: Timestamp.nullable(),
  received_by: z.string().nullable(),
  receipt_notes: z.string().nullable(),
  cancelled_at: Timestamp.nullable(),
  cancelled_by: z.string().nullable(),
  cancel_reason: z.string(),
  items: z.array(TransferLine),
});
export type Transfer = z.infer<typeof Transfer>;

export const ReceiveTransferLine = z
  .object({
    item_id: Id.describe('a line of the transfer'),
    received_quantity: z.number().int().min(0).max(1_000_000),
    discrepancy_reason: DiscrepancyReason.optional().describe(
      'required when fewer units arrived than were sent',
    ),
  })
  .strict();

export const ReceiveTransferRequest = z
  .object({
    notes: OptionalText(500).default(''),
    lines: z
      .array(ReceiveTransferLine)
      .max(1000, { message: 'must hold at most 1000 lines' })
      .default([])
      .describe('lines not named arrived in full'),
  })
  .strict();
export type ReceiveTransferRequest = z.output<typeof ReceiveTransferRequest>;

export const CancelTransferRequest = z.object({ reason: OptionalText(500).default('') }).strict();
export type CancelTransferRequest = z.output<typeof CancelTransferRequest>;

export const TransferList = z.object({
  items: z.array(Transfer),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});

export const TransferListQuery = PageQuery.extend({
  branch_id: Id.optional().describe('transfers leaving or entering this branch'),
  direction: z.enum(['in', 'out', 'both']).default('both'),
  status: TransferStatus.optional(),
});

// Stock count -------------------------------------------------------------------------------------------

export const StockCountSheetQuery = z.object({
  branch_id: Id.optional(),
  category: z.string().trim().min(1).max(64).optional(),
  include_empty: z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .default('false')
    .describe('also list batches with nothing on hand'),
});

export const StockCountSheetLine = z.object({
  batch_id: z.string(),
  medicine_id: z.string(),
  medicine_name: z.string(),
  strength: z.string(),
  form: z.string(),
  batch_number: z.string(),
  expiry_date: z.string(),
  regulator_status: RegulatorStatus,
  expected_qty: z.number().int(),
  is_controlled: z.boolean().describe('a variance on it needs a reason and a witness'),
});
export type StockCountSheetLine = z.infer<typeof StockCountSheetLine>;

export const StockCountSheet = z.object({
  branch_id: z.string(),
  generated_at: Timestamp,
  total: z.number().int(),
  items: z.array(StockCountSheetLine),
});

export const SubmitStockCountRequest = z
  .object({
    branch_id: Id.optional().describe("defaults to the caller's branch"),
    notes: OptionalText(1000).default(''),
    approval_id: Id.optional().describe(
      'a stock_variance approval covering the variance above the threshold; recorded with the count',
    ),
    variance_reason: OptionalText(500)
      .optional()
      .describe('why the count differs from the books; required when a controlled medicine differs'),
    witness: z
      .object({ email: z.string().trim().max(254), password: z.string().min(1).max(200) })
      .strict()
      .optional()
      .describe(
        'the second person present, pharmacist or admin, not the counter, signing with their own credentials; required when a controlled medicine differs',
      ),
    lines: z
      .array(
        z
          .object({
            batch_id: Id,
            counted_qty: z
              .number({ message: 'must be a number' })
              .int({ message: 'must be a whole number' })
              .min(0, { message: 'must not be negative' })
              .max(1_000_000_000, { message: 'is too large' }),
          })
          .strict(),
      )
      .min(1, { message: 'must hold at least one line' })
      .max(50_000, { message: 'must hold at most 50000 lines' }),
  })
  .strict();

export const StockCountResultLine = z.object({
  batch_id: z.string(),
  medicine_id: z.string(),
  medicine_name: z.string(),
  batch_number: z.string(),
  expected_qty: z.number().int(),
  counted_qty: z.number().int(),
  variance: z.number().int(),
});

export const StockCountResult = z.object({
  id: z.string(),
  branch_id: z.string(),
  counted_by: z.string(),
  approval_id: z.string().nullable(),
  notes: z.string(),
  witness_id: z.string().nullable().describe('the witness of a controlled medicine discrepancy'),
  created_at: Timestamp,
  lines_counted: z.number().int(),
  lines_with_variance: z.number().int(),
  total_variance: z.number().int(),
  variances: z.array(StockCountResultLine).describe('lines whose count differs from the books'),
});

// Alerts ------------------------------------------------------------------------------------------------

export const LowStockAlert = z.object({
  medicine_id: z.string(),
  name: z.string(),
  generic_name: z.string(),
  category: z.string().nullable(),
  branch_id: z.string(),
  branch_name: z.string(),
  stock_quantity: z.number().int(),
  low_stock_threshold: z.number().int(),
});

export const ExpiryAlert = z.object({
  batch_id: z.string(),
  medicine_id: z.string(),
  medicine_name: z.string(),
  branch_id: z.string(),
  branch_name: z.string(),
  batch_number: z.string(),
  expiry_date: z.string(),
  days_to_expiry: z.number().int().describe('negative once expired'),
  qty_on_hand: z.number().int(),
  regulator_status: RegulatorStatus,
});

// Images ------------------------------------------------------------------------------------------------

export const IMAGE_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export const UploadUrlRequest = z
  .object({
    content_type: z.enum(IMAGE_CONTENT_TYPES, { message: 'must be image/jpeg, image/png or image/webp' }),
    size_bytes: z
      .number({ message: 'must be a number' })
      .int({ message: 'must be a whole number of bytes' })
      .positive({ message: 'must be positive' })
      .max(MAX_IMAGE_BYTES, { message: 'must be at most 5 MB (5242880 bytes)' }),
  })
  .strict();

export const UploadUrlResponse = z.object({
  key: z.string(),
  uploadUrl: z.string().describe('PUT the bytes here with the same Content-Type; expires in 15 minutes'),
  publicUrl: z.string().describe('where the image can be read once uploaded (signed, short expiry)'),
  expiresAt: Timestamp,
});

export const AttachImageRequest = z.object({ image_key: z.string().trim().min(1).max(200) }).strict();

export const BrandingLogo = z.object({
  logo_key: z.string().nullable(),
  logo_url: z.string().nullable(),
  updated_at: Timestamp.nullable(),
});

// Scans -------------------------------------------------------------------------------------------------

export const ClassifyScanRequest = z
  .object({
    code: z
      .string({ message: 'must be a string' })
      .min(1, { message: 'must not be empty' })
      .max(512, { message: 'must be at most 512 characters' }),
  })
  .strict();

/** What a scanner delivered, as packages/hardware's classifyScan reads it (one GS1 parser for the whole app). */
export const ScanClassification = z.object({
  kind: z.enum(['gs1', 'ean13', 'upca', 'ean8', 'unknown']),
  raw: z.string(),
  gtin: z.string().optional().describe('GTIN-14 (GS1) or the retail code as a GTIN-14'),
  code: z.string().optional().describe('the retail code as printed (EAN-13, UPC-A, EAN-8)'),
  batch: z.string().optional().describe('GS1 AI 10'),
  expiry: z.string().optional().describe('GS1 AI 17, YYYY-MM-DD (day 00: the last day of the month)'),
  serial: z.string().optional().describe('GS1 AI 21'),
  reason: z.string().optional().describe('why an unknown scan was not recognised'),
});
export type ScanClassification = z.infer<typeof ScanClassification>;

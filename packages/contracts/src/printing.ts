import { z } from 'zod';
import { BoolQuery, OptionalText, PageQuery, PlainText, Text, Timestamp } from './common';

// ---------------------------------------------------------------------------------------------------------
// Enumerations
// ---------------------------------------------------------------------------------------------------------

export const PRINT_DOCUMENT_TYPES = ['receipt', 'invoice', 'credit_note', 'label', 'report'] as const;
export const PrintDocumentType = z.enum(PRINT_DOCUMENT_TYPES, {
  message: `must be one of ${PRINT_DOCUMENT_TYPES.join(', ')}`,
});
export type PrintDocumentType = z.infer<typeof PrintDocumentType>;

export const PRINT_JOB_STATUSES = ['queued', 'printing', 'completed', 'failed', 'cancelled'] as const;
export const PrintJobStatus = z.enum(PRINT_JOB_STATUSES);
export type PrintJobStatus = z.infer<typeof PrintJobStatus>;

/** A status in a request: the five stored ones plus the legacy `printed`, which is stored as `completed`. */
export const PrintJobStatusInput = z
  .enum([...PRINT_JOB_STATUSES, 'printed'], {
    message: `must be one of ${PRINT_JOB_STATUSES.join(', ')} (or the legacy printed)`,
  })
  .transform((s): PrintJobStatus => (s === 'printed' ? 'completed' : s));

export const PRINTER_TRANSPORTS = ['usb', 'serial', 'tcp', 'device'] as const;
export const PrinterTransportKind = z.enum(PRINTER_TRANSPORTS, {
  message: `must be one of ${PRINTER_TRANSPORTS.join(', ')}`,
});
export type PrinterTransportKind = z.infer<typeof PrinterTransportKind>;

export const PrinterCommandSet = z.enum(['epson', 'star'], { message: 'must be epson or star' });
export const PaperWidthMm = z.union([z.literal(58), z.literal(80)], { message: 'must be 58 or 80' });
export const BAUD_RATES = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400] as const;
export const BaudRate = z
  .number({ message: 'must be a number' })
  .int({ message: 'must be a whole number' })
  .refine((n) => (BAUD_RATES as readonly number[]).includes(n), {
    message: `must be one of ${BAUD_RATES.join(', ')}`,
  });

/** A reference to a record (branch, printer, document) as the spec types it: a plain, non-empty string. */
const RefId = z
  .string({ message: 'must be a string' })
  .trim()
  .min(1, { message: 'must not be empty' })
  .max(100, { message: 'must be at most 100 characters' })
  .regex(/^[A-Za-z0-9._:-]+$/, { message: 'must be an identifier (letters, digits, . _ : -)' });

// ---------------------------------------------------------------------------------------------------------
// Printer addresses
// ---------------------------------------------------------------------------------------------------------

const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*|\[[0-9A-Fa-f:.]+\])$/;

/**
 * Why `address` does not fit `transport`, or undefined when it does. Shared by the request schemas and the
 * service (a PUT may change either field alone, so the merged printer is checked again).
 */
export function printerAddressProblem(transport: PrinterTransportKind, address: string): string | undefined {
  switch (transport) {
    case 'tcp': {
      const match = /^(.+):(\d{1,5})$/.exec(address);
      const port = Number(match?.[2]);
      if (!match || !HOST.test(match[1] ?? '') || port < 1 || port > 65_535)
        return 'a tcp printer address must be host:port, e.g. 192.168.1.50:9100';
      return undefined;
    }
    case 'serial':
      if (/^\/dev(?!.*\/\.\.?(?:\/|$))\/[A-Za-z0-9._/-]+$/.test(address) || /^COM[1-9]\d{0,2}$/.test(address))
        return undefined;
      return 'a serial printer address must be a /dev/... path (or COMn on Windows)';
    case 'device':
      if (/^\/dev(?!.*\/\.\.?(?:\/|$))\/[A-Za-z0-9._/-]+$/.test(address)) return undefined;
      return 'a device printer address must be a /dev/... path, e.g. /dev/usb/lp0';
    case 'usb':
      if (/^[0-9a-fA-F]{4}:[0-9a-fA-F]{4}$/.test(address)) return undefined;
      return 'a usb printer address must be vendor:product in hex, e.g. 04b8:0202';
  }
}

/** Code page names the hardware package knows (PC858_EURO, PC852_LATIN2, ...); the service checks the list. */
const CodePageName = z
  .string({ message: 'must be a string' })
  .regex(/^[A-Z0-9_]{2,40}$/, { message: 'must be a code page name such as PC858_EURO' });
const Language = z
  .string({ message: 'must be a string' })
  .regex(/^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/, { message: 'must be a language tag such as en or pl-PL' });

// ---------------------------------------------------------------------------------------------------------
// Printers
// ---------------------------------------------------------------------------------------------------------

export const Printer = z.object({
  id: z.string(),
  branch_id: z.string(),
  name: z.string(),
  transport: PrinterTransportKind,
  address: z.string(),
  baud_rate: z.number().int().nullable(),
  paper_width_mm: z.number().int(),
  command_set: PrinterCommandSet,
  code_page: z.string().nullable(),
  language: z.string().nullable(),
  open_drawer: z.boolean(),
  is_default: z.boolean(),
  is_active: z.boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Printer = z.infer<typeof Printer>;

const PrinterFields = {
  branch_id: RefId,
  name: Text(80),
  transport: PrinterTransportKind,
  address: z.string({ message: 'must be a string' }).trim().min(1, { message: 'must not be empty' }).max(200),
  baud_rate: BaudRate.nullable(),
  paper_width_mm: PaperWidthMm,
  command_set: PrinterCommandSet,
  code_page: CodePageName.nullable(),
  language: Language.nullable(),
  open_drawer: z.boolean({ message: 'must be true or false' }),
  is_default: z.boolean({ message: 'must be true or false' }),
  is_active: z.boolean({ message: 'must be true or false' }),
};

export const CreatePrinterRequest = z
  .object({
    ...PrinterFields,
    branch_id: PrinterFields.branch_id.optional(),
    baud_rate: PrinterFields.baud_rate.optional(),
    paper_width_mm: PaperWidthMm.default(80),
    command_set: PrinterCommandSet.default('epson'),
    code_page: PrinterFields.code_page.optional(),
    language: PrinterFields.language.optional(),
    open_drawer: PrinterFields.open_drawer.default(false),
    is_default: PrinterFields.is_default.default(false),
    is_active: PrinterFields.is_active.default(true),
  })
  .superRefine((v, ctx) => {
    const problem = printerAddressProblem(v.transport, v.address);
    if (problem) ctx.addIssue({ code: 'custom', path: ['address'], message: problem });
    if (v.transport !== 'serial' && v.baud_rate != null)
      ctx.addIssue({ code: 'custom', path: ['baud_rate'], message: 'applies to serial printers only' });
  });
export type CreatePrinterRequest = z.infer<typeof CreatePrinterRequest>;

/** Any subset of the fields except branch_id (a printer does not move; delete and recreate it instead). */
const { branch_id: _branch, ...UpdatablePrinterFields } = PrinterFields;
export const UpdatePrinterRequest = z
  .object(UpdatablePrinterFields)
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'No fields to update' });
export type UpdatePrinterRequest = z.infer<typeof UpdatePrinterRequest>;

export const PrinterListQuery = PageQuery.extend({
  branch_id: RefId.optional(),
  is_active: BoolQuery.optional(),
});

export const PrinterStatusReport = z.object({
  printer_id: z.string(),
  transport: PrinterTransportKind,
  /** The printer answered (connection opened, and status read where the transport can). */
  reachable: z.boolean(),
  /** DLE EOT status: null where the transport cannot read (usb, device) or the printer did not answer. */
  status: z
    .object({
      online: z.boolean(),
      cover_open: z.boolean(),
      paper_out: z.boolean(),
      paper_near_end: z.boolean(),
    })
    .nullable(),
  /** One word for the screen: READY, PAPER_OUT, COVER_OPEN, OFFLINE, TIMEOUT, NOT_FOUND, IO, UNKNOWN... */
  state: z.string(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  checked_at: Timestamp,
  elapsed_ms: z.number().int(),
});
export type PrinterStatusReport = z.infer<typeof PrinterStatusReport>;

export const PrinterDevices = z.object({
  serial: z.array(
    z.object({
      path: z.string(),
      manufacturer: z.string().optional(),
      serial_number: z.string().optional(),
      vendor_id: z.string().optional(),
      product_id: z.string().optional(),
    }),
  ),
  usb: z.array(
    z.object({
      address: z.string(),
      vendor_id: z.number().int(),
      product_id: z.number().int(),
      manufacturer: z.string().optional(),
      product: z.string().optional(),
      serial_number: z.string().optional(),
    }),
  ),
  /** Why a list may be incomplete (no udev, no permission, no native binding). */
  warnings: z.array(z.string()),
});
export type PrinterDevices = z.infer<typeof PrinterDevices>;

// ---------------------------------------------------------------------------------------------------------
// Receipt templates
// ---------------------------------------------------------------------------------------------------------

export const ReceiptTemplate = z.object({
  id: z.string(),
  /** null: organisation-wide. */
  branch_id: z.string().nullable(),
  name: z.string(),
  document_type: PrintDocumentType,
  /** The paper width the template prints on; null: both widths (a printer prefers its own width's). */
  paper_width_mm: PaperWidthMm.nullable(),
  header: z.string(),
  footer: z.string(),
  logo_key: z.string().nullable(),
  show_vat_breakdown: z.boolean(),
  show_qr: z.boolean(),
  show_customer: z.boolean(),
  show_return_policy: z.boolean(),
  is_default: z.boolean(),
  created_by: z.string().nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type ReceiptTemplate = z.infer<typeof ReceiptTemplate>;

export const CreateReceiptTemplateRequest = z.object({
  /** Omitted: the caller's branch; null: organisation-wide (admin only). */
  branch_id: RefId.nullable().optional(),
  name: Text(80),
  document_type: PrintDocumentType.default('receipt'),
  /** 58 or 80 for one paper width; null or omitted: both widths. */
  paper_width_mm: PaperWidthMm.nullable().default(null),
  header: PlainText(1000).default(''),
  footer: PlainText(1000).default(''),
  logo_key: OptionalText(300).nullable().optional(),
  show_vat_breakdown: z.boolean({ message: 'must be true or false' }).default(true),
  show_qr: z.boolean({ message: 'must be true or false' }).default(true),
  show_customer: z.boolean({ message: 'must be true or false' }).default(true),
  show_return_policy: z.boolean({ message: 'must be true or false' }).default(true),
  is_default: z.boolean({ message: 'must be true or false' }).default(false),
});
export type CreateReceiptTemplateRequest = z.infer<typeof CreateReceiptTemplateRequest>;

export const ReceiptTemplateListQuery = PageQuery.extend({
  branch_id: RefId.optional(),
  document_type: PrintDocumentType.optional(),
});

// ---------------------------------------------------------------------------------------------------------
// Print jobs
// ---------------------------------------------------------------------------------------------------------

export const PrintJob = z.object({
  id: z.string(),
  branch_id: z.string(),
  /** null: the branch's default printer at print time. */
  printer_id: z.string().nullable(),
  document_type: PrintDocumentType,
  reference_id: z.string(),
  copies: z.number().int().min(1).max(20),
  status: PrintJobStatus,
  reason: z.string().nullable(),
  created_by: z.string(),
  attempts: z.number().int(),
  /** "CODE: message" of the last failed attempt (OFFLINE, PAPER_OUT, COVER_OPEN, TIMEOUT, NO_PRINTER...). */
  last_error: z.string().nullable(),
  next_attempt_at: Timestamp.nullable(),
  printed_at: Timestamp.nullable(),
  /** The job this one reprints. */
  reprint_of: z.string().nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type PrintJob = z.infer<typeof PrintJob>;

export const CreatePrintJobRequest = z.object({
  branch_id: RefId.optional(),
  printer_id: RefId.nullable().optional(),
  document_type: PrintDocumentType,
  reference_id: Text(200),
  copies: z
    .number({ message: 'must be a whole number from 1 to 20' })
    .int({ message: 'must be a whole number from 1 to 20' })
    .min(1, { message: 'must be at least 1' })
    .max(20, { message: 'must be at most 20' })
    .default(1),
  status: PrintJobStatusInput.default('queued'),
  reason: OptionalText(500).nullable().optional(),
});
export type CreatePrintJobRequest = z.infer<typeof CreatePrintJobRequest>;

export const ReprintRequest = z
  .object({
    printer_id: RefId.nullable().optional(),
    copies: z
      .number({ message: 'must be a whole number from 1 to 20' })
      .int({ message: 'must be a whole number from 1 to 20' })
      .min(1, { message: 'must be at least 1' })
      .max(20, { message: 'must be at most 20' })
      .optional(),
    reason: OptionalText(500).nullable().optional(),
  })
  .strict();
export type ReprintRequest = z.infer<typeof ReprintRequest>;

export const PrintJobListQuery = PageQuery.extend({
  branch_id: RefId.optional(),
  printer_id: RefId.optional(),
  status: PrintJobStatusInput.optional(),
  document_type: PrintDocumentType.optional(),
  reference_id: z.string().trim().min(1).max(200).optional(),
});

// ---------------------------------------------------------------------------------------------------------
// Set-up: test page, cash drawer, template preview
// ---------------------------------------------------------------------------------------------------------

/** What "Test print" and "Open drawer" did: sent (bytes written) or the printer's reason. */
export const PrinterActionResult = z.object({
  printer_id: z.string(),
  outcome: z.enum(['printed', 'failed']),
  bytes_written: z.number().int(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  elapsed_ms: z.number().int(),
});
export type PrinterActionResult = z.infer<typeof PrinterActionResult>;

const TemplateFields = {
  name: Text(80),
  paper_width_mm: PaperWidthMm.nullable(),
  header: PlainText(1000),
  footer: PlainText(1000),
  show_vat_breakdown: z.boolean({ message: 'must be true or false' }),
  show_qr: z.boolean({ message: 'must be true or false' }),
  show_customer: z.boolean({ message: 'must be true or false' }),
  show_return_policy: z.boolean({ message: 'must be true or false' }),
  is_default: z.boolean({ message: 'must be true or false' }),
};

export const UpdateReceiptTemplateRequest = z
  .object(TemplateFields)
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'No fields to update' });
export type UpdateReceiptTemplateRequest = z.infer<typeof UpdateReceiptTemplateRequest>;

/** A template as typed so far, rendered on a sample document of its type at a paper width. */
export const TemplatePreviewRequest = z.object({
  document_type: PrintDocumentType.default('receipt'),
  paper_width_mm: PaperWidthMm.default(80),
  header: PlainText(1000).default(''),
  footer: PlainText(1000).default(''),
  show_vat_breakdown: z.boolean({ message: 'must be true or false' }).default(true),
  show_qr: z.boolean({ message: 'must be true or false' }).default(true),
  show_customer: z.boolean({ message: 'must be true or false' }).default(true),
  show_return_policy: z.boolean({ message: 'must be true or false' }).default(true),
});
export type TemplatePreviewRequest = z.infer<typeof TemplatePreviewRequest>;

export const TemplatePreview = z.object({
  /** The text renderer's output: the same layout the ESC/POS renderer prints, one line per paper line. */
  text: z.string(),
  columns: z.number().int(),
});
export type TemplatePreview = z.infer<typeof TemplatePreview>;

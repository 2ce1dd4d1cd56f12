import type { Bool } from '../types';

export interface PrintersTable {
  id: string;
  branch_id: string;
  name: string;
  transport: 'usb' | 'serial' | 'tcp' | 'device';
  address: string;
  baud_rate: number | null;
  paper_width_mm: number;
  command_set: 'epson' | 'star';
  code_page: string | null;
  language: string | null;
  open_drawer: Bool;
  is_default: Bool;
  is_active: Bool;
  created_at: string;
  updated_at: string;
}

export interface ReceiptTemplatesTable {
  id: string;
  /** null: organisation-wide. */
  branch_id: string | null;
  name: string;
  document_type: string;
  /** 58 or 80: the paper width the template is for; null: both widths. */
  paper_width_mm: number | null;
  header: string;
  footer: string;
  logo_key: string | null;
  show_vat_breakdown: Bool;
  show_qr: Bool;
  show_customer: Bool;
  show_return_policy: Bool;
  is_default: Bool;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface PrintJobsTable {
  id: string;
  branch_id: string;
  printer_id: string | null;
  document_type: string;
  reference_id: string;
  copies: number;
  status: 'queued' | 'printing' | 'completed' | 'failed' | 'cancelled';
  reason: string | null;
  created_by: string;
  attempts: number;
  last_error: string | null;
  /** When a queued job may be tried (null: now). */
  next_attempt_at: string | null;
  /** Set while the worker holds the job; a `printing` job with locked_at set is re-queued after a crash. */
  locked_at: string | null;
  printed_at: string | null;
  reprint_of: string | null;
  created_at: string;
  updated_at: string;
}

export interface PrintingTables {
  printers: PrintersTable;
  receipt_templates: ReceiptTemplatesTable;
  print_jobs: PrintJobsTable;
}

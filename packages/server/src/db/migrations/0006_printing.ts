import type { Migration } from 'kysely';
import { runStatements } from './run-statements';

/**
 * Printing: printers, receipt templates and the persisted print-job queue the till's worker drains.
 * Depends only on 0001 (branches). These tables are local to the server they are configured on: printer
 * addresses name this machine's hardware, and jobs are this till's queue, so none of them replicate.
 */
export const printing: Migration = {
  async up(db) {
    await runStatements(db, [
      `CREATE TABLE printers (
        id TEXT PRIMARY KEY,
        branch_id TEXT NOT NULL REFERENCES branches(id),
        name TEXT NOT NULL,
        transport TEXT NOT NULL CHECK (transport IN ('usb', 'serial', 'tcp', 'device')),
        address TEXT NOT NULL,
        baud_rate INTEGER,
        paper_width_mm INTEGER NOT NULL CHECK (paper_width_mm IN (58, 80)),
        command_set TEXT NOT NULL CHECK (command_set IN ('epson', 'star')),
        code_page TEXT,
        language TEXT,
        open_drawer INTEGER NOT NULL DEFAULT 0,
        is_default INTEGER NOT NULL DEFAULT 0,
        is_active INTEGER NOT NULL DEFAULT 1,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        CHECK (is_default = 0 OR is_active = 1)
      ) STRICT`,
      // One default printer per branch, and unique names among a branch's active printers.
      'CREATE UNIQUE INDEX printers_one_default ON printers(branch_id) WHERE is_default = 1',
      'CREATE UNIQUE INDEX printers_active_name ON printers(branch_id, name COLLATE NOCASE) WHERE is_active = 1',
      `CREATE TABLE receipt_templates (
        id TEXT PRIMARY KEY,
        branch_id TEXT REFERENCES branches(id),
        name TEXT NOT NULL,
        document_type TEXT NOT NULL CHECK (document_type IN ('receipt', 'invoice', 'credit_note', 'label', 'report')),
        header TEXT NOT NULL DEFAULT '',
        footer TEXT NOT NULL DEFAULT '',
        logo_key TEXT,
        show_vat_breakdown INTEGER NOT NULL DEFAULT 1,
        show_qr INTEGER NOT NULL DEFAULT 1,
        show_customer INTEGER NOT NULL DEFAULT 1,
        show_return_policy INTEGER NOT NULL DEFAULT 1,
        is_default INTEGER NOT NULL DEFAULT 0,
        created_by TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT`,
      // One default per scope (a branch, or organisation-wide) and document type.
      "CREATE UNIQUE INDEX receipt_templates_one_default ON receipt_templates(coalesce(branch_id, ''), document_type) WHERE is_default = 1",
      `CREATE TABLE print_jobs (
        id TEXT PRIMARY KEY,
        branch_id TEXT NOT NULL REFERENCES branches(id),
        printer_id TEXT REFERENCES printers(id),
        document_type TEXT NOT NULL CHECK (document_type IN ('receipt', 'invoice', 'credit_note', 'label', 'report')),
        reference_id TEXT NOT NULL CHECK (length(reference_id) > 0),
        copies INTEGER NOT NULL CHECK (copies BETWEEN 1 AND 20),
        status TEXT NOT NULL CHECK (status IN ('queued', 'printing', 'completed', 'failed', 'cancelled')),
        reason TEXT,
        created_by TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        next_attempt_at TEXT,
        locked_at TEXT,
        printed_at TEXT,
        reprint_of TEXT REFERENCES print_jobs(id),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT`,
      // The worker's queue: due jobs in order.
      "CREATE INDEX print_jobs_queue ON print_jobs(next_attempt_at, created_at) WHERE status = 'queued'",
      'CREATE INDEX print_jobs_branch ON print_jobs(branch_id, created_at)',
      'CREATE INDEX print_jobs_reference ON print_jobs(reference_id)',
      'CREATE INDEX print_jobs_printer ON print_jobs(printer_id)',
    ]);
  },
};

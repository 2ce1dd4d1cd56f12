import type { Migration } from 'kysely';
import { runStatements } from './run-statements';

/** Back office: purchase orders, supplier invoices and payments, manager approvals, the changelog. */
export const backoffice: Migration = {
  async up(db) {
    await runStatements(db, [
      `CREATE TABLE purchase_orders (
        id TEXT PRIMARY KEY,
        supplier_id TEXT NOT NULL REFERENCES suppliers(id),
        branch_id TEXT NOT NULL REFERENCES branches(id),
        status TEXT NOT NULL DEFAULT 'DRAFT'
          CHECK (status IN ('DRAFT', 'SENT', 'PARTIALLY_RECEIVED', 'RECEIVED', 'CANCELLED')),
        expected_date TEXT,
        notes TEXT NOT NULL DEFAULT '',
        created_by TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        sent_at TEXT,
        cancelled_at TEXT,
        cancel_reason TEXT,
        received_at TEXT
      ) STRICT`,
      'CREATE INDEX purchase_orders_branch ON purchase_orders(branch_id, created_at)',
      'CREATE INDEX purchase_orders_supplier ON purchase_orders(supplier_id, created_at)',
      'CREATE INDEX purchase_orders_status ON purchase_orders(status, created_at)',
      `CREATE TABLE purchase_order_items (
        id TEXT PRIMARY KEY,
        purchase_order_id TEXT NOT NULL REFERENCES purchase_orders(id),
        branch_id TEXT NOT NULL REFERENCES branches(id),
        medicine_id TEXT NOT NULL REFERENCES medicines(id),
        ordered_qty INTEGER NOT NULL CHECK (ordered_qty > 0),
        received_qty INTEGER NOT NULL DEFAULT 0 CHECK (received_qty >= 0),
        agreed_unit_cost INTEGER NOT NULL CHECK (agreed_unit_cost >= 0),
        UNIQUE (purchase_order_id, medicine_id)
      ) STRICT`,
      'CREATE INDEX purchase_order_items_medicine ON purchase_order_items(medicine_id)',
      `CREATE TABLE purchase_order_receipts (
        id TEXT PRIMARY KEY,
        purchase_order_id TEXT NOT NULL REFERENCES purchase_orders(id),
        branch_id TEXT NOT NULL REFERENCES branches(id),
        item_id TEXT NOT NULL REFERENCES purchase_order_items(id),
        batch_id TEXT NOT NULL REFERENCES batches(id),
        movement_id TEXT NOT NULL,
        quantity INTEGER NOT NULL CHECK (quantity > 0),
        unit_cost INTEGER NOT NULL CHECK (unit_cost >= 0),
        received_by TEXT,
        received_at TEXT NOT NULL
      ) STRICT`,
      'CREATE INDEX purchase_order_receipts_order ON purchase_order_receipts(purchase_order_id, received_at)',
      `CREATE TABLE supplier_invoices (
        id TEXT PRIMARY KEY,
        supplier_id TEXT NOT NULL REFERENCES suppliers(id),
        branch_id TEXT NOT NULL REFERENCES branches(id),
        invoice_no TEXT NOT NULL DEFAULT '',
        total_amount INTEGER NOT NULL CHECK (total_amount >= 0),
        paid_amount INTEGER NOT NULL DEFAULT 0 CHECK (paid_amount >= 0 AND paid_amount <= total_amount),
        status TEXT NOT NULL DEFAULT 'unpaid' CHECK (status IN ('unpaid', 'partial', 'paid')),
        due_date TEXT,
        notes TEXT NOT NULL DEFAULT '',
        created_by TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT`,
      'CREATE INDEX supplier_invoices_created ON supplier_invoices(created_at)',
      'CREATE INDEX supplier_invoices_supplier ON supplier_invoices(supplier_id, created_at)',
      'CREATE INDEX supplier_invoices_branch ON supplier_invoices(branch_id, created_at)',
      `CREATE TABLE supplier_payments (
        id TEXT PRIMARY KEY,
        invoice_id TEXT NOT NULL REFERENCES supplier_invoices(id),
        branch_id TEXT NOT NULL REFERENCES branches(id),
        amount INTEGER NOT NULL CHECK (amount > 0),
        method TEXT NOT NULL DEFAULT 'cash',
        reference TEXT NOT NULL DEFAULT '',
        paid_by TEXT,
        paid_at TEXT NOT NULL
      ) STRICT`,
      'CREATE INDEX supplier_payments_invoice ON supplier_payments(invoice_id, paid_at)',
      `CREATE TABLE approvals (
        id TEXT PRIMARY KEY,
        branch_id TEXT NOT NULL REFERENCES branches(id),
        kind TEXT NOT NULL
          CHECK (kind IN ('price_override', 'discount', 'return_without_receipt', 'void', 'stock_variance')),
        payload TEXT NOT NULL DEFAULT '{}',
        reason TEXT NOT NULL DEFAULT '',
        status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected', 'used')),
        requested_by TEXT NOT NULL,
        decided_by TEXT,
        decision_reason TEXT,
        decided_at TEXT,
        used_by TEXT,
        used_at TEXT,
        expires_at TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT`,
      'CREATE INDEX approvals_branch ON approvals(branch_id, status, created_at)',
      'CREATE INDEX approvals_requester ON approvals(requested_by, created_at)',
      `CREATE TABLE changelog_entries (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        body TEXT NOT NULL DEFAULT '',
        version TEXT,
        kind TEXT NOT NULL,
        created_by TEXT,
        created_at TEXT NOT NULL
      ) STRICT`,
      'CREATE INDEX changelog_entries_created ON changelog_entries(created_at)',
      // Reports and dashboard: purchase and sale movements by day (purchases report, reorder suggestions)…
      'CREATE INDEX stock_movements_branch_type ON stock_movements(branch_id, type, created_at)',
      'CREATE INDEX stock_movements_type ON stock_movements(type, created_at)',
      // …and covering indexes over sales, so windowed totals and the joins to lines and payments never read the
      // (wide) sale rows.
      `CREATE INDEX sales_report_branch ON sales(branch_id, sold_at, is_deleted, base_total_amount, base_vat_amount,
        base_change_amount, user_id, id, currency_code, fx_rate_to_base)`,
      `CREATE INDEX sales_report_sold ON sales(sold_at, is_deleted, branch_id, base_total_amount, base_vat_amount,
        base_change_amount, user_id, id, currency_code, fx_rate_to_base)`,
    ]);
  },
};

import type { Migration } from 'kysely';
import { MEDICINE_TSVECTOR } from '../dialect';
import { appendOnly, runStatements, sqliteOnly } from './run-statements';

/** Catalogue and stock: categories, medicines (+ FTS5 search), suppliers, batches, the stock ledger, transfers, counts. */
export const catalogue: Migration = {
  async up(db) {
    await runStatements(db, [
      `CREATE TABLE categories (
        id TEXT PRIMARY KEY,
        slug TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT`,
      `CREATE TABLE medicines (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        generic_name TEXT NOT NULL DEFAULT '',
        barcode TEXT,
        barcode_key TEXT,
        category TEXT REFERENCES categories(slug) ON UPDATE CASCADE,
        form TEXT NOT NULL DEFAULT '',
        strength TEXT NOT NULL DEFAULT '',
        unit TEXT NOT NULL DEFAULT 'unit',
        selling_price INTEGER NOT NULL CHECK (selling_price >= 0),
        max_public_price INTEGER CHECK (max_public_price IS NULL OR max_public_price >= selling_price),
        low_stock_threshold INTEGER NOT NULL DEFAULT 10 CHECK (low_stock_threshold >= 0),
        requires_prescription INTEGER NOT NULL DEFAULT 0,
        is_controlled INTEGER NOT NULL DEFAULT 0,
        requires_cold_chain INTEGER NOT NULL DEFAULT 0,
        is_active INTEGER NOT NULL DEFAULT 1,
        vat_category TEXT NOT NULL DEFAULT 'standard',
        regulator_registration_no TEXT NOT NULL DEFAULT '',
        image_key TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT`,
      // Unique among active medicines only: a deactivated product may leave its barcode to a successor.
      'CREATE UNIQUE INDEX medicines_barcode_active ON medicines(barcode_key) WHERE is_active = 1 AND barcode_key IS NOT NULL',
      'CREATE INDEX medicines_barcode_key ON medicines(barcode_key)',
      'CREATE INDEX medicines_active_name ON medicines(is_active, name COLLATE NOCASE)',
      'CREATE INDEX medicines_category ON medicines(category)',
      // Covering lookup by id for lists that only need names (count sheet, ledgers).
      'CREATE INDEX medicines_sheet ON medicines(id, name, strength, form, category)',
      'CREATE INDEX medicines_controlled ON medicines(is_controlled) WHERE is_controlled = 1',
      // External-content FTS5 index over the searchable columns, kept in step by triggers.
      // PostgreSQL: a GIN index over the same words (db/dialect.ts medicineSearchCondition queries it).
      {
        sqlite: `CREATE VIRTUAL TABLE medicines_fts USING fts5(
        name, generic_name, barcode,
        content='medicines', content_rowid='rowid',
        tokenize='unicode61 remove_diacritics 2', prefix='1 2 3 4'
      )`,
        postgres: `CREATE INDEX medicines_search ON medicines USING GIN (${MEDICINE_TSVECTOR})`,
      },
      sqliteOnly(`CREATE TRIGGER medicines_fts_insert AFTER INSERT ON medicines BEGIN
        INSERT INTO medicines_fts(rowid, name, generic_name, barcode)
        VALUES (new.rowid, new.name, new.generic_name, coalesce(new.barcode, ''));
      END`),
      sqliteOnly(`CREATE TRIGGER medicines_fts_delete AFTER DELETE ON medicines BEGIN
        INSERT INTO medicines_fts(medicines_fts, rowid, name, generic_name, barcode)
        VALUES ('delete', old.rowid, old.name, old.generic_name, coalesce(old.barcode, ''));
      END`),
      sqliteOnly(`CREATE TRIGGER medicines_fts_update AFTER UPDATE OF name, generic_name, barcode ON medicines BEGIN
        INSERT INTO medicines_fts(medicines_fts, rowid, name, generic_name, barcode)
        VALUES ('delete', old.rowid, old.name, old.generic_name, coalesce(old.barcode, ''));
        INSERT INTO medicines_fts(rowid, name, generic_name, barcode)
        VALUES (new.rowid, new.name, new.generic_name, coalesce(new.barcode, ''));
      END`),
      `CREATE TABLE suppliers (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        tax_number TEXT NOT NULL DEFAULT '',
        supplier_type TEXT NOT NULL DEFAULT 'distributor',
        lead_time_days INTEGER NOT NULL DEFAULT 7,
        reliability_score INTEGER NOT NULL DEFAULT 100,
        contact_person TEXT NOT NULL DEFAULT '',
        phone TEXT NOT NULL DEFAULT '',
        email TEXT NOT NULL DEFAULT '',
        address TEXT NOT NULL DEFAULT '',
        notes TEXT NOT NULL DEFAULT '',
        is_active INTEGER NOT NULL DEFAULT 1,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT`,
      'CREATE INDEX suppliers_name ON suppliers(is_active, name COLLATE NOCASE)',
      'CREATE INDEX suppliers_tax ON suppliers(tax_number)',
      `CREATE TABLE batches (
        id TEXT PRIMARY KEY,
        medicine_id TEXT NOT NULL REFERENCES medicines(id),
        branch_id TEXT NOT NULL REFERENCES branches(id),
        batch_number TEXT NOT NULL,
        expiry_date TEXT NOT NULL CHECK (expiry_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
        qty_received INTEGER NOT NULL DEFAULT 0,
        qty_on_hand INTEGER NOT NULL DEFAULT 0,
        unit_cost INTEGER NOT NULL CHECK (unit_cost >= 0),
        supplier_id TEXT REFERENCES suppliers(id),
        regulator_status TEXT NOT NULL DEFAULT 'active'
          CHECK (regulator_status IN ('quarantined', 'active', 'recalled')),
        received_at TEXT NOT NULL,
        received_by TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (medicine_id, branch_id, batch_number)
      ) STRICT`,
      // Covering for FEFO, branch stock sums and the count sheet: a branch's batches are read from the index alone.
      'CREATE INDEX batches_fefo ON batches(branch_id, medicine_id, expiry_date, regulator_status, qty_on_hand, batch_number, id)',
      'CREATE INDEX batches_branch_expiry ON batches(branch_id, expiry_date)',
      'CREATE INDEX batches_expiry ON batches(expiry_date)',
      'CREATE INDEX batches_received ON batches(branch_id, received_at)',
      'CREATE INDEX batches_supplier ON batches(supplier_id)',
      `CREATE TABLE stock_movements (
        id TEXT PRIMARY KEY,
        batch_id TEXT NOT NULL REFERENCES batches(id),
        branch_id TEXT NOT NULL REFERENCES branches(id),
        medicine_id TEXT NOT NULL REFERENCES medicines(id),
        type TEXT NOT NULL CHECK (type IN
          ('purchase', 'sale', 'return', 'transfer_out', 'transfer_in', 'adjustment', 'write_off', 'count')),
        quantity INTEGER NOT NULL CHECK (quantity <> 0),
        reference_type TEXT,
        reference_id TEXT,
        user_id TEXT,
        reason TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL
      ) STRICT`,
      'CREATE INDEX stock_movements_batch ON stock_movements(batch_id)',
      'CREATE INDEX stock_movements_medicine ON stock_movements(medicine_id, created_at)',
      'CREATE INDEX stock_movements_branch ON stock_movements(branch_id, created_at)',
      'CREATE INDEX stock_movements_reference ON stock_movements(reference_type, reference_id)',
      ...appendOnly('stock_movements'),
      `CREATE TABLE transfers (
        id TEXT PRIMARY KEY,
        from_branch_id TEXT NOT NULL REFERENCES branches(id),
        to_branch_id TEXT NOT NULL REFERENCES branches(id),
        status TEXT NOT NULL DEFAULT 'completed',
        notes TEXT NOT NULL DEFAULT '',
        created_by TEXT,
        created_at TEXT NOT NULL,
        CHECK (from_branch_id <> to_branch_id)
      ) STRICT`,
      'CREATE INDEX transfers_from ON transfers(from_branch_id, created_at)',
      'CREATE INDEX transfers_to ON transfers(to_branch_id, created_at)',
      `CREATE TABLE transfer_items (
        id TEXT PRIMARY KEY,
        transfer_id TEXT NOT NULL REFERENCES transfers(id),
        medicine_id TEXT NOT NULL REFERENCES medicines(id),
        from_batch_id TEXT NOT NULL REFERENCES batches(id),
        to_batch_id TEXT NOT NULL REFERENCES batches(id),
        quantity INTEGER NOT NULL CHECK (quantity > 0),
        unit_cost INTEGER NOT NULL
      ) STRICT`,
      'CREATE INDEX transfer_items_transfer ON transfer_items(transfer_id)',
      `CREATE TABLE stock_counts (
        id TEXT PRIMARY KEY,
        branch_id TEXT NOT NULL REFERENCES branches(id),
        counted_by TEXT NOT NULL,
        approval_id TEXT,
        notes TEXT NOT NULL DEFAULT '',
        lines_counted INTEGER NOT NULL,
        lines_with_variance INTEGER NOT NULL,
        total_variance INTEGER NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT`,
      'CREATE INDEX stock_counts_branch ON stock_counts(branch_id, created_at)',
      `CREATE TABLE stock_count_lines (
        id TEXT PRIMARY KEY,
        stock_count_id TEXT NOT NULL REFERENCES stock_counts(id),
        batch_id TEXT NOT NULL REFERENCES batches(id),
        medicine_id TEXT NOT NULL REFERENCES medicines(id),
        expected_qty INTEGER NOT NULL,
        counted_qty INTEGER NOT NULL,
        variance INTEGER NOT NULL
      ) STRICT`,
      'CREATE INDEX stock_count_lines_count ON stock_count_lines(stock_count_id)',
      `CREATE TABLE branding_assets (
        name TEXT PRIMARY KEY,
        image_key TEXT NOT NULL,
        updated_by TEXT,
        updated_at TEXT NOT NULL
      ) STRICT`,
    ]);
  },
};

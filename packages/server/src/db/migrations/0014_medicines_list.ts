import type { Migration } from 'kysely';
import { runStatements, sqliteOnly } from './run-statements';

/**
 * The back office's Medicines table (issue 17): sortable by generic name, category and price as fast as by
 * name (one index each, led by is_active as the list filters on it), and its total without counting 100,000
 * index entries per page: `medicine_counts` holds how many medicines are active and inactive, kept by
 * triggers in the writing transaction (like the FTS index), so every write path (REST, sync pull, snapshot
 * swap, demo generator) keeps it true.
 *
 * `list_versions` says when a page of that list may have changed: 'medicines' for any change to the
 * catalogue, 'stock:<branch>' for any change to a branch's batches. The triggers set a random value, never a
 * counter: a rolled-back write restores the old value, and a later write must not reproduce the value a read
 * saw inside the rolled-back transaction.
 */
export const medicinesList: Migration = {
  async up(db) {
    await runStatements(db, [
      'CREATE INDEX medicines_active_generic ON medicines(is_active, generic_name COLLATE NOCASE)',
      'CREATE INDEX medicines_active_category ON medicines(is_active, category, name COLLATE NOCASE)',
      'CREATE INDEX medicines_active_price ON medicines(is_active, selling_price)',
      'CREATE TABLE medicine_counts (is_active INTEGER PRIMARY KEY, n INTEGER NOT NULL) STRICT',
      sqliteOnly('INSERT INTO medicine_counts (is_active, n) VALUES (0, 0), (1, 0)'),
      sqliteOnly(
        'UPDATE medicine_counts SET n = (SELECT count(*) FROM medicines m WHERE m.is_active = medicine_counts.is_active)',
      ),
      sqliteOnly(`CREATE TRIGGER medicine_counts_insert AFTER INSERT ON medicines BEGIN
        UPDATE medicine_counts SET n = n + 1 WHERE is_active = NEW.is_active;
      END`),
      sqliteOnly(`CREATE TRIGGER medicine_counts_delete AFTER DELETE ON medicines BEGIN
        UPDATE medicine_counts SET n = n - 1 WHERE is_active = OLD.is_active;
      END`),
      sqliteOnly(`CREATE TRIGGER medicine_counts_update AFTER UPDATE OF is_active ON medicines
        WHEN OLD.is_active IS NOT NEW.is_active BEGIN
        UPDATE medicine_counts SET n = n - 1 WHERE is_active = OLD.is_active;
        UPDATE medicine_counts SET n = n + 1 WHERE is_active = NEW.is_active;
      END`),
      'CREATE TABLE list_versions (key TEXT PRIMARY KEY, v INTEGER NOT NULL) STRICT',
      sqliteOnly("INSERT INTO list_versions (key, v) VALUES ('medicines', random())"),
      sqliteOnly("INSERT INTO list_versions (key, v) SELECT 'stock:' || id, random() FROM branches"),
      sqliteOnly(`CREATE TRIGGER list_versions_medicine_insert AFTER INSERT ON medicines BEGIN
        UPDATE list_versions SET v = random() WHERE key = 'medicines';
      END`),
      sqliteOnly(`CREATE TRIGGER list_versions_medicine_update AFTER UPDATE ON medicines BEGIN
        UPDATE list_versions SET v = random() WHERE key = 'medicines';
      END`),
      sqliteOnly(`CREATE TRIGGER list_versions_medicine_delete AFTER DELETE ON medicines BEGIN
        UPDATE list_versions SET v = random() WHERE key = 'medicines';
      END`),
      // No INSERT OR IGNORE here: an outer upsert (the sync write path) overrides a trigger's conflict clause.
      sqliteOnly(`CREATE TRIGGER list_versions_batch_insert AFTER INSERT ON batches BEGIN
        INSERT INTO list_versions (key, v) SELECT 'stock:' || NEW.branch_id, 0
          WHERE NOT EXISTS (SELECT 1 FROM list_versions WHERE key = 'stock:' || NEW.branch_id);
        UPDATE list_versions SET v = random() WHERE key = 'stock:' || NEW.branch_id;
      END`),
      sqliteOnly(`CREATE TRIGGER list_versions_batch_update AFTER UPDATE ON batches BEGIN
        INSERT INTO list_versions (key, v) SELECT 'stock:' || NEW.branch_id, 0
          WHERE NOT EXISTS (SELECT 1 FROM list_versions WHERE key = 'stock:' || NEW.branch_id);
        UPDATE list_versions SET v = random() WHERE key IN ('stock:' || OLD.branch_id, 'stock:' || NEW.branch_id);
      END`),
      sqliteOnly(`CREATE TRIGGER list_versions_batch_delete AFTER DELETE ON batches BEGIN
        UPDATE list_versions SET v = random() WHERE key = 'stock:' || OLD.branch_id;
      END`),
    ]);
  },
};

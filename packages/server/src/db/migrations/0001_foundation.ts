import type { Migration } from 'kysely';
import { appendOnly, runStatements } from './run-statements';

export const foundation: Migration = {
  async up(db) {
    await runStatements(db, [
      // COLLATE NOCASE on PostgreSQL: a case-insensitive (and accent-sensitive) ICU collation of that name.
      {
        sqlite: null,
        postgres:
          "CREATE COLLATION IF NOT EXISTS nocase (provider = icu, locale = 'und-u-ks-level2', deterministic = false)",
      },
      `CREATE TABLE currencies (
        code TEXT PRIMARY KEY CHECK (length(code) = 3),
        name TEXT NOT NULL,
        symbol TEXT NOT NULL,
        exponent INTEGER NOT NULL CHECK (exponent BETWEEN 0 AND 4),
        is_active INTEGER NOT NULL DEFAULT 1,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT`,
      `CREATE TABLE branches (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE,
        code TEXT NOT NULL UNIQUE,
        address TEXT NOT NULL DEFAULT '',
        phone TEXT NOT NULL DEFAULT '',
        vat_number TEXT NOT NULL DEFAULT '',
        currency_code TEXT NOT NULL REFERENCES currencies(code),
        timezone TEXT NOT NULL,
        is_active INTEGER NOT NULL DEFAULT 1,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT`,
      `CREATE TABLE users (
        id TEXT PRIMARY KEY,
        branch_id TEXT NOT NULL REFERENCES branches(id),
        email TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        full_name TEXT NOT NULL,
        phone TEXT NOT NULL DEFAULT '',
        role TEXT NOT NULL,
        is_active INTEGER NOT NULL DEFAULT 1,
        token_version INTEGER NOT NULL DEFAULT 0,
        must_change_password INTEGER NOT NULL DEFAULT 0,
        last_login_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT`,
      'CREATE INDEX users_branch ON users(branch_id, full_name)',
      `CREATE TABLE exchange_rates (
        id TEXT PRIMARY KEY,
        from_code TEXT NOT NULL REFERENCES currencies(code),
        to_code TEXT NOT NULL REFERENCES currencies(code),
        rate TEXT NOT NULL,
        effective_at TEXT NOT NULL,
        source TEXT NOT NULL DEFAULT 'manual',
        created_by TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT`,
      'CREATE INDEX exchange_rates_pair ON exchange_rates(from_code, to_code, effective_at)',
      `CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        updated_by TEXT
      ) STRICT`,
      `CREATE TABLE audit_log (
        id TEXT PRIMARY KEY,
        user_id TEXT,
        action TEXT NOT NULL,
        entity TEXT NOT NULL,
        entity_id TEXT,
        branch_id TEXT,
        before_json TEXT,
        after_json TEXT,
        request_id TEXT,
        created_at TEXT NOT NULL
      ) STRICT`,
      'CREATE INDEX audit_log_entity ON audit_log(entity, entity_id)',
      'CREATE INDEX audit_log_branch ON audit_log(branch_id, created_at)',
      'CREATE INDEX audit_log_created ON audit_log(created_at)',
      ...appendOnly('audit_log'),
      `CREATE TABLE change_log (
        revision INTEGER PRIMARY KEY AUTOINCREMENT,
        entity TEXT NOT NULL,
        entity_id TEXT NOT NULL,
        op TEXT NOT NULL CHECK (op IN ('upsert', 'delete')),
        payload TEXT NOT NULL,
        branch_id TEXT,
        origin_device_id TEXT,
        client_mutation_id TEXT,
        from_remote INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL
      ) STRICT`,
      'CREATE INDEX change_log_entity ON change_log(entity, entity_id)',
      `CREATE TABLE marketing_contacts (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        email TEXT NOT NULL,
        phone TEXT NOT NULL DEFAULT '',
        company TEXT NOT NULL DEFAULT '',
        message TEXT NOT NULL,
        client_address TEXT,
        created_at TEXT NOT NULL
      ) STRICT`,
    ]);
  },
};

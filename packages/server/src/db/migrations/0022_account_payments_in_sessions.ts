import type { Migration } from 'kysely';
import { runStatements } from './run-statements';

/**
 * A payment on a customer's account is money taken at the till: its ledger row names the cash session it was
 * taken in and the tender (cash, card, mobile money, bank transfer), so the session's X and Z list it and its
 * expected cash counts the cash. Rows written before (and SALE/REFUND rows) keep both null.
 */
export const accountPaymentsInSessions: Migration = {
  async up(db) {
    await runStatements(db, [
      'ALTER TABLE customer_ledger ADD COLUMN session_id TEXT',
      'ALTER TABLE customer_ledger ADD COLUMN tender TEXT',
      'CREATE INDEX customer_ledger_session ON customer_ledger(session_id) WHERE session_id IS NOT NULL',
    ]);
  },
};

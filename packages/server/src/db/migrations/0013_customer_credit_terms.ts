import type { Migration } from 'kysely';
import { runStatements } from './run-statements';

/**
 * Who last set a customer's credit terms (credit_limit, is_credit_allowed): a branch manager or an admin, as
 * the REST route requires. Replicated with the customer, so central takes a till's credit grant only when it
 * names someone allowed to make it (docs/SECURITY.md, Sync).
 */
export const customerCreditTerms: Migration = {
  async up(db) {
    await runStatements(db, ['ALTER TABLE customers ADD COLUMN credit_terms_by TEXT']);
  },
};

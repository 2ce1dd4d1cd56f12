import type { Migration } from 'kysely';
import { runStatements } from './run-statements';

/**
 * Reports net the credit notes of their window out of every revenue and VAT figure, reading returns by the
 * date they were refunded; an organisation-wide window has no branch to lead with, so it needs this index.
 */
export const returnsByRefundDate: Migration = {
  async up(db) {
    await runStatements(db, ['CREATE INDEX returns_created ON returns(created_at)']);
  },
};

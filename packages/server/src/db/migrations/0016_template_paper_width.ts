import type { Migration } from 'kysely';
import { runStatements } from './run-statements';

/**
 * Receipt templates per paper width: a template names the width it is for (58 or 80 mm), or none (null: both
 * widths, what every template saved before this was). One default per scope, document type and width; a
 * printer prints with its width's default, else the both-widths one.
 */
export const templatePaperWidth: Migration = {
  async up(db) {
    await runStatements(db, [
      'ALTER TABLE receipt_templates ADD COLUMN paper_width_mm INTEGER CHECK (paper_width_mm IS NULL OR paper_width_mm IN (58, 80))',
      'DROP INDEX receipt_templates_one_default',
      "CREATE UNIQUE INDEX receipt_templates_one_default ON receipt_templates(coalesce(branch_id, ''), document_type, coalesce(paper_width_mm, 0)) WHERE is_default = 1",
    ]);
  },
};

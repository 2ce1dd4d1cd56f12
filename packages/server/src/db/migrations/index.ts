import type { Migration } from 'kysely';
import { foundation } from './0001_foundation';

/**
 * Forward-only, numbered, imported statically: a packaged app cannot read a migrations folder at run time.
 * Append new migrations at the end; never edit or reorder one that has shipped.
 */
export const MIGRATIONS: Record<string, Migration> = {
  '0001_foundation': foundation,
};

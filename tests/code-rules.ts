/** Patterns the structure test and scripts/structure-counts.ts both look for in source text. */

/**
 * Lines of a source that ask which engine they run on (dialectOf, isPostgres, PostgresAdapter, `.dialect ===`),
 * comments left out. Only db/ and each area's store.ts may (docs/ARCHITECTURE.md, "Two databases, one server").
 */
export function dialectChecks(source: string): number[] {
  const code = source
    .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '))
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const check = /\b(?:dialectOf|isPostgres|PostgresAdapter)\b|\.dialect\s*[!=]==?/;
  return code.split('\n').flatMap((line, i) => (check.test(line) ? [i + 1] : []));
}

const ROLE = "'(?:admin|pharmacist|cashier|branch_manager|inventory_manager|auditor)'";
/** An array literal of role names, e.g. `['cashier', 'pharmacist']`: a role set without a name. */
export const ROLE_LITERAL = new RegExp(`\\[\\s*${ROLE}(?:\\s*,\\s*${ROLE})*\\s*,?\\s*\\]`, 'g');

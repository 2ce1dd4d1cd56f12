/**
 * Patterns the structure test (tests/structure.test.ts) and scripts/structure-counts.ts both look for in source
 * text: each rule is written here once.
 */

/**
 * Lines of a source that ask which engine they run on, comments left out: dialectOf, isPostgres,
 * PostgresAdapter, `.dialect ===`; a connection's `.kind === 'sqlite'` or `'postgres'`; and a SQLite handle
 * tested for being there (`if (app.sqlite)`, `!sqlite`, `app.sqlite?.prepare`, `sqlite ? … : …`, `sqlite &&`,
 * `sqlite === null`). Using a handle that is there (`c.sqlite.prepare`) or passing it on is no question. Only
 * db/ and each area's store.ts may ask (docs/ARCHITECTURE.md, "Two databases, one server").
 */
export function dialectChecks(source: string): number[] {
  const code = source
    .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '))
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const checks = [
    /\b(?:dialectOf|isPostgres|PostgresAdapter)\b|\.dialect\s*[!=]==?/,
    /\.kind\s*[!=]==?\s*['"](?:sqlite|postgres)['"]/,
    /(?:!\s*|\bif\s*\(\s*)(?:[\w$]+\??\.)*sqlite\b(?!\s*\(|\.)/,
    /\bsqlite\s*(?:\?|&&|\|\||[!=]==?)/,
  ];
  return code.split('\n').flatMap((line, i) => (checks.some((c) => c.test(line)) ? [i + 1] : []));
}

/** Where a server file may ask which engine it runs on: db/ and each area's store.ts. */
export const mayAskDialect = (file: string): boolean =>
  file.startsWith('packages/server/src/db/') ||
  /^packages\/server\/src\/modules\/[^/]+\/store\.ts$/.test(file);

const ROLE = "'(?:admin|pharmacist|cashier|branch_manager|inventory_manager|auditor)'";
/** An array literal of role names, e.g. `['cashier', 'pharmacist']`: a role set without a name. */
export const ROLE_LITERAL = new RegExp(`\\[\\s*${ROLE}(?:\\s*,\\s*${ROLE})*\\s*,?\\s*\\]`, 'g');

/** The files where role sets are named (and the generated paths list, which quotes them). */
export const ROLE_SET_HOMES: readonly string[] = [
  'packages/contracts/src/roles.ts',
  'packages/contracts/src/api-paths.ts',
];

/** How many role-array literals a source holds. */
export const roleLiterals = (source: string): number => source.match(ROLE_LITERAL)?.length ?? 0;

/** How many `as unknown as` casts a source holds (a type forced past what the checker knows). */
export const doubleCasts = (source: string): number => source.match(/\bas unknown as\b/g)?.length ?? 0;

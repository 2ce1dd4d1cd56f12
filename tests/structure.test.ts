import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dialectChecks, doubleCasts, mayAskDialect, ROLE_SET_HOMES, roleLiterals } from './code-rules';
import { functionLengths, longFunctions } from './function-length';
import { areaOf, circles, importGraph, importsBackUp, mutualAreas } from './import-graph';
import { contractsRunByUi, valueImports } from './ui-imports';

/**
 * The structure rules of docs/ARCHITECTURE.md, checked on every run (madge 8 needs TypeScript 5's compiler
 * API; this repo is on TypeScript 7, so the graph is read from the import statements here).
 */
const ROOT = path.resolve(import.meta.dirname, '..');
/** The longest a function in modules/ or the till UI may be (issue 19: short functions). */
const MAX_FUNCTION_LINES = 150;
/** The longest a production source file may be (issue 30: split by responsibility past it). */
const MAX_FILE_LINES = 450;
const graph = importGraph(ROOT, [
  'packages/contracts/src',
  'packages/hardware/src',
  'packages/sync/src',
  'packages/server/src',
  'apps/pos/src',
  'apps/desktop/src',
  'apps/central/src',
]);
const importsOf = (prefix: string) =>
  [...graph.edges]
    .filter(([file]) => file.startsWith(prefix))
    .flatMap(([file, targets]) => targets.map((t) => `${file} -> ${t}`));

/** Production files outside db/ and the stores that still ask, until their area has its store: none. */
const DIALECT_ALLOWED: string[] = [];

describe('structure', () => {
  it('has no import circles, type-only imports included', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('keeps db/, http/, lib/ and storage/ below the feature areas: none of them imports modules/', () => {
    for (const floor of ['db', 'http', 'lib', 'storage']) {
      const up = importsOf(`packages/server/src/${floor}/`).filter((e) =>
        e.includes(' -> packages/server/src/modules/'),
      );
      expect(up, floor).toEqual([]);
    }
  });

  it('keeps the packages on their floors: each imports only the packages below it (tests and testing/ aside)', () => {
    const below: Record<string, readonly string[]> = {
      'packages/contracts': [],
      'packages/hardware': ['contracts'],
      'packages/sync': ['contracts'],
      'packages/server': ['contracts', 'hardware', 'sync'],
      'apps/pos': ['contracts'],
      'apps/desktop': ['contracts', 'server'],
      'apps/central': ['server'],
    };
    const packageOf = (file: string) => file.split('/').slice(0, 2).join('/');
    const isTest = (file: string) => /\.test\.tsx?$/.test(file) || file.includes('/testing/');
    const upward: string[] = [];
    let seen = 0;
    for (const [file, targets] of graph.edges) {
      if (isTest(file)) continue;
      const allowed = below[packageOf(file)] ?? [];
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      for (const m of text.matchAll(/from '@pharmacy\/([a-z-]+)/g)) {
        seen++;
        if (!allowed.includes(m[1] as string)) upward.push(`${file} -> @pharmacy/${m[1]}`);
      }
      // A relative path into another package is the same import by another door.
      for (const t of targets)
        if (packageOf(t) !== packageOf(file)) upward.push(`${file} -> ${t} (by a relative path)`);
    }
    expect(seen).toBeGreaterThan(300);
    expect(upward).toEqual([]);
  });

  it('keeps lib/ below db/ and http/, and db/ below http/, inside the server', () => {
    const into = (from: string, to: string) =>
      importsOf(`packages/server/src/${from}/`).filter((e) => e.includes(` -> packages/server/src/${to}/`));
    expect([...into('lib', 'db'), ...into('lib', 'http'), ...into('db', 'http')]).toEqual([]);
    expect(
      importsOf('packages/server/src/http/').some((e) => e.includes(' -> packages/server/src/lib/')),
    ).toBe(true);
  });

  it('keeps folders on floors: no import runs back up one (492 before issue 30, 12 before 30.3; VERBOSE=1 npx tsx scripts/structure-counts.ts lists them)', () => {
    expect(importsBackUp(graph)).toEqual([]);
  });

  it('lets no two areas import each other (three pairs before issue 30.3)', () => {
    expect(mutualAreas(graph)).toEqual([]);
  });

  it('gives every area folder its own test file', () => {
    const modules = path.join(ROOT, 'packages/server/src/modules');
    const untested = fs
      .readdirSync(modules, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .filter((area) => !fs.readdirSync(path.join(modules, area)).some((f) => f.endsWith('.test.ts')));
    expect(untested).toEqual([]);
  });

  it("keeps hardware's test support out of production: only tests and testing/ import @pharmacy/hardware/testing", () => {
    const importsTesting = (file: string) =>
      fs.readFileSync(path.join(ROOT, file), 'utf8').includes("from '@pharmacy/hardware/testing'") ||
      (graph.edges.get(file) ?? []).some((t) => t.startsWith('packages/hardware/src/testing/'));
    const isTest = (file: string) => /\.test\.tsx?$/.test(file) || file.includes('/testing/');
    const files = [...graph.edges.keys()];
    expect(files.filter((f) => !isTest(f) && importsTesting(f))).toEqual([]);
    expect(files.filter((f) => isTest(f) && importsTesting(f)).length).toBeGreaterThan(5);
  });

  it("keeps sync's test support out of production: only tests and testing/ import @pharmacy/sync/testing, and no other test of the server or sync sleeps in a loop", () => {
    const importsTesting = (file: string) =>
      fs.readFileSync(path.join(ROOT, file), 'utf8').includes("from '@pharmacy/sync/testing'") ||
      (graph.edges.get(file) ?? []).some((t) => t.startsWith('packages/sync/src/testing/'));
    const isTest = (file: string) => /\.test\.tsx?$/.test(file) || file.includes('/testing/');
    const files = [...graph.edges.keys()];
    expect(files.filter((f) => !isTest(f) && importsTesting(f))).toEqual([]);
    expect(files.filter((f) => isTest(f) && importsTesting(f)).length).toBeGreaterThan(10);
    // One polling helper (testing/eventually.ts): no other test of the server or sync sleeps in a loop.
    const pollLoop = /(?:for\s*\(\s*;;\s*\)|for\s*\(\s*let\b|while\s*\()[^\n]*(?:\n[^\n]*){0,7}?setTimeout\(/;
    expect(
      pollLoop.test(
        'for (;;) {\n  const v = await fn();\n  if (v) return v;\n  await new Promise((r) => setTimeout(r, 100));',
      ),
    ).toBe(true);
    expect(
      pollLoop.test('for (let i = 0; i < 50 && !open; i++)\n  await new Promise((r) => setTimeout(r, 100));'),
    ).toBe(true);
    expect(
      pollLoop.test("for (const code of ['A', 'B']) {\n  await new Promise((r) => setTimeout(r, 1_100));"),
    ).toBe(false);
    expect(
      files
        .filter((f) => /^packages\/(server|sync)\/src\//.test(f) && isTest(f))
        .filter((f) => f !== 'packages/sync/src/testing/eventually.ts')
        .filter((f) => pollLoop.test(fs.readFileSync(path.join(ROOT, f), 'utf8'))),
    ).toEqual([]);
  });

  it("keeps the server's test support out of production: no file under packages/server/src outside tests and testing/ imports testing/", () => {
    const isTest = (file: string) => /\.test\.tsx?$/.test(file) || file.includes('/testing/');
    const server = [...graph.edges].filter(([file]) => file.startsWith('packages/server/src/'));
    const intoTesting = (targets: string[]) =>
      targets.some((t) => t.startsWith('packages/server/src/testing/'));
    expect(server.filter(([file, targets]) => !isTest(file) && intoTesting(targets)).map(([f]) => f)).toEqual(
      [],
    );
    expect(server.filter(([file, targets]) => isTest(file) && intoTesting(targets)).length).toBeGreaterThan(
      20,
    );
  });

  it('keeps zod out of the till UI: what apps/pos/src runs of @pharmacy/contracts builds no schema (the root index built every one: about 0.25 s of CPU a page load, 190 KB of the bundle)', () => {
    const run = contractsRunByUi(ROOT);
    expect(run).toContain('packages/contracts/src/roles.ts');
    const withSchemas = run.filter((file) =>
      valueImports(fs.readFileSync(path.join(ROOT, file), 'utf8')).includes('zod'),
    );
    expect(withSchemas).toEqual([]);
  });

  it('reads which imports run: type-only ones are erased, re-exports and side-effect imports run', () => {
    const source = [
      "import type { A } from './a';",
      "import { type B, type C } from './b';",
      "import { type D, e } from './d';",
      "export * from './f';",
      "export type { G } from './g';",
      "import './h';",
      'import {',
      '  i,',
      "} from 'zod';",
    ].join('\n');
    expect(valueImports(source)).toEqual(['./d', './f', './h', 'zod']);
  });

  it('keeps one copy of each UI hook: no two use*.ts(x) files in apps/pos/src share a name', () => {
    const hooks = [...graph.edges.keys()]
      .filter((f) => f.startsWith('apps/pos/src/') && /\/use[A-Z]\w*\.tsx?$/.test(f))
      .map((f) => path.basename(f).replace(/\.tsx?$/, ''));
    expect(hooks.length).toBeGreaterThan(10);
    expect(hooks.filter((name, i) => hooks.indexOf(name) !== i)).toEqual([]);
  });

  it('names its role sets: none in production files and at most 9 role-array literals in tests outside contracts/roles.ts (179 before issue 30, 44 before 30.3)', () => {
    expect(
      roleLiterals(
        "roles: ['branch_manager', 'auditor'], x: [\n  'cashier',\n  'pharmacist',\n], y: ['other']",
      ),
    ).toBe(2);
    const holding = [...graph.edges.keys()]
      .filter((f) => !ROLE_SET_HOMES.includes(f))
      .map((f) => ({ f, n: roleLiterals(fs.readFileSync(path.join(ROOT, f), 'utf8')) }))
      .filter((x) => x.n > 0);
    // Production files name every set; a test may list the roles it tries one by one.
    expect(holding.filter((x) => !/\.test\.tsx?$/.test(x.f)).map((x) => x.f)).toEqual([]);
    expect(holding.reduce((sum, x) => sum + x.n, 0)).toBeLessThanOrEqual(9);
  });

  it("forces no type past the checker: no production file holds 'as unknown as' (10 before issue 30's last clean-up)", () => {
    expect(
      doubleCasts('const a = b as unknown as C; const d = e as unknown as F<G>; const h = i as J;'),
    ).toBe(2);
    const found = [...graph.edges.keys()]
      .filter((f) => !/\.test\.tsx?$/.test(f))
      .filter((f) => doubleCasts(fs.readFileSync(path.join(ROOT, f), 'utf8')) > 0);
    expect(found).toEqual([]);
  });

  it('keeps the dialect behind db/ and the area stores: no other production file under packages/server/src asks which engine it runs on', () => {
    expect(
      dialectChecks(
        "const a = isPostgres(db) ? 1 : 2; // isPostgres(x) in a comment\nif (w.dialect === 'postgres') x();",
      ),
    ).toEqual([1, 2]);
    expect(
      dialectChecks("/* dialectOf(db) */ import { PostgresAdapter } from 'kysely';\nt.dialect !== 'sqlite'"),
    ).toEqual([1, 2]);
    expect(dialectChecks("const url = 'postgres://x'; smallerOf(trx, a, b); // dialectOf(trx)")).toEqual([]);
    expect(
      dialectChecks(
        [
          'if (app.sqlite) await skipDemoChanges(app.db);',
          "const statement = app.sqlite?.prepare('SELECT 1');",
          'if (!sqlite) return undefined;',
          "sqlite: conn.kind === 'sqlite' ? conn.sqlite : null,",
          "conn.kind !== 'postgres' && url",
          'const h = app.sqlite ? fast() : slow();',
          'return target.sqlite === null;',
        ].join('\n'),
      ),
    ).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(
      dialectChecks(
        [
          "const insert = c.sqlite.prepare('INSERT INTO x VALUES (?)');",
          "import { sqliteSyncStore } from './store.sqlite';",
          "new SqliteMedicineStore(app.db, requireSqlite(app, 'the store'));",
          'sqlite: sqliteOf(conn),',
          "if (doc.kind === 'invoice') x(); // if (app.sqlite)",
        ].join('\n'),
      ),
    ).toEqual([]);
    const found = [...graph.edges.keys()]
      .filter(
        (f) => f.startsWith('packages/server/src/') && !/\.test\.tsx?$/.test(f) && !f.includes('/testing/'),
      )
      .filter((f) => !mayAskDialect(f))
      .filter((f) => !DIALECT_ALLOWED.includes(f))
      .flatMap((f) =>
        dialectChecks(fs.readFileSync(path.join(ROOT, f), 'utf8')).map((line) => `${f}:${line}`),
      );
    expect(found).toEqual([]);
  });

  it('reads the graph it checks (a known edge is found)', () => {
    expect(graph.edges.get('packages/server/src/modules/sales/routes.ts')).toContain(
      'packages/server/src/modules/sales/service.ts',
    );
    expect(areaOf('packages/server/src/modules/sales/routes.ts')).toBe('sales');
  });

  it('has no function over 150 lines in packages/server/src/modules or apps/pos/src', () => {
    const long = longFunctions(ROOT, ['packages/server/src/modules', 'apps/pos/src'], MAX_FUNCTION_LINES).map(
      (f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`,
    );
    expect(long).toEqual([]);
  });

  it('has no production file over 450 lines in any package or app (tests and the generated api-paths.ts aside)', () => {
    const files = [...graph.edges.keys()].filter(
      (f) => !/\.test\.tsx?$/.test(f) && !f.endsWith('/api-paths.ts'),
    );
    expect(files).toContain('packages/server/src/modules/sales/routes.ts');
    expect(files).toContain('apps/pos/src/sell/SellScreen.tsx');
    expect(files).toContain('packages/contracts/src/client.ts');
    expect(files).toContain('packages/contracts/src/sync-payloads.ts');
    expect(files.some((f) => f.endsWith('.test.ts'))).toBe(false);
    const long = files.flatMap((f) => {
      const lines = fs.readFileSync(path.join(ROOT, f), 'utf8').replace(/\n$/, '').split('\n').length;
      return lines > MAX_FILE_LINES ? [`${f} (${lines} lines)`] : [];
    });
    expect(long).toEqual([]);
  });

  it("computes a page's rows in one place: no production file of packages/server/src but db/paginate.ts writes (page - 1)", () => {
    const pageMath = /\bpage\s*-\s*1\b/;
    expect(pageMath.test('offset: (f.page - 1) * f.page_size')).toBe(true);
    expect(pageMath.test('const last = pages - 1;')).toBe(false);
    const found = [...graph.edges.keys()]
      .filter(
        (f) => f.startsWith('packages/server/src/') && !/\.test\.tsx?$/.test(f) && !f.includes('/testing/'),
      )
      .filter((f) => f !== 'packages/server/src/db/paginate.ts')
      .filter((f) => pageMath.test(fs.readFileSync(path.join(ROOT, f), 'utf8')));
    expect(found).toEqual([]);
  });

  it('measures functions from their declaration to their closing brace, whatever the text inside', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  total += ${i};`).join('\n');
    const fixture = [
      'export function declared() {', // 1
      body(149), // 2-150
      '}', // 151
      'const arrow = async (x: number): Promise<number> => {', // 152
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the fixture's source holds a template literal
      "  const s = '}}}'; const t = `${'{'}`; const r = /\\}/; // }",
      '  /* } */ return x;',
      '};', // 155
      'class Screen { render() {', // 156
      "  return <p>Don't close { early }</p>;",
      '} }', // 158
      'const table = { handler: (a: string) => {', // 159
      body(150),
      '} };', // 310
      'describe("unnamed callbacks count in their caller", () => {});',
    ].join('\n');
    const found = functionLengths(fixture, 'fixture.tsx').map((f) => `${f.name}:${f.line}:${f.lines}`);
    expect(found).toEqual(['declared:1:151', 'arrow:152:4', 'render:156:3', 'handler:159:152']);
    const tooLong = functionLengths(fixture, 'fixture.tsx').filter((f) => f.lines > MAX_FUNCTION_LINES);
    expect(tooLong.map((f) => f.name)).toEqual(['declared', 'handler']);
  });
});

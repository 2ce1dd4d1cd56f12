/**
 * The structure figures issue 30 asks for, for a checkout (this one, or another given as the argument):
 * imports that run back up a floor, dialect checks outside db/ and the area stores, role-array literals,
 * `as unknown as` casts, and source files over 450 lines.
 *
 *   npx tsx scripts/structure-counts.ts [checkout]
 *
 * "Back up a floor": see importsBackUp in tests/import-graph.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { dialectChecks, doubleCasts, mayAskDialect, ROLE_SET_HOMES, roleLiterals } from '../tests/code-rules';
import { folderOf, importGraph, importsBackUp } from '../tests/import-graph';

const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..'));
const graph = importGraph(root, [
  'packages/contracts/src',
  'packages/hardware/src',
  'packages/sync/src',
  'packages/server/src',
  'apps/pos/src',
  'apps/desktop/src',
  'apps/central/src',
]);
const isTest = (f: string) => /\.test\.tsx?$/.test(f);
const production = [...graph.edges.keys()].filter((f) => !isTest(f));
const read = (f: string) => fs.readFileSync(path.join(root, f), 'utf8');

const server = production.filter((f) => f.startsWith('packages/server/src/') && !f.includes('/testing/'));
const dialectSites = server
  .filter((f) => !mayAskDialect(f))
  .reduce((n, f) => n + dialectChecks(read(f)).length, 0);
const roleSets = production
  .filter((f) => !ROLE_SET_HOMES.includes(f))
  .reduce((n, f) => n + roleLiterals(read(f)), 0);
const casts = production.reduce((n, f) => n + doubleCasts(read(f)), 0);
const long = production.filter((f) => !f.endsWith('api-paths.ts') && read(f).split('\n').length > 450);

console.log(`checkout: ${root}`);
const arrows = importsBackUp(graph);
console.log(`imports running back up a floor: ${arrows.length}`);
if (process.env.VERBOSE) {
  const byPair = new Map<string, number>();
  for (const [f, t] of arrows)
    byPair.set(`${folderOf(f)} -> ${folderOf(t)}`, (byPair.get(`${folderOf(f)} -> ${folderOf(t)}`) ?? 0) + 1);
  for (const [pair, n] of [...byPair].sort((a, b) => b[1] - a[1])) console.log(`  ${n} ${pair}`);
}
console.log(`dialect checks outside db/ and the area stores: ${dialectSites}`);
console.log(`role-array literals outside contracts/roles.ts: ${roleSets}`);
console.log(`'as unknown as' casts in production files: ${casts}`);
console.log(`production files over 450 lines: ${long.length} ${long.join(', ')}`);

// Prints the gzipped size of the till's JavaScript and fails the build above the budget.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const BUDGET_KB = 400;
const assets = path.resolve(import.meta.dirname, '../dist/assets');
const files = fs.readdirSync(assets).filter((f) => f.endsWith('.js'));
let raw = 0;
let gzip = 0;
for (const file of files) {
  const bytes = fs.readFileSync(path.join(assets, file));
  raw += bytes.length;
  gzip += zlib.gzipSync(bytes, { level: 9 }).length;
}
const kb = (n) => (n / 1024).toFixed(1);
console.log(
  `Till UI JavaScript: ${files.length} file(s), ${kb(raw)} KB raw, ${kb(gzip)} KB gzipped (budget ${BUDGET_KB} KB)`,
);
if (gzip / 1024 > BUDGET_KB) {
  console.error(`Over the ${BUDGET_KB} KB budget: keep the till quick to load on old counter PCs.`);
  process.exit(1);
}

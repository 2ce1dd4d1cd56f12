import fs from 'node:fs';
import path from 'node:path';
import { resolveImport } from './import-graph';

/** An import or re-export statement: whether it is type-only, what it names, and from where. */
const STATEMENT =
  /(?:^|\n)\s*(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s+'([^']+)'|(?:^|\n)\s*import\s+'([^']+)'/g;

/**
 * The modules a source file loads when it runs: its imports and re-exports, less those the compiler erases
 * (`import type`, `export type`, and braces naming only `type` specifiers).
 */
export function valueImports(source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(STATEMENT)) {
    if (m[4]) {
      out.push(m[4]);
      continue;
    }
    if (m[1]) continue;
    const names = /^\{([^}]*)\}$/.exec((m[2] ?? '').trim())?.[1];
    const specifiers = names
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (specifiers?.every((s) => s.startsWith('type '))) continue;
    out.push(m[3] as string);
  }
  return out;
}

function productionFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    const file = path.join(entry.parentPath, entry.name);
    return entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/**
 * The files of packages/contracts/src that the till UI's production code runs, through the package's exports
 * and the relative value imports inside it (repo-relative, sorted).
 */
export function contractsRunByUi(root: string): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'packages/contracts/package.json'), 'utf8')) as {
    exports: Record<string, string>;
  };
  const entry = (spec: string) => {
    const sub = spec === '@pharmacy/contracts' ? '.' : `./${spec.slice('@pharmacy/contracts/'.length)}`;
    const target = pkg.exports[sub];
    return target ? path.join(root, 'packages/contracts', target) : null;
  };
  const queue = productionFiles(path.join(root, 'apps/pos/src'))
    .flatMap((file) => valueImports(fs.readFileSync(file, 'utf8')))
    .filter((spec) => spec === '@pharmacy/contracts' || spec.startsWith('@pharmacy/contracts/'))
    .map(entry)
    .filter((file): file is string => file !== null);
  const seen = new Set<string>();
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of valueImports(fs.readFileSync(file, 'utf8')))
      if (spec.startsWith('.')) {
        const target = resolveImport(file, spec);
        if (target) queue.push(target);
      }
  }
  return [...seen].map((file) => path.relative(root, file)).sort();
}

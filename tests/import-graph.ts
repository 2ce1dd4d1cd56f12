import fs from 'node:fs';
import path from 'node:path';

/** Source files of the workspace and the relative imports between them (type-only imports included). */
export interface ImportGraph {
  root: string;
  /** Repo-relative path -> repo-relative paths it imports. */
  edges: Map<string, string[]>;
}

const SOURCE = /\.(ts|tsx)$/;
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s+'(\.{1,2}\/[^']+)'|(?:^|\n)\s*import\s+'(\.{1,2}\/[^']+)'/g;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** The source file a relative import names, or null when there is none. */
export function resolveImport(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (SOURCE.test(candidate) && fs.existsSync(candidate)) return candidate;
  }
  return null;
}

export function importGraph(root: string, dirs: readonly string[]): ImportGraph {
  const edges = new Map<string, string[]>();
  for (const dir of dirs) {
    for (const file of sourceFiles(path.join(root, dir))) {
      const text = fs.readFileSync(file, 'utf8');
      const targets: string[] = [];
      for (const m of text.matchAll(IMPORT)) {
        const target = resolveImport(file, (m[1] ?? m[2]) as string);
        if (target) targets.push(path.relative(root, target));
      }
      edges.set(path.relative(root, file), targets);
    }
  }
  return { root, edges };
}

/** Strongly connected components with more than one file (Tarjan): each is an import circle. */
export function circles(graph: ImportGraph): string[][] {
  let index = 0;
  const stack: string[] = [];
  const onStack = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.edges.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, idx.get(w) as number));
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.edges.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.edges.keys()) if (!idx.has(v)) visit(v);
  return found;
}

/** The area folder of a server module file (`packages/server/src/modules/<area>/…`), or null. */
export function areaOf(file: string): string | null {
  const m = /^packages\/server\/src\/modules\/([^/]+)\//.exec(file);
  return m ? (m[1] as string) : null;
}

/** Pairs of module areas that import each other (production files only). */
export function mutualAreas(graph: ImportGraph): string[] {
  const deps = new Map<string, Set<string>>();
  for (const [file, targets] of graph.edges) {
    const a = areaOf(file);
    if (!a || file.endsWith('.test.ts')) continue;
    for (const target of targets) {
      const b = areaOf(target);
      if (b && b !== a) deps.set(a, (deps.get(a) ?? new Set()).add(b));
    }
  }
  const pairs = new Set<string>();
  for (const [a, bs] of deps)
    for (const b of bs) if (deps.get(b)?.has(a)) pairs.add([a, b].sort().join(' <-> '));
  return [...pairs].sort();
}

/**
 * A file's folder as the floors see it: packages/server/src/modules/<area>, packages/server/src/<folder>,
 * apps/pos/src/<folder>, …; a file in src/ itself (server.ts, api.ts) stands alone.
 */
export function folderOf(file: string): string {
  const parts = file.split('/');
  const src = parts.indexOf('src');
  const depth = parts[src + 1] === 'modules' ? 3 : 2;
  return parts.length - 1 < src + depth ? file : parts.slice(0, src + depth).join('/');
}

/**
 * Imports that run back up a floor: a production file's import of a file in another folder whose folder
 * imports, directly or not, the importer's folder (the two folders stand on no floor). Tests aside.
 */
export function importsBackUp(graph: ImportGraph): Array<readonly [string, string]> {
  const isTest = (f: string) => /\.test\.tsx?$/.test(f);
  const imports = [...graph.edges]
    .filter(([f]) => !isTest(f))
    .flatMap(([f, targets]) =>
      targets.filter((t) => !isTest(t) && folderOf(t) !== folderOf(f)).map((t) => [f, t] as const),
    );
  const next = new Map<string, Set<string>>();
  for (const [f, t] of imports) next.set(folderOf(f), (next.get(folderOf(f)) ?? new Set()).add(folderOf(t)));
  const reaches = (from: string, to: string): boolean => {
    const seen = new Set<string>();
    const todo = [from];
    while (todo.length) {
      const folder = todo.pop() as string;
      if (folder === to) return true;
      if (seen.has(folder)) continue;
      seen.add(folder);
      todo.push(...(next.get(folder) ?? []));
    }
    return false;
  };
  return imports.filter(([f, t]) => reaches(folderOf(t), folderOf(f)));
}

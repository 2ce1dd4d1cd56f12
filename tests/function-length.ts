import fs from 'node:fs';
import path from 'node:path';
import { parseAst } from 'rolldown/parseAst';

/**
 * Named functions and their length in lines, from the line that declares them to the line of their closing
 * brace: function declarations, functions and arrow functions assigned to a variable or an object property,
 * class and object methods (React components are one of these). Unnamed callbacks (`describe(…, () => {})`,
 * a transaction's body) count inside the function that holds them.
 *
 * TypeScript 7's package has no JavaScript compiler API (only the native binary behind an unstable IPC API),
 * so the source is parsed with oxc through rolldown's `parseAst`, which comes with Vite 8 (and so with
 * Vitest): a real TypeScript/TSX parser, so strings, templates, regular expressions and JSX text holding
 * braces or quotes cannot confuse the count.
 */
export interface FunctionLength {
  file: string;
  name: string;
  line: number;
  lines: number;
}

interface AstNode {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

const FUNCTION_TYPES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

function isNode(value: unknown): value is AstNode {
  return typeof value === 'object' && value !== null && typeof (value as AstNode).type === 'string';
}

function keyName(key: unknown): string {
  if (!isNode(key)) return '?';
  if (key.type === 'Identifier' || key.type === 'PrivateIdentifier') return String(key.name);
  if (key.type === 'Literal') return String(key.value);
  return '[computed]';
}

/** The name and declaring node of a named function, or null for an unnamed callback. */
function namedFunction(node: AstNode): { name: string; from: AstNode; fn: AstNode } | null {
  if (node.type === 'FunctionDeclaration' && isNode(node.id))
    return { name: keyName(node.id), from: node, fn: node };
  if (node.type === 'VariableDeclarator' && isNode(node.init) && FUNCTION_TYPES.has(node.init.type)) {
    return { name: keyName(node.id), from: node, fn: node.init };
  }
  if (
    (node.type === 'MethodDefinition' || node.type === 'Property' || node.type === 'PropertyDefinition') &&
    isNode(node.value) &&
    FUNCTION_TYPES.has(node.value.type)
  ) {
    return { name: keyName(node.key), from: node, fn: node.value };
  }
  return null;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

function lineOf(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** Every named function of one source text with its length in lines. */
export function functionLengths(text: string, file = 'source.tsx'): FunctionLength[] {
  const lang = file.endsWith('.tsx') ? 'tsx' : 'ts';
  const program = parseAst(text, { lang, sourceType: 'module' }, file) as unknown as AstNode;
  const starts = lineStarts(text);
  const found: FunctionLength[] = [];
  const walk = (node: AstNode): void => {
    const named = namedFunction(node);
    if (named) {
      // A declarator's line is the `const` line when it is the statement's only declarator.
      const line = lineOf(starts, named.from.start);
      const end = lineOf(starts, Math.max(named.fn.end - 1, named.fn.start));
      found.push({ file, name: named.name, line, lines: end - line + 1 });
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) {
        for (const item of value) if (isNode(item)) walk(item);
      } else if (isNode(value)) walk(value);
    }
  };
  walk(program);
  return found;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** Named functions longer than `limit` lines under the given folders (repo-relative paths), longest first. */
export function longFunctions(root: string, dirs: readonly string[], limit: number): FunctionLength[] {
  return dirs
    .flatMap((dir) => sourceFiles(path.join(root, dir)))
    .flatMap((file) => functionLengths(fs.readFileSync(file, 'utf8'), path.relative(root, file)))
    .filter((f) => f.lines > limit)
    .sort((a, b) => b.lines - a.lines);
}

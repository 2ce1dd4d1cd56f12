import fs from 'node:fs';
import path from 'node:path';
import { describeProblem, fieldWords, plainWords } from '@pharmacy/contracts/plain-words';
import { parseAst } from 'rolldown/parseAst';
import { describe, expect, it } from 'vitest';

/**
 * Issue 29, "Words": every message the till shows for a failed request is plain. This walks every error the
 * server constructs (each `new AppError(…)`, `new Conflict(…)`… and `sendProblem(…)` in packages/server and
 * packages/hardware, with its code and its detail, a template's placeholders filled with a sample) through the
 * one function the UI uses (describeProblem) and fails on an API route, an HTTP verb, a field path, a column
 * name or an operating-system error code in what a person would read.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const ERROR_CLASSES = new Set([
  'AppError',
  'Invalid',
  'Unauthorized',
  'Forbidden',
  'NotFound',
  'Conflict',
  'TooManyRequests',
  'ServiceUnavailable',
  'Rejection',
  'PushForbidden',
  'StorageError',
  'PrinterError',
  'sendProblem',
]);

interface Node {
  type: string;
  [key: string]: unknown;
}
const isNode = (v: unknown): v is Node =>
  typeof v === 'object' && v !== null && typeof (v as Node).type === 'string';

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'testing' || e.name === 'node_modules' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [full] : [];
  });
}

/** A string argument's text; a template's placeholders read as a sample value. */
function textOf(node: unknown): string | null {
  if (!isNode(node)) return null;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral')
    return (node.quasis as Array<{ value: { cooked: string } }>).map((q) => q.value.cooked).join('12');
  return null;
}

interface Thrown {
  where: string;
  code: string;
  detail: string;
}

function thrownErrors(file: string): Thrown[] {
  const text = fs.readFileSync(file, 'utf8');
  const out: Thrown[] = [];
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isNode(node)) return;
    const callee = node.callee as Node | undefined;
    const name = callee && callee.type === 'Identifier' ? String(callee.name) : '';
    if ((node.type === 'NewExpression' || node.type === 'CallExpression') && ERROR_CLASSES.has(name)) {
      const texts = (node.arguments as unknown[]).map(textOf).filter((t): t is string => t !== null);
      const code = texts.find((t) => /^[A-Z][A-Z0-9_]+$/.test(t)) ?? 'ERROR';
      for (const detail of texts.filter((t) => t !== code))
        out.push({ where: `${path.relative(ROOT, file)} (${code})`, code, detail });
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'type') visit(value);
  };
  visit(parseAst(text, { lang: file.endsWith('x') ? 'tsx' : 'ts' }, file));
  return out;
}

/** What reads like the API rather than like a sentence. */
function apiWords(sentence: string): string[] {
  const found: string[] = [];
  for (const [what, pattern] of [
    ['an HTTP verb and route', /\b(?:GET|POST|PUT|PATCH|DELETE)\s+\//],
    ['a route', /(?<![\w.])\/(?!(?:dev|etc|tmp|var|usr|home)\/)[a-z][a-z-]*\/[a-z{]/],
    [
      'an errno code',
      /\bE(?:NOENT|ACCES|PERM|BUSY|CONN[A-Z]+|HOSTUNREACH|TIMEDOUT|NOTFOUND|PIPE|IO|NODEV|NXIO)\b/,
    ],
    ['a field path', /\b[a-z][a-z0-9_]*\.\d+\b|\b[a-z]+_[a-z0-9_]+\.[a-z]/],
    ['a column name', /\b[a-z][a-z0-9]*_[a-z0-9_]+\b/],
  ] as const)
    if (pattern.test(sentence)) found.push(what);
  return found;
}

const errors = [
  ...sourceFiles(path.join(ROOT, 'packages/server/src')),
  ...sourceFiles(path.join(ROOT, 'packages/hardware/src')),
].flatMap(thrownErrors);

describe('the words a person reads for a failed request (issue 29)', () => {
  it('finds the errors the server constructs', () => {
    expect(errors.length).toBeGreaterThan(300);
    expect(new Set(errors.map((e) => e.code)).size).toBeGreaterThan(100);
  });

  it('shows no route, verb, field path, column name or errno for any of them', () => {
    const bad = errors
      .map((e) => ({ ...e, shown: describeProblem({ status: 400, code: e.code, detail: e.detail }) }))
      .filter((e) => apiWords(e.shown).length > 0)
      .map((e) => `${e.where}: ${apiWords(e.shown).join(', ')} in "${e.shown}"`);
    expect(bad).toEqual([]);
  });

  it('would fail on the details as the server words them (the check can fail)', () => {
    expect(errors.filter((e) => apiWords(e.detail).length > 0).length).toBeGreaterThan(10);
  });

  it('words the examples the counter met', () => {
    expect(
      describeProblem({
        status: 400,
        code: 'VALIDATION',
        detail: 'payment_lines.0.amount: is too large.',
        errors: [{ path: 'payment_lines.0.amount', message: 'is too large' }],
      }),
    ).toBe('Check payment line 1, amount: is too large.');
    expect(
      describeProblem({
        status: 409,
        code: 'NO_OPEN_SESSION',
        detail: 'You have no open cash session; open one with POST /sessions/open first.',
      }),
    ).toBe('No cash session is open on this till. Open one on Cash session (F6) first.');
    expect(plainWords('Cannot open device /dev/ttyUSB0: ENOENT')).toBe(
      'Cannot open device /dev/ttyUSB0: it is not there (is it plugged in?)',
    );
    expect(fieldWords('reason')).toBe('reason');
    expect(fieldWords('collector.id_number')).toBe('collector, ID number');
    // A path a person typed is theirs, shown as typed: never taken for a route.
    expect(plainWords('ports.0.path: /etc/passwd must name a serial port node: /dev/ttyUSB0')).toBe(
      'port 1, path: /etc/passwd must name a serial port node: /dev/ttyUSB0',
    );
    expect(plainWords('credit_limit must be at least 0')).toBe('credit limit must be at least 0');
  });
});

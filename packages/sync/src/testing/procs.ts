import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, dropTestDatabase } from '@pharmacy/server/local-postgres';
import Database from 'better-sqlite3';
import pg from 'pg';
import { inject } from 'vitest';
// The server's own placeholder numbering (not among @pharmacy/server's exports; a test helper may reach in).
import { numberedPlaceholders } from '../../../server/src/db/raw-query';
import { TEST_PASSWORD_COST_ENV } from '../../../server/src/lib/passwords';
// How a server or the register command starts: its bundle, built once per run.
import { entryArgs } from '../../../server/src/testing/bundles';
import { eventually } from './eventually';

export const ROOT = path.resolve(import.meta.dirname, '../../../..');
/** Seeded with a password of its own (PHARMACY_ADMIN_PASSWORD): a default one must be changed before use. */
export const ADMIN = { email: 'admin@pharmacy.local', password: 'Procs#Admin-2468' };

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export const tmpDir = (name: string) => fs.mkdtempSync(path.join(os.tmpdir(), `pharmacy-sync-${name}-`));

/** A server (central or till) running as a real child process with its own data folder. */
export class ServerProcess {
  child: ChildProcess | null = null;
  url = '';
  private token: string | null = null;
  exited: Promise<number | null> = Promise.resolve(null);
  log = '';
  /** Run by dispose() after the process is stopped (a PostgreSQL central drops its database). */
  onDispose: Array<() => Promise<void>> = [];
  private pool: pg.Pool | null = null;

  constructor(
    readonly name: string,
    readonly dataDir: string,
    readonly env: Record<string, string>,
  ) {}

  /** Whether this server keeps its data in PostgreSQL (DATABASE_URL) rather than DATA_DIR/pharmacy.db. */
  get databaseUrl(): string | undefined {
    return this.env.DATABASE_URL;
  }

  /**
   * Reads this server's database directly, whichever engine holds it: better-sqlite3 read-only on its file, or
   * a pg client on its DATABASE_URL (`?` placeholders numbered $1…). Write SQL both engines accept. BIGINT and
   * NUMERIC values arrive as numbers, as the server itself reads them (db/postgres.ts) and as SQLite gives them.
   */
  async query<R = Record<string, unknown>>(text: string, ...params: unknown[]): Promise<R[]> {
    const url = this.databaseUrl;
    if (!url) {
      const db = new Database(this.dbFile, { readonly: true, fileMustExist: true });
      db.pragma('busy_timeout = 5000');
      try {
        return db.prepare(text).all(...params) as R[];
      } finally {
        db.close();
      }
    }
    this.pool ??= newReaderPool(url);
    return (await this.pool.query(numberedPlaceholders(text), params)).rows as R[];
  }

  /**
   * Throws unless this server keeps its data where the run says: in the PostgreSQL run a central must have no
   * SQLite file (a silent fall-back to SQLite would make the PostgreSQL run test SQLite again).
   */
  async assertEngine(): Promise<void> {
    const postgres = Boolean(this.databaseUrl);
    if (postgres !== (centralOnPostgres() && this.env.PHARMACY_MODE === 'central'))
      throw new Error(`${this.name}: DATABASE_URL ${postgres ? 'set' : 'unset'} in this run`);
    if (fs.existsSync(this.dbFile) === postgres)
      throw new Error(`${this.name}: ${this.dbFile} ${postgres ? 'exists' : 'is missing'}`);
    if (postgres) await this.query('SELECT 1 FROM users');
  }

  /** The first row of query(), or undefined. */
  async queryOne<R = Record<string, unknown>>(text: string, ...params: unknown[]): Promise<R | undefined> {
    return (await this.query<R>(text, ...params))[0];
  }

  /** Stops the process (SIGTERM), closes the reader, drops its PostgreSQL database if any, removes DATA_DIR. */
  async dispose(): Promise<void> {
    await this.kill('SIGTERM');
    await this.pool?.end();
    this.pool = null;
    for (const fn of this.onDispose.splice(0)) await fn();
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }

  async start(extraEnv: Record<string, string> = {}): Promise<void> {
    const child = spawn(process.execPath, entryArgs('server'), {
      cwd: ROOT,
      env: {
        ...process.env,
        DATA_DIR: this.dataDir,
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        PHARMACY_SYNC_TEST_ENTITIES: '1',
        PHARMACY_ADMIN_PASSWORD: ADMIN.password,
        ...TEST_PASSWORD_COST_ENV,
        ...this.env,
        ...extraEnv,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: a kill reaches whatever it started too (tsx runs the server in a child).
      detached: true,
    });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    // Only this start's output: a restarted till on PORT 0 announces a new port.
    const from = this.log.length;
    this.url = await new Promise<string>((resolve, reject) => {
      const onData = (d: Buffer) => {
        this.log += d.toString();
        const m = /ready on (http:\/\/[\d.]+:\d+)/.exec(this.log.slice(from));
        if (m?.[1]) resolve(m[1]);
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', (d: Buffer) => {
        this.log += d.toString();
      });
      child.once('exit', (code) =>
        reject(new Error(`${this.name} exited (${code}) before ready:\n${this.log.slice(-3000)}`)),
      );
      setTimeout(
        () => reject(new Error(`${this.name} not ready in 30 s:\n${this.log.slice(-3000)}`)),
        30_000,
      ).unref();
    });
    this.token = null;
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (!this.child || this.child.exitCode !== null || this.child.signalCode !== null) return;
    try {
      process.kill(-this.child.pid!, signal);
    } catch {
      this.child.kill(signal);
    }
    await this.exited;
  }

  async request<T = Record<string, unknown>>(
    method: string,
    url: string,
    body?: unknown,
    auth = true,
  ): Promise<{ status: number; body: T }> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const headers: Record<string, string> = {};
      if (auth) headers.authorization = `Bearer ${await this.adminToken()}`;
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await this.fetch(`/api/v1${url}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      // A till swaps its users at bootstrap: sign in again once.
      if (res.status === 401 && auth && attempt === 0) {
        this.token = null;
        continue;
      }
      return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
    }
    throw new Error('unreachable');
  }

  async adminToken(): Promise<string> {
    if (this.token) return this.token;
    const res = await this.fetch('/api/v1/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const body = (await res.json()) as { access_token: string };
    if (res.status !== 200) throw new Error(`${this.name} login ${res.status} ${JSON.stringify(body)}`);
    this.token = body.access_token;
    return this.token;
  }

  /**
   * fetch against this process; when it does not answer, the error says whether it is still running and ends
   * with its last output, so a crash shows its own stack instead of a bare ECONNREFUSED.
   */
  async fetch(pathAndQuery: string, init?: RequestInit): Promise<Response> {
    try {
      return await fetch(`${this.url}${pathAndQuery}`, init);
    } catch (err) {
      const state =
        this.child?.exitCode !== null || this.child?.signalCode !== null
          ? `exited (${this.child?.exitCode ?? this.child?.signalCode})`
          : 'still running';
      throw new Error(
        `${this.name} did not answer ${init?.method ?? 'GET'} ${pathAndQuery}: ${(err as Error).cause ?? err}; it has ${state}. Its last output:\n${this.log.slice(-3000)}`,
      );
    }
  }

  get dbFile(): string {
    return path.join(this.dataDir, 'pharmacy.db');
  }
}

/** Whether this is the PostgreSQL test run (vitest.postgres.config.ts): central then runs on PostgreSQL. */
const centralOnPostgres = () => process.env.PHARMACY_TEST_DB === 'postgres';
let databases = 0;

/**
 * A central server process. In the PostgreSQL run it gets a fresh database of its own (a clone of the run's
 * migrated template) through DATABASE_URL, dropped by dispose(); otherwise its SQLite file in DATA_DIR.
 */
export async function newCentral(port: number): Promise<ServerProcess> {
  const env: Record<string, string> = {
    PHARMACY_MODE: 'central',
    PORT: String(port),
    JWT_SECRET: randomBytes(32).toString('hex'),
  };
  let drop: (() => Promise<void>) | undefined;
  if (centralOnPostgres()) {
    const adminUrl = inject('postgresAdminUrl');
    const name = `sync_${process.pid}_${++databases}_${randomBytes(3).toString('hex')}`;
    await createTestDatabase(adminUrl, name);
    env.DATABASE_URL = adminUrl.replace(/\/postgres$/, `/${name}`);
    drop = () => dropTestDatabase(adminUrl, name);
  }
  const central = new ServerProcess('central', tmpDir('central'), env);
  if (drop) central.onDispose.push(drop);
  return central;
}

/** A pool of one for a test's direct reads of a PostgreSQL database (integers as numbers, like the server). */
function newReaderPool(url: string): pg.Pool {
  const toNumber = (value: string) => Number(value);
  const pool = new pg.Pool({
    connectionString: url,
    max: 1,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC
          ? toNumber
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle connection cut by the database (dropped, restarted) must not crash the test process.
  pool.on('error', () => {});
  return pool;
}

/**
 * Registers a till with central through the real CLI (npm run till:register). Asynchronously: a test process
 * blocked in spawnSync for longer than central's keep-alive timeout (5 s, on a loaded machine) found its
 * kept-alive connection to central closed under it at its next request ("other side closed").
 */
export async function registerTill(
  centralUrl: string,
  dataDir: string,
  name: string,
  branchId?: string,
): Promise<void> {
  const child = spawn(
    process.execPath,
    [
      ...entryArgs('register'),
      '--central',
      centralUrl,
      '--email',
      ADMIN.email,
      '--password',
      ADMIN.password,
      '--name',
      name,
      '--data-dir',
      dataDir,
      ...(branchId ? ['--branch', branchId] : []),
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0) throw new Error(`till:register failed (${code}): ${output}`);
}

export function newTill(name: string, centralUrl: string, dataDir: string): ServerProcess {
  return new ServerProcess(name, dataDir, {
    PHARMACY_MODE: 'till',
    PORT: '0',
    // Its sync cycles' failures and refused requests (info) are in the log a failed wait prints.
    LOG_LEVEL: 'info',
    CENTRAL_URL: centralUrl,
    SYNC_INTERVAL_MS: '300',
    SYNC_BACKOFF_MAX_MS: '800',
  });
}

/**
 * Waits until a till has loaded central's snapshot (GET /sync/status says bootstrapped). On time-out the error
 * carries every change of the till's sync status seen meanwhile (time since the wait began, status, last
 * error, progress) and the till's last output, so a slow or stuck first bootstrap says where it stood.
 */
export async function bootstrapped(till: ServerProcess, timeoutMs = 60_000): Promise<void> {
  const began = Date.now();
  const trace: string[] = [];
  let previous = '';
  try {
    await eventually(
      `${till.name} bootstrapped`,
      async () => {
        let line: string;
        let done = false;
        try {
          const res = await till.request<Record<string, unknown>>('GET', '/sync/status');
          // What changes on every poll (times, the progress of a download) does not make a new line.
          const {
            last_attempt_at: _a,
            last_success_at: _s,
            last_push_at: _p,
            last_pull_at: _l,
            ...status
          } = res.body ?? {};
          const { bootstrap_progress: _progress, ...kept } = status;
          const error = kept.last_error as { at?: string } | null;
          line = `${res.status} ${JSON.stringify({ ...kept, last_error: error && { ...error, at: undefined } })}`;
          done = res.body?.bootstrapped === true;
        } catch (err) {
          line = `no status: ${(err as Error).message.split('\n')[0]}`;
        }
        if (line !== previous) trace.push(`+${Date.now() - began} ms ${line}`);
        previous = line;
        return done;
      },
      timeoutMs,
    );
  } catch (err) {
    throw new Error(
      `${(err as Error).message}\nits sync status meanwhile:\n${trace.join('\n')}\nits output:\n${headAndTail(till.log)}`,
    );
  }
}

/** The first and last lines of a long output: how it began and where it stands. */
function headAndTail(text: string, lines = 40): string {
  const all = text.split('\n');
  if (all.length <= 2 * lines) return text;
  return [...all.slice(0, lines), `… ${all.length - 2 * lines} lines …`, ...all.slice(-lines)].join('\n');
}

/** Whether the server's database holds the user yet, and whether they still must choose a password. */
async function userState(t: ServerProcess, email: string): Promise<{ mustChange: boolean } | null> {
  const row = await t.queryOne<{ m: number }>(
    'SELECT must_change_password AS m FROM users WHERE email = ?',
    email,
  );
  return row ? { mustChange: row.m === 1 } : null;
}

/**
 * Signs a user in at a server as a person would: the first time with the password their creator set, which the
 * server makes them replace (it answers nothing else before), later with their own (`${password}-mine`).
 * Returns null while the server does not hold the user yet (not replicated), without a failed sign-in: failures
 * count towards the account's lockout.
 */
export async function signInAsUser(
  t: ServerProcess,
  email: string,
  password: string,
): Promise<string | null> {
  const state = await userState(t, email);
  if (!state) return null;
  const signIn = async (pw: string) => {
    const res = await t.fetch('/api/v1/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: pw }),
    });
    if (res.status !== 200) throw new Error(`${email}: sign-in ${res.status} ${await res.text()}`);
    return ((await res.json()) as { access_token: string }).access_token;
  };
  const own = `${password}-mine`;
  if (!state.mustChange) return signIn(own);
  const first = await signIn(password);
  const res = await t.fetch('/api/v1/auth/change-password', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${first}` },
    body: JSON.stringify({ current_password: password, new_password: own }),
  });
  if (res.status !== 200) throw new Error(`${email}: password change ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

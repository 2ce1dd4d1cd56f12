import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Role } from '@pharmacy/contracts';
import type { Statement } from 'better-sqlite3';
import pg from 'pg';
import { inject } from 'vitest';
import { type ConfigInput, parseConfig } from '../config';
import { openDatabase, type Sqlite } from '../db/connection';
import { migrate } from '../db/migrate';
import { runRaw } from '../db/prepared';
import { TEST_PASSWORD_COST_ENV } from '../lib/passwords';
import { declaredOpenApi } from '../modules/openapi/declared';
import { createServer, type PharmacyServer } from '../server';
import { createTestDatabase, dropTestDatabase } from '../db/local-postgres';
import { type OpenApiDocument, ResponseContract } from './response-contract';

/**
 * The seeded users of a test server, with passwords of their own: a seeded default password must be changed
 * before any route but sign-in, /auth/me and change-password answers (403 PASSWORD_CHANGE_REQUIRED).
 */
export const ADMIN = { email: 'admin@pharmacy.local', password: 'Harness#Admin-2468' };
export const PHARMACIST = { email: 'pharmacist@pharmacy.local', password: 'Harness#Pharm-2468' };
/** What userWithRole's users sign in with, once the harness has replaced the password their creator set. */
export const USER_PASSWORD = 'Harness#User-1357';

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Sent as-is instead of JSON.stringify(body). */
  raw?: string;
  headers?: Record<string, string>;
}

// Argon2 at its floor in this process and the servers it spawns (lib/passwords.ts: the one switch).
Object.assign(process.env, TEST_PASSWORD_COST_ENV);

/** Kept-alive connections to the test servers of this process (fetch keeps its connections alive too). */
const loopbackAgent = new http.Agent({ keepAlive: true });

/**
 * One request through node:http, as fetch would send it, answered with the status, the headers and the body
 * as text (UTF-8, a leading byte-order mark dropped, as Response.text() reads it), or null for an event stream,
 * which never ends: its connection is closed once the headers are in. node:http rather than fetch: every test
 * request went through fetch's WHATWG streams, about a fifth of the CPU of a test that sends thousands.
 */
function loopbackRequest(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<{ status: number; headers: Headers; text: string | null }> {
  // Its length always, as fetch sends it: node:http frames the body of a DELETE (or GET) by neither length nor
  // chunks otherwise, and the server reads it as the start of the next request.
  const framed =
    body === undefined ? headers : { 'content-length': String(Buffer.byteLength(body)), ...headers };
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(url, { method, headers: framed, agent: loopbackAgent }, (res) => {
      answered = true;
      const received = new Headers();
      for (let i = 0; i < res.rawHeaders.length; i += 2)
        received.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
      const status = res.statusCode ?? 0;
      if (/text\/event-stream/.test(res.headers['content-type'] ?? '')) {
        res.destroy();
        resolve({ status, headers: received, text: null });
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('error', reject);
      res.once('end', () => resolve({ status, headers: received, text: utf8.decode(Buffer.concat(chunks)) }));
      // Cut short without an error event: settled all the same (a resolved promise ignores this).
      res.once('close', () => {
        if (!res.complete)
          reject(new Error(`${method} ${url}: the connection closed before the answer ended`));
      });
    });
    // A server that answers before reading all of a large body may close the connection under the rest of it:
    // the answer stands (fetch gives it too).
    req.once('error', (err) => {
      if (!answered) reject(err);
    });
    req.end(body);
  });
}
const utf8 = new TextDecoder();

/** A row of TestServer.tableCounts()' statement. */
type TableCount = { name: string; n: number | string };

/** One response validator per process: its compiled schemas serve every test server. */
let contract: ResponseContract | undefined;

/**
 * A real server on an ephemeral loopback port with its own SQLite file in a temporary folder: tests talk to
 * it over HTTP exactly as a till's UI does.
 */
export class TestServer {
  private tokens = new Map<string, string>();

  constructor(
    readonly server: PharmacyServer,
    readonly baseUrl: string,
    readonly dataDir: string,
  ) {}

  get context() {
    return this.server.context;
  }

  async request<T = Record<string, unknown>>(
    method: string,
    url: string,
    options: RequestOptions = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await loopbackRequest(this.baseUrl + url, method, headers, body);
    if (res.text === null) {
      // An event stream never ends: the status and headers are what a test can assert here.
      return { status: res.status, headers: res.headers, body: '' as T };
    }
    const text = res.text;
    const contentType = res.headers.get('content-type') ?? '';
    let parsed: unknown = text;
    if (text && /json/.test(contentType)) parsed = JSON.parse(text);
    const broken = this.responseContract().check(method, url, res.status, contentType, parsed);
    if (broken) throw new Error(broken);
    return { status: res.status, headers: res.headers, body: parsed as T };
  }

  /**
   * The OpenAPI document every answer is held to (see response-contract.ts): the declared routes' document,
   * which every server serves alike, built and compiled once per test process.
   */
  private responseContract(): ResponseContract {
    contract ??= new ResponseContract(declaredOpenApi() as OpenApiDocument);
    return contract;
  }

  get = <T = Record<string, unknown>>(url: string, token?: string) => this.request<T>('GET', url, { token });
  post = <T = Record<string, unknown>>(url: string, body: unknown, token?: string) =>
    this.request<T>('POST', url, { body, token });
  put = <T = Record<string, unknown>>(url: string, body: unknown, token?: string) =>
    this.request<T>('PUT', url, { body, token });
  patch = <T = Record<string, unknown>>(url: string, body: unknown, token?: string) =>
    this.request<T>('PATCH', url, { body, token });
  delete = <T = Record<string, unknown>>(url: string, token?: string) =>
    this.request<T>('DELETE', url, { token });

  async login(email: string, password: string): Promise<string> {
    const res = await this.post<{ access_token: string }>('/api/v1/auth/login', { email, password });
    if (res.status !== 200)
      throw new Error(`login ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.access_token;
  }

  /** Signs in with a password someone else set and replaces it, as a new user must; returns the new token. */
  async firstSignIn(email: string, setPassword: string, newPassword: string): Promise<string> {
    const token = await this.login(email, setPassword);
    const res = await this.post<{ access_token: string }>(
      '/api/v1/auth/change-password',
      { current_password: setPassword, new_password: newPassword },
      token,
    );
    if (res.status !== 200)
      throw new Error(`change password of ${email}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.access_token;
  }

  async adminToken(): Promise<string> {
    const cached = this.tokens.get('admin');
    if (cached) return cached;
    const token = await this.login(ADMIN.email, ADMIN.password);
    this.tokens.set('admin', token);
    return token;
  }

  /** The seeded Main Branch. */
  async mainBranchId(): Promise<string> {
    const row = await this.context.db
      .selectFrom('branches')
      .select('id')
      .where('code', '=', 'MAIN')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async createBranch(code: string): Promise<string> {
    const res = await this.post<{ id: string }>(
      '/api/v1/branches',
      { name: `Branch ${code}`, code },
      await this.adminToken(),
    );
    if (res.status !== 201)
      throw new Error(`create branch failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id;
  }

  /** A signed-in user of the given role (created once per role and branch), with its token. */
  async userWithRole(
    role: Role,
    branchId?: string,
  ): Promise<{ id: string; token: string; branchId: string; email: string }> {
    const branch = branchId ?? (await this.mainBranchId());
    const key = `${role}@${branch}`;
    const email = `${role}.${branch.slice(-12)}@test.local`.toLowerCase();
    if (!this.tokens.has(key)) {
      const res = await this.post<{ id: string }>(
        '/api/v1/users',
        { email, password: 'Set-by-admin#1', full_name: `Test ${role}`, role, branch_id: branch },
        await this.adminToken(),
      );
      if (res.status !== 201)
        throw new Error(`create ${role} failed: ${res.status} ${JSON.stringify(res.body)}`);
      this.tokens.set(key, await this.firstSignIn(email, 'Set-by-admin#1', USER_PASSWORD));
    }
    const user = await this.context.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    return { id: user.id, token: this.tokens.get(key)!, branchId: branch, email };
  }

  /** The database this server runs on: SQLite, or PostgreSQL in the PHARMACY_TEST_DB=postgres run. */
  get dialect(): 'sqlite' | 'postgres' {
    return this.context.sqlite ? 'sqlite' : 'postgres';
  }

  /** The SQLite handle, for tests of SQLite itself (pragmas, the file); throws on PostgreSQL. */
  get sqlite(): Sqlite {
    if (!this.context.sqlite) throw new Error('this test inspects SQLite itself; it has no PostgreSQL form');
    return this.context.sqlite;
  }

  /** Rows of a query written with ? placeholders, on either dialect: tests read and tamper through it. */
  async query<R = Record<string, unknown>>(text: string, ...params: unknown[]): Promise<R[]> {
    return (await runRaw<R>(this.context.db, text, params)).rows;
  }

  /** A write with ? placeholders, on either dialect; resolves with the number of rows it changed. */
  async exec(text: string, ...params: unknown[]): Promise<number> {
    return Number((await runRaw(this.context.db, text, params)).numAffectedRows ?? 0);
  }

  /** Number of rows in a table: tests use it to prove that a refused request wrote nothing. */
  async count(table: string): Promise<number> {
    const [row] = await this.query<{ n: number }>(`SELECT count(*) AS n FROM "${table.replaceAll('"', '')}"`);
    return Number(row?.n ?? 0);
  }

  /** Row counts of several tables, in order: a refused request must leave all of them as they were. */
  async counts(tables: string[]): Promise<number[]> {
    const out: number[] = [];
    for (const table of tables) out.push(await this.count(table));
    return out;
  }

  /**
   * The row count of every table (full-text index tables aside), in one prepared statement: what a refused
   * request must leave as it was. On PostgreSQL through a connection of its own with a named statement,
   * planned once: through the server's pool the hundred-table UNION was planned again on every call, about
   * five times the cost.
   */
  async tableCounts(): Promise<Record<string, number>> {
    this.countEveryTable ??= await this.countEveryTableStatement();
    let rows: TableCount[];
    const sqlite = this.context.sqlite;
    if (sqlite) {
      // Prepared once: preparing the hundred-table UNION was most of a count's time on SQLite.
      this.countEveryTableOnSqlite ??= sqlite.prepare<[], TableCount>(this.countEveryTable);
      rows = this.countEveryTableOnSqlite.all();
    } else {
      if (!this.countsClient) {
        const client = new pg.Client({ connectionString: this.context.config.databaseUrl });
        await client.connect();
        this.countsClient = client;
      }
      rows = (await this.countsClient.query({ name: 'count_every_table', text: this.countEveryTable })).rows;
    }
    return Object.fromEntries(rows.map((r) => [r.name, Number(r.n)]));
  }

  private countEveryTable: string | undefined;
  private countEveryTableOnSqlite: Statement<[], TableCount> | undefined;
  private countsClient: pg.Client | undefined;

  private async countEveryTableStatement(): Promise<string> {
    const tables = await this.query<{ name: string }>(
      this.context.sqlite
        ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%_fts%'"
        : "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'",
    );
    if (tables.length === 0) throw new Error('no tables to count');
    return tables
      .map(({ name }) => `SELECT '${name}' AS name, count(*) AS n FROM "${name.replaceAll('"', '')}"`)
      .join(' UNION ALL ');
  }

  /** One row of a table by id, as stored (undefined when absent). */
  async row(table: string, id: unknown): Promise<Record<string, unknown> | undefined> {
    return (await this.query(`SELECT * FROM "${table.replaceAll('"', '')}" WHERE id = ?`, id))[0];
  }

  /** Registers a till on this central as admin (in `branchId`, else the main branch): its id and token. */
  async registerDevice(name: string, branchId?: string): Promise<{ id: string; token: string }> {
    const res = await this.post<{ device_id: string; device_token: string }>(
      '/api/v1/sync/devices/register',
      { name, ...(branchId && { branch_id: branchId }) },
      await this.adminToken(),
    );
    if (res.status !== 201) throw new Error(`register ${name}: ${res.status} ${JSON.stringify(res.body)}`);
    return { id: res.body.device_id, token: res.body.device_token };
  }

  /** The newest revision of the change log: what a till's cursor would be after a full pull. */
  async headRevision(): Promise<number> {
    const [row] = await this.query<{ r: number | null }>('SELECT max(revision) AS r FROM change_log');
    return Number(row?.r ?? 0);
  }

  async close(): Promise<void> {
    // server.close() first, at once: a test may close it in the middle of a request (server-close.test).
    await this.server.close();
    await this.countsClient?.end();
    fs.rmSync(this.dataDir, { recursive: true, force: true });
    unclosed.delete(this.dataDir);
    await this.onClose?.();
  }

  onClose?: () => Promise<void>;
}

/** Data folders of servers their test never closed: removed as the test process exits, not left in the temp dir. */
const unclosed = new Set<string>();
process.once('exit', () => {
  for (const dir of unclosed) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * A test server. In the PostgreSQL run (PHARMACY_TEST_DB=postgres, see postgres-global-setup.ts) a server is
 * central on a fresh PostgreSQL database unless the test asks for a till (mode: 'till'), which is SQLite by
 * design.
 */
export async function startTestServer(overrides: Partial<ConfigInput> = {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pharmacy-test-'));
  unclosed.add(dataDir);
  const postgres = await testPostgresDatabase(overrides);
  // A SQLite server starts from a copy of the migrated template (a test naming its own data folder keeps it).
  if (!postgres && !overrides.databaseUrl && overrides.dataDir === undefined)
    fs.copyFileSync(await migratedSqliteTemplate(), path.join(dataDir, SQLITE_FILE));
  const config = parseConfig({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    logLevel: (process.env.TEST_LOG_LEVEL as ConfigInput['logLevel']) ?? 'silent',
    jwtSecret: randomBytes(32).toString('hex'),
    seed: { adminPassword: ADMIN.password, pharmacistPassword: PHARMACIST.password },
    ...overrides,
    ...postgres?.config,
  });
  const server = await createServer(config);
  const { port } = await server.listen(0, '127.0.0.1');
  const t = new TestServer(server, `http://127.0.0.1:${port}`, dataDir);
  t.onClose = postgres?.drop;
  return t;
}

const SQLITE_FILE = 'pharmacy.db';
let sqliteTemplate: Promise<string> | undefined;

/**
 * The SQLite file every test server's database is copied from, migrated once per test process (as the
 * PostgreSQL run clones a migrated template database): a copy costs a millisecond, twenty migrations about a
 * hundred. Seeding stays per server, so each one has its own branch and user ids, as a real till does.
 */
function migratedSqliteTemplate(): Promise<string> {
  sqliteTemplate ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pharmacy-template-'));
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, SQLITE_FILE);
    const conn = openDatabase(file);
    try {
      await migrate(conn);
    } finally {
      // Closing the last connection checkpoints the WAL into the file and removes it: the file is whole.
      await conn.db.destroy();
    }
    return file;
  })();
  return sqliteTemplate;
}

/** Whether this run is the PostgreSQL one. */
export const testingOnPostgres = (): boolean => process.env.PHARMACY_TEST_DB === 'postgres';

let databases = 0;

async function testPostgresDatabase(overrides: Partial<ConfigInput>) {
  if (!testingOnPostgres() || overrides.mode === 'till' || overrides.databaseUrl) return undefined;
  const adminUrl = inject('postgresAdminUrl');
  const name = `t_${process.pid}_${++databases}_${randomBytes(3).toString('hex')}`;
  await createTestDatabase(adminUrl, name);
  return {
    config: {
      mode: 'central' as const,
      databaseUrl: adminUrl.replace(/\/postgres$/, `/${name}`),
      databasePoolSize: overrides.databasePoolSize ?? 4,
    },
    drop: () => dropTestDatabase(adminUrl, name),
  };
}

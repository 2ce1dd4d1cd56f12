import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../config';
import { createServer, type PharmacyServer } from '../../server';
import { startTestServer, type TestServer, testingOnPostgres } from '../../testing/harness';

/**
 * Outside tools hold central to its OpenAPI document whatever it runs on: the document a central serves on
 * PostgreSQL (the test server of the PostgreSQL run) equals the one a central on SQLite serves.
 */
let t: TestServer;
let sqliteCentral: PharmacyServer;
let sqliteUrl: string;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pharmacy-openapi-sqlite-'));

beforeAll(async () => {
  t = await startTestServer({ mode: 'central' });
  sqliteCentral = await createServer(
    parseConfig({
      mode: 'central',
      port: 0,
      dataDir,
      logLevel: 'silent',
      jwtSecret: randomBytes(32).toString('hex'),
      seed: {},
    }),
  );
  const { port } = await sqliteCentral.listen(0, '127.0.0.1');
  sqliteUrl = `http://127.0.0.1:${port}`;
}, 60_000);
afterAll(async () => {
  await t.close();
  await sqliteCentral.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the OpenAPI document on either database', () => {
  it(`is the same on ${testingOnPostgres() ? 'PostgreSQL' : 'SQLite'} as on SQLite`, async () => {
    expect(t.dialect).toBe(testingOnPostgres() ? 'postgres' : 'sqlite');
    const theirs = await (await fetch(`${t.baseUrl}/api/v1/openapi.json`)).json();
    const sqlite = await (await fetch(`${sqliteUrl}/api/v1/openapi.json`)).json();
    expect(Object.keys(theirs.paths).length).toBeGreaterThan(100);
    expect(theirs).toEqual(sqlite);
  });
});

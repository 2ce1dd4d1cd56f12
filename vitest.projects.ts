import os from 'node:os';
import type { TestProjectInlineConfiguration } from 'vitest/config';

/**
 * Test files that change what other files in their process would see, and cannot undo it: the desktop shell's
 * test mocks a module (electron) and imports the shell's entry, which takes over the process (its app events,
 * process.resourcesPath). It runs in a fresh module graph of its own, as every file did before.
 *
 * Every other file shares its worker's modules, so none may leave process-wide state behind: a test server
 * takes its timings from its own configuration (startTestServer({ printing: ... }), never from process.env set
 * at load), a test that swaps process.env.PATH or fakes Date puts it back in a finally. The print worker's
 * tests (worker, print-lane, template-width), printers, compliance and discovery were isolated here until
 * they did (each paid the server's import, 2.6-4.1 s, again in each suite).
 */
export const NEEDS_ISOLATION = ['apps/desktop/src/main.test.ts'];

/**
 * Test files that touch no database: pure functions, the start-up configuration, the HTTP plumbing on a bare
 * express app, the structure and API-type checks. They run in the SQLite suite (vitest.config.ts); the
 * PostgreSQL suite (vitest.postgres.config.ts) leaves them out, as it would only run them a second time, alike:
 * nothing in them reaches PostgreSQL (PHARMACY_TEST_DB changes nothing they call).
 */
export const DIALECT_FREE = [
  'packages/server/src/config.test.ts',
  'packages/server/src/db/postgres-version.test.ts',
  'packages/server/src/http/dispatch.test.ts',
  'packages/server/src/http/request-log.test.ts',
  'packages/server/src/lib/ids.test.ts',
  'packages/server/src/lib/money.test.ts',
  'packages/server/src/lib/passwords.test.ts',
  'packages/server/src/lib/random.test.ts',
  'packages/server/src/lib/slug.test.ts',
  'packages/server/src/lib/time.test.ts',
  'packages/server/src/modules/reports/window.test.ts',
  'packages/server/src/modules/stock/dates.test.ts',
  'packages/server/src/modules/sync/canonical-json.test.ts',
  'packages/server/src/modules/sync/doors.test.ts',
  'tests/api-types.test.ts',
  'tests/dialog-autofocus.test.ts',
  'tests/error-words.test.ts',
  'tests/structure.test.ts',
];

/**
 * The suite as two projects: every other file shares the modules its worker has loaded (isolate: false), since
 * importing the server's module graph took about 4.5 s a file, most of a file's time; the files above stay
 * isolated. Each test still starts servers and databases of its own. `isolated` lists the files of
 * NEEDS_ISOLATION that the config's `include` matches (none in the PostgreSQL suite: one project then).
 */
export function projectsByIsolation(
  include: string[],
  exclude: string[],
  isolated: string[],
): TestProjectInlineConfiguration[] {
  const shared: TestProjectInlineConfiguration = {
    extends: true,
    test: { name: 'shared', include, exclude: [...exclude, ...isolated], isolate: false },
  };
  // No isolated project without files: an empty include is not "no files" to every vitest version.
  if (isolated.length === 0) return [shared];
  return [shared, { extends: true, test: { name: 'isolated', include: isolated, exclude, isolate: true } }];
}

/**
 * Transformed modules kept on disk (node_modules/.experimental-vitest-cache, keyed by each file's content):
 * the PostgreSQL run reuses what the SQLite run transformed, and a second run what the first did (ten server
 * test files: transform 10.8 s -> 1.9 s, 22 s of CPU -> 17 s). Vitest's own flag, experimental in 4.x; nothing
 * here transforms by anything but a file's content (no plugins, no import.meta.env).
 */
export const FS_MODULE_CACHE = true;

/** One worker per core: vitest's default leaves one idle (cores - 1), and server tests wait on disk and sockets. */
export const WORKERS = Math.max(2, os.availableParallelism());

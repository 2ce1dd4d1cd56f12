import { defineConfig } from 'vitest/config';
import { FS_MODULE_CACHE, NEEDS_ISOLATION, projectsByIsolation, WORKERS } from './vitest.projects';

export default defineConfig({
  test: {
    // The server and register entries bundled once, for the tests that start them as processes.
    globalSetup: ['packages/server/src/testing/bundles-global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: WORKERS,
    experimental: { fsModuleCache: FS_MODULE_CACHE },
    projects: projectsByIsolation(
      [
        'packages/*/src/**/*.test.ts',
        'apps/*/src/**/*.test.ts',
        'apps/*/scripts/**/*.test.ts',
        'tests/**/*.test.ts',
        'bench/**/*.test.ts',
      ],
      ['**/node_modules/**'],
      NEEDS_ISOLATION,
    ),
  },
});
